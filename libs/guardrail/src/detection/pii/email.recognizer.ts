import { boosted, contextBefore, type PiiCandidate } from './pii-candidate.model';

/**
 * Emails are found from each "@" outwards instead of with one regex: a regex with a repeated
 * local part backtracks on long "aaaa…" runs, while this scan touches every character at most
 * twice.
 *
 * Internationalized addresses (RFC 6531 local parts, IDN domains) count too: letters and marks
 * of the Latin, Greek and Cyrillic scripts may appear in both parts ("renée@exemple.fr",
 * "иван@почта.рф"). Scripts written without spaces (CJK, Thai, ...) are left out on purpose:
 * an address glued to such text ("連絡先はtaro@example.jpまで") would swallow its neighbours.
 */
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
const ROLE_ACCOUNTS = /^(?:info|support|help|sales|admin|contact|hello|noreply|no-reply|team|office|billing|security|abuse|postmaster|webmaster|hr|jobs|careers|press|marketing|privacy|legal)$/i;
const OBFUSCATION_HINT = /[[({]\s?at\s?[\])}]/i;
const RESERVED_TLDS = new Set(['invalid', 'test', 'example', 'localhost', 'local']);
const CONTEXT = /(?:e-?mail|mail|contact|reach|write to|courriel|correo|posta|endere[cç]o)/i;
const OBFUSCATED = /(?<![A-Za-z0-9._%+-])([A-Za-z0-9._%+-]{1,64})\s?[[({]\s?(?:at|AT)\s?[\])}]\s?([A-Za-z0-9-]{1,63}(?:\s?[[({]\s?(?:dot|DOT)\s?[\])}]\s?[A-Za-z0-9-]{1,63}){1,4})(?![A-Za-z0-9-])/g;

const LOCAL_CHARS = charTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._%+-');
const DOMAIN_CHARS = charTable('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.');

function charTable(chars: string): Uint8Array {
  const table = new Uint8Array(0x80);
  for (const char of chars) table[char.charCodeAt(0)] = 1;
  return table;
}

const SPACED_SCRIPT_LETTER = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{M}]/u;

function isInternationalChar(code: number): boolean {
  // Letters beyond the BMP (surrogate pairs) are not part of these scripts' addresses.
  return code >= 0xc0 && (code < 0xd800 || code > 0xdfff) && SPACED_SCRIPT_LETTER.test(String.fromCharCode(code));
}

function isLocalChar(code: number): boolean {
  return code < 0x80 ? LOCAL_CHARS[code] === 1 : isInternationalChar(code);
}

function isDomainChar(code: number): boolean {
  return code < 0x80 ? DOMAIN_CHARS[code] === 1 : isInternationalChar(code);
}

export function recognizeEmails(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  let at = text.indexOf('@');
  while (at !== -1) {
    let start = at;
    while (start > 0 && at - start < MAX_LOCAL && isLocalChar(text.charCodeAt(start - 1))) start--;
    while (start < at && text[start] === '.') start++;
    let end = at + 1;
    while (end < text.length && end - at <= MAX_DOMAIN && isDomainChar(text.charCodeAt(end))) end++;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end--;
    if (start === at || end <= at + 3) {
      at = text.indexOf('@', at + 1);
      continue;
    }
    const local = text.slice(start, at);
    const domain = text.slice(at + 1, end);
    // "git@github.com:org/repo" is SCP syntax, not a mailbox.
    const scpSyntax = text[end] === ':' && /[\w~/]/.test(text[end + 1] ?? '');
    const valid = local.length > 0 && !local.includes('..') && validDomain(domain) && !scpSyntax;
    if (valid) {
      const role = ROLE_ACCOUNTS.test(local);
      found.push({ type: 'email', start, end, confidence: boosted(role ? 0.75 : 0.9, contextBefore(text, start, CONTEXT, 32), 0.05) });
    }
    at = text.indexOf('@', Math.max(end, at + 1));
  }
  // The "name [at] domain [dot] tld" form is rare: scan for it only when a bracketed "at" occurs.
  if (!OBFUSCATION_HINT.test(text)) return found;
  OBFUSCATED.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = OBFUSCATED.exec(text)) !== null) {
    found.push({ type: 'email', start: match.index, end: match.index + match[0].length, confidence: 0.8 });
  }
  return found;
}

function validDomain(domain: string): boolean {
  const lastDot = domain.lastIndexOf('.');
  if (lastDot <= 0 || domain.length - lastDot - 1 < 2) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const tld = labels[labels.length - 1]!;
  // ASCII, punycode ("xn--p1ai") or an IDN top-level domain in a supported script ("рф").
  if (!/^(?:[A-Za-z]{2,24}|xn--[a-z0-9-]{1,59}|[\p{Script=Greek}\p{Script=Cyrillic}]{2,24})$/iu.test(tld)) return false;
  // RFC 2606 reserves these top-level domains; addresses in them reach nobody.
  if (RESERVED_TLDS.has(tld.toLowerCase())) return false;
  return labels.every((label) => label.length > 0 && label.length <= 63 && !label.startsWith('-') && !label.endsWith('-'));
}

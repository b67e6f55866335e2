import { KeywordAutomaton } from '../text/keyword.automaton';
import { toOriginalSpan, type TextView } from '../text/text-view.model';
import { characterClasses, shannonEntropy } from './entropy.util';
import { SECRET_RULES } from './secret.rules';

/** A secret match in ORIGINAL input offsets. Only offsets leave this module, never the value. */
export interface SecretMatch {
  ruleId: string;
  start: number;
  end: number;
  confidence: number;
}

const MAX_MATCHES_PER_RULE = 32;
const PRIVATE_KEY_HEADER = /-----BEGIN (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----/y;
const PRIVATE_KEY_FOOTER = /-----END (?:[A-Z0-9]{1,12} ){0,3}PRIVATE KEY(?: BLOCK)?-----/y;
/** A PEM body longer than this is not a key someone pasted; stop scanning there. */
const MAX_PEM_BODY = 16_384;
/** A header with less body than this is documentation ("starts with -----BEGIN PRIVATE KEY-----"). */
const MIN_PEM_BODY = 64;

/**
 * Generic rule: a secret-sounding key name assigned a value. Keyword occurrences are found
 * first and each is examined in a bounded window, so cost is linear in the text.
 */
const GENERIC_KEYWORD = /(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth[_-]?key|client[_-]?secret|private[_-]?key|credential|passwort|kennwort|contraseña|contrasena|senha|mot de passe|mot_de_passe)/gi;
/**
 * Key name tail, then the assignment: operators (`=`, `:`, `=>`, `:=`), an XML attribute pair
 * (`key="DbPassword" value="…"`) or a sentence ("the password for the server is …", "das
 * Passwort lautet …") with up to four words between the keyword and the copula.
 */
const GENERIC_TAIL =
  /[A-Za-z0-9_.-]{0,24}["']?(?:\s{1,3}(?:value|val)|(?:\s{1,3}[\p{L}]{1,14}){0,4}?)\s{0,3}(?::=|=>|=|:|\s(?:is|ist|lautet|est|es|è|é|era|was|são)(?=\s))\s{0,3}(["'`]?)([^\s"'`,;)}\]<>]{6,200})/uy;
const PASSWORD_KEY = /(?:pass|pwd|passwort|kennwort|contrase|senha|mot)/i;
const HASH_KEY = /(?:hash|sha|md5|checksum|digest|etag|commit|fingerprint|nonce|salt|csrf|xsrf|session_?id|request_?id|trace)/i;
const MAX_GENERIC_KEYWORDS = 256;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_DIGEST = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128})$/i;
const PLACEHOLDER =
  /^(?:x+|\*+|\.+|-+|_+|0+|#+|1234\w*|abc\w*|test\w*|dummy\w*|sample\w*|example\w*|fake\w*|changeme|change_me|change-me|password\d*|passw0rd|p@ssw0rd|secret\d*|mysecret|none|null|nil|undefined|true|false|required|optional|string|str|int|bool|boolean|todo|tbd|redacted|hidden|masked|removed|omitted|empty|blank|default|\[redacted\]|\[hidden\]|<[^>]*>?|\$\{.*|\{\{.*|%\(.*|\$[A-Za-z_]\w*|process\.env.*|os\.environ.*|os\.getenv.*|env\(.*|getenv.*|config\..*|settings\..*|self\..*|this\..*|your[_-].*|my[_-].*|insert\w*|replace\w*|placeholder\w*|enter\w*|set|unset|here|valid|invalid|wrong|incorrect|correct|strong|weak|long|short|reset|expired|forgotten|sent|needed|missing|the|a|an|not|also|still|used|stored|hashed|encrypted)$/i;
/** Password hashes in PHC / crypt formats are derived values, not the credential itself. */
const PASSWORD_HASH = /^\$(?:2[abxy]?|argon2(?:id|i|d)|scrypt|pbkdf2[\w-]*|[156])\$/;
/** Repeated or sequential characters are test data, not credentials. */
const LOW_VARIETY = /^(.)\1+$|^(?:0123456789|123456789|abcdefgh)/i;

const KEYWORDS = [...new Set(SECRET_RULES.flatMap((rule) => rule.keywords))];
const KEYWORD_INDEX = new Map(KEYWORDS.map((keyword, index) => [keyword, index]));
const KEYWORD_AUTOMATON = new KeywordAutomaton(KEYWORDS);

export function detectSecrets(view: TextView): SecretMatch[] {
  const text = view.text;
  const present = KEYWORD_AUTOMATON.present(text);
  const found: SecretMatch[] = [];
  const push = (ruleId: string, start: number, end: number, confidence: number): void => {
    found.push({ ruleId: `secret.${ruleId}`, ...toOriginalSpan(view, start, end), confidence });
  };

  for (const rule of SECRET_RULES) {
    if (rule.keywords.length > 0 && !rule.keywords.some((keyword) => present.has(KEYWORD_INDEX.get(keyword)!))) continue;
    let count = 0;
    for (const match of text.matchAll(rule.pattern)) {
      // A leak is a leak: past a few dozen hits per rule the risk is saturated; stop paying for more.
      if (++count > MAX_MATCHES_PER_RULE) break;
      const secret = match.groups?.['secret'] ?? match[0];
      const offset = match.index + match[0].lastIndexOf(secret);
      if (shannonEntropy(secret) < rule.entropyFloor) continue;
      if (rule.allowlist?.some((allowed) => allowed.test(secret))) continue;
      push(rule.id, offset, offset + secret.length, rule.confidence);
    }
  }

  detectPrivateKeys(text, (start, end) => push('private-key', start, end, 0.99));
  detectGenericAssignments(text, (start, end, confidence) => push('generic-credential', start, end, confidence));
  return dedupe(found);
}

function detectPrivateKeys(text: string, report: (start: number, end: number) => void): void {
  let nextFooter = -2;
  let at = text.indexOf('-----BEGIN ');
  while (at !== -1) {
    PRIVATE_KEY_HEADER.lastIndex = at;
    const header = PRIVATE_KEY_HEADER.exec(text);
    if (header === null) {
      at = text.indexOf('-----BEGIN ', at + 1);
      continue;
    }
    const bodyStart = at + header[0].length;
    // The next footer position is cached: headers are visited in order, so the search is linear.
    if (nextFooter !== -1 && nextFooter < bodyStart) nextFooter = text.indexOf('-----END ', bodyStart);
    let end = -1;
    if (nextFooter !== -1 && nextFooter - bodyStart <= MAX_PEM_BODY) {
      PRIVATE_KEY_FOOTER.lastIndex = nextFooter;
      const footer = PRIVATE_KEY_FOOTER.exec(text);
      if (footer !== null && countBase64(text, bodyStart, nextFooter) >= MIN_PEM_BODY) end = nextFooter + footer[0].length;
    }
    if (end === -1) {
      // Truncated paste: header plus base64 lines is still a leaked key.
      let cursor = bodyStart;
      while (cursor < text.length && cursor - bodyStart < MAX_PEM_BODY && /[A-Za-z0-9+/=\s:,-]/.test(text[cursor]!)) {
        if (text.startsWith('-----', cursor)) break;
        cursor++;
      }
      while (cursor > bodyStart && /\s/.test(text[cursor - 1]!)) cursor--;
      if (countBase64(text, bodyStart, cursor) >= MIN_PEM_BODY) end = cursor;
    }
    if (end !== -1) report(at, end);
    at = text.indexOf('-----BEGIN ', Math.max(end, at + 1));
  }
}

function countBase64(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) if (/[A-Za-z0-9+/]/.test(text[i]!)) count++;
  return count;
}

function detectGenericAssignments(text: string, report: (start: number, end: number, confidence: number) => void): void {
  let seen = 0;
  for (const keyword of text.matchAll(GENERIC_KEYWORD)) {
    if (++seen > MAX_GENERIC_KEYWORDS) break;
    const keyStart = keyword.index;
    GENERIC_TAIL.lastIndex = keyStart + keyword[0].length;
    const tail = GENERIC_TAIL.exec(text);
    if (tail === null) continue;
    const quote = tail[1]!;
    let value = tail[2]!;
    if (quote === '') value = value.replace(/[.!?]+$/, '');
    const keyContext = text.slice(Math.max(0, keyStart - 24), keyStart + keyword[0].length + 24);
    if (!acceptGenericValue(value, keyword[0], keyContext, quote !== '')) continue;
    const valueStart = GENERIC_TAIL.lastIndex - tail[2]!.length;
    const isPassword = PASSWORD_KEY.test(keyword[0]);
    report(valueStart, valueStart + value.length, quote !== '' || isPassword ? 0.8 : 0.75);
  }
}

function acceptGenericValue(value: string, keyword: string, keyContext: string, quoted: boolean): boolean {
  if (value.length < 6 || PLACEHOLDER.test(value) || LOW_VARIETY.test(value) || /EXAMPLE|example/.test(value)) return false;
  if (PASSWORD_HASH.test(value)) return false;
  if (UUID.test(value)) return false;
  if (HEX_DIGEST.test(value) && HASH_KEY.test(keyContext)) return false;
  if (/[(\[]/.test(value) || /^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(value)) return false; // code reference
  if (/^https?:\/\//i.test(value)) return false;
  const isPassword = PASSWORD_KEY.test(keyword);
  if (isPassword) {
    // A bare identifier is a variable name ("password = user_password"), unless quoted.
    if (!quoted && /^[A-Za-z_]+$/.test(value)) return false;
    if (value.length < (quoted ? 6 : 7)) return false;
    return characterClasses(value) >= 2 || value.length >= 12;
  }
  // token / key / secret names: real ones are long and random.
  if (value.length < 16) return false;
  if (/^[A-Za-z_]+$/.test(value) && !quoted) return false;
  return shannonEntropy(value) >= 3 && characterClasses(value) >= 2;
}

function dedupe(found: SecretMatch[]): SecretMatch[] {
  // Provider rules are more specific than the generic rule: drop generic hits they cover.
  const specific = found.filter((match) => match.ruleId !== 'secret.generic-credential');
  const generic = found.filter(
    (match) => match.ruleId === 'secret.generic-credential' && !specific.some((other) => other.start < match.end && match.start < other.end),
  );
  const unique = new Map<string, SecretMatch>();
  for (const match of [...specific, ...generic]) unique.set(`${match.ruleId}:${match.start}:${match.end}`, match);
  return [...unique.values()].sort((a, b) => a.start - b.start);
}

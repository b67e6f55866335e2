import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { Span } from '../text/text-view.model';
import { boosted, contextBefore, type PiiCandidate } from './pii-candidate.model';

/**
 * Phone numbers: a linear scan proposes digit groups that look like a number as people write
 * one, libphonenumber-js (full metadata) decides. Parsing costs ~20 µs, so validations per
 * check are budgeted; past the budget only "+"-prefixed international numbers are kept, at a
 * lower confidence, which bounds the cost of a text stuffed with digits.
 */
export interface PhoneBudget {
  validations: number;
}

export const PHONE_VALIDATION_BUDGET = 64;
/** Results per text; the PII detector keeps no more anyway. */
const MAX_PHONES = 256;

/** Regions tried for numbers written without a country code, most frequent callers first. */
const NATIONAL_REGIONS: readonly CountryCode[] = ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'PT', 'BR', 'NL', 'CH', 'AU', 'IN'];
const CONTEXT = /(?:phone|tel\b|tel\.|telephone|mobile|cell|call|text me|sms|whats ?app|signal|fax|contact|reach|ring|dial|hotline|number|n[uú]mero|telefon|t[ée]l[ée]phone|tel[ée]fono|portable|handy|rufnummer|celular|cellulare|telem[oó]vel)/i;
const SEPARATORS = ' -.()/';
const MAX_CANDIDATE = 26;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function blocksStart(text: string, index: number): boolean {
  if (index === 0) return false;
  const code = text.charCodeAt(index - 1);
  if (code === 0x20 || code === 0x0a || code === 0x28 || code === 0x3a) return false; // space, newline, "(", ":"
  if (code < 0x80) {
    // letters, digits, _ + - . / @ # $ block; so does a thousands separator ("8,336,817").
    if (/[A-Za-z0-9_+\-./@#$%&=]/.test(text[index - 1]!)) return true;
    return code === 0x2c && isDigit(text.charCodeAt(index - 2));
  }
  return /[\p{L}\p{N}€£]/u.test(text[index - 1]!);
}

function overlaps(spans: readonly Span[], start: number, end: number): boolean {
  for (let k = 0; k < spans.length; k++) if (spans[k]!.start < end && start < spans[k]!.end) return true;
  return false;
}

function looksLikeOtherNumber(candidate: string): boolean {
  return (
    /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$/.test(candidate) || // ISO date
    /^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(candidate) || // local date
    /^\d{1,3}(?:\.\d{1,3}){3}$/.test(candidate) || // IPv4
    /^\d+\.\d+$/.test(candidate) || // decimal
    /^\d{1,3}(?:\.\d{1,3}){1,2}$/.test(candidate) || // version
    /^\d{3}-\d{2}-\d{4}$/.test(candidate) || // US SSN layout
    /^(?:19|20)\d\d[-./ ]\d{1,4}$/.test(candidate) || // "2024-117": year-prefixed reference
    /^\d{5}-\d{3}$|^\d{4}-\d{3}$/.test(candidate) || // BR / PT postal codes
    /^(?:19|20)\d\d(?:\.\d{1,4}){2,}$/.test(candidate) || // dotted build numbers
    (candidate.match(/\(/g)?.length ?? 0) !== (candidate.match(/\)/g)?.length ?? 0)
  );
}

export function recognizePhones(text: string, occupied: readonly Span[], budget: PhoneBudget): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  const n = text.length;
  let i = 0;
  while (i < n && found.length < MAX_PHONES) {
    const code = text.charCodeAt(i);
    const opener = code === 0x2b || code === 0x28; // "+" or "("
    if (!(opener || isDigit(code)) || blocksStart(text, i)) {
      i++;
      continue;
    }
    let j = i;
    let digits = 0;
    let lastDigit = -1;
    while (j < n && j - i < MAX_CANDIDATE) {
      const c = text.charCodeAt(j);
      if (isDigit(c)) {
        digits++;
        lastDigit = j;
      } else if (j === i && c === 0x2b) {
        // leading plus
      } else if (SEPARATORS.includes(text[j]!)) {
        if (text[j] === ' ' && text[j + 1] === ' ') break;
        if (text[j] === '.' && !isDigit(text.charCodeAt(j + 1))) break;
      } else break;
      j++;
    }
    if (lastDigit < 0) {
      i = j + 1;
      continue;
    }
    const end = lastDigit + 1;
    const next = i === j ? i + 1 : j;
    // The number must end where the scan stopped for a reason, not in the middle of a longer token.
    if ((end < n && /[\p{L}\p{N}_]/u.test(text[end]!)) || (j - i >= MAX_CANDIDATE && isDigit(text.charCodeAt(j)))) {
      i = skipToken(text, next);
      continue;
    }
    const candidate = text.slice(i, end);
    if (digits >= 7 && digits <= 15 && !looksLikeOtherNumber(candidate) && !overlaps(occupied, i, end)) {
      const confidence = validate(text, i, candidate, budget);
      if (confidence > 0) found.push({ type: 'phone', start: i, end, confidence });
    }
    i = next;
  }
  return found;
}

function skipToken(text: string, from: number): number {
  let k = from;
  while (k < text.length && /[\p{L}\p{N}_]/u.test(text[k]!)) k++;
  return Math.max(k, from + 1);
}

function validate(text: string, start: number, candidate: string, budget: PhoneBudget): number {
  const international = candidate.startsWith('+');
  // Past the parse budget only international numbers survive; decide before any other work.
  if (budget.validations <= 0 && !international) return 0;
  const groups = candidate.replace(/^\+/, '').split(/[ \-.()/]+/).filter((group) => group.length > 0);
  // "1 2 3 4 5 6 7" is a list, not a number: only a leading country/trunk digit, or the area
  // digit after a country code ("+33 6 …", "+81 3-…"), may stand alone.
  const lone = groups.map((group, index) => (group.length === 1 ? index : -1)).filter((index) => index > 0);
  if (lone.some((index) => !(international && index === 1))) return 0;
  const hasContext = contextBefore(text, start, CONTEXT, 40);
  const digitCount = groups.join('').length;
  const formatted = groups.length >= 2 || candidate.includes('(');
  if (!international && !formatted && !hasContext) return 0;
  // Seven-digit local numbers without an area code are indistinguishable from references.
  if (!international && digitCount < 8 && !hasContext) return 0;

  if (budget.validations <= 0) {
    return international && groups.join('').length >= 10 ? 0.5 : 0;
  }
  if (international) {
    budget.validations--;
    const parsed = parsePhoneNumberFromString(candidate);
    return parsed?.isValid() ? boosted(0.85, hasContext) : 0;
  }
  for (const region of NATIONAL_REGIONS) {
    if (budget.validations <= 0) return 0;
    budget.validations--;
    const parsed = parsePhoneNumberFromString(candidate, region);
    if (parsed?.isValid()) return boosted(formatted ? 0.75 : 0.65, hasContext, 0.15);
  }
  return 0;
}

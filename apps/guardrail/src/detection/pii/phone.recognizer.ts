import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import type { Span } from '../text/text-view';
import { boosted, contextBefore, type PiiCandidate } from './pii-candidate';

/**
 * Phone numbers: a linear scan proposes digit groups that look like a number as people write
 * one, libphonenumber-js (full metadata) decides. Parsing costs ~20 µs, so validations per
 * check are budgeted; past the budget only "+"-prefixed international numbers are kept, at a
 * lower confidence, which bounds the cost of a text stuffed with digits.
 */
export interface PhoneBudget {
  validations: number;
}

export const PHONE_VALIDATION_BUDGET = 96;

/** Regions tried for numbers written without a country code, most frequent callers first. */
const NATIONAL_REGIONS: readonly CountryCode[] = ['US', 'GB', 'DE', 'FR', 'ES', 'IT', 'PT', 'BR', 'NL', 'CH', 'AU', 'IN'];
const CONTEXT = /(?:phone|tel\b|tel\.|telephone|mobile|cell|call|text me|sms|whats ?app|signal|fax|contact|reach|ring|dial|hotline|number|n[uú]mero|telefon|t[ée]l[ée]phone|tel[ée]fono|portable|handy|rufnummer|celular|cellulare|telem[oó]vel)/i;
const SEPARATORS = ' -.()/';
const MAX_CANDIDATE = 26;

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function blocksStart(char: string | undefined): boolean {
  return char !== undefined && /[\p{L}\p{N}_+\-./@#$€£]/u.test(char);
}

function overlaps(spans: readonly Span[], start: number, end: number): boolean {
  return spans.some((span) => span.start < end && start < span.end);
}

function looksLikeOtherNumber(candidate: string): boolean {
  return (
    /^\d{4}[-./]\d{1,2}[-./]\d{1,2}$/.test(candidate) || // ISO date
    /^\d{1,2}[-./]\d{1,2}[-./]\d{2,4}$/.test(candidate) || // local date
    /^\d{1,3}(?:\.\d{1,3}){3}$/.test(candidate) || // IPv4
    /^\d+\.\d+$/.test(candidate) || // decimal
    /^\d{1,3}(?:\.\d{1,3}){1,2}$/.test(candidate) || // version
    /^\d{3}-\d{2}-\d{4}$/.test(candidate) // US SSN layout
  );
}

export function recognizePhones(text: string, occupied: readonly Span[], budget: PhoneBudget): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const code = text.charCodeAt(i);
    const opener = code === 0x2b || code === 0x28; // "+" or "("
    if (!(opener || isDigit(code)) || blocksStart(text[i - 1])) {
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
    if (digits >= 7 && digits <= 15 && !overlaps(occupied, i, end) && !looksLikeOtherNumber(candidate)) {
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
  const groups = candidate.replace(/^\+/, '').split(/[ \-.()/]+/).filter((group) => group.length > 0);
  // "1 2 3 4 5 6 7" is a list, not a number: only a leading country/trunk digit may stand alone.
  if (groups.slice(1).some((group) => group.length === 1)) return 0;
  const hasContext = contextBefore(text, start, CONTEXT, 40);
  const international = candidate.startsWith('+');
  const formatted = groups.length >= 2 || candidate.includes('(');
  if (!international && !formatted && !hasContext) return 0;

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

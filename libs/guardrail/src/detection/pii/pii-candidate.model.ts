/** A PII match in the coordinates of the view a recognizer scanned. */
export interface PiiCandidate {
  type: PiiType;
  start: number;
  end: number;
  confidence: number;
}

export type PiiType =
  | 'email'
  | 'phone'
  | 'credit_card'
  | 'iban'
  | 'us_ssn'
  | 'ip_address'
  | 'date_of_birth'
  | 'passport'
  | 'street_address'
  | 'person';

/** Context words raise confidence the way Presidio's context enhancer does: a fixed boost, capped. */
export const CONTEXT_BOOST = 0.1;

export function boosted(confidence: number, hasContext: boolean, boost = CONTEXT_BOOST): number {
  return hasContext ? Math.min(0.99, confidence + boost) : confidence;
}

/** True when `pattern` matches within `window` units before `index` (same paragraph). */
export function contextBefore(text: string, index: number, pattern: RegExp, window = 48): boolean {
  const from = Math.max(0, index - window);
  let slice = text.slice(from, index);
  const paragraph = slice.lastIndexOf('\n\n');
  if (paragraph >= 0) slice = slice.slice(paragraph);
  return pattern.test(slice);
}

/**
 * Whether the character before `index` is a letter or digit (a word continues). Patterns check
 * this in code instead of opening with a lookbehind: a leading `(?<!\p{L})` is evaluated at every
 * position and is slow on two-byte (non-Latin-1) text.
 */
export function continuesWord(text: string, index: number): boolean {
  if (index === 0) return false;
  const code = text.charCodeAt(index - 1);
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a);
  return WORD_CHAR.test(text[index - 1]!);
}

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;

/** An upper-case Latin letter (class check first, the Unicode property only on candidates). */
export const LATIN_UPPER = '[A-Z\\u00C0-\\u024F](?<=\\p{Lu})';

/**
 * Matches of a global cue pattern that start a word (a cue glued to a preceding letter or digit,
 * as in "nodob", is skipped and the scan resumes one character later). Resets `cue` first.
 */
export function* wordStartMatches(text: string, cue: RegExp): Generator<RegExpExecArray> {
  cue.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = cue.exec(text)) !== null) {
    if (continuesWord(text, match.index)) {
      cue.lastIndex = match.index + 1;
      continue;
    }
    yield match;
  }
}

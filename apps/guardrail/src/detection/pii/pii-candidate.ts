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

export const PII_TYPES: readonly PiiType[] = [
  'email', 'phone', 'credit_card', 'iban', 'us_ssn', 'ip_address', 'date_of_birth', 'passport', 'street_address', 'person',
];

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

/** True when `pattern` matches within `window` units after `index`. */
export function contextAfter(text: string, index: number, pattern: RegExp, window = 32): boolean {
  return pattern.test(text.slice(index, index + window));
}

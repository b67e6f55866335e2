import { boosted, contextBefore, type PiiCandidate } from './pii-candidate.model';
import { IBAN_LENGTHS } from './pii.validators';

/**
 * IBANs, compact or printed in groups of four. The country's registered length decides where
 * the number ends (so a trailing "EUR" is not swallowed), then ISO 13616 mod-97 validates it.
 */
const START = /(?<![A-Za-z0-9])([A-Z]{2})(\d{2})(?=(?: ?[A-Z0-9]){10})/g;
const CONTEXT = /(?:iban|bank|account|konto|compte|cuenta|conto|conta|transfer|überweisung|virement|transferencia|bonifico|pay to|wire)/i;

function isUpperAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a);
}

export function recognizeIbans(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  const digits: number[] = [];
  START.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = START.exec(text)) !== null) {
    const length = IBAN_LENGTHS[match[1]!];
    if (length === undefined) continue;
    const start = match.index;
    // Collect the IBAN's characters (single spaces allowed between them) as codes, no strings.
    digits.length = 0;
    let position = start;
    while (digits.length < length && position < text.length) {
      const code = text.charCodeAt(position);
      if (code === 0x20 && digits.length >= 4 && isUpperAlnum(text.charCodeAt(position + 1)) && text.charCodeAt(position - 1) !== 0x20) {
        position++;
        continue;
      }
      if (!isUpperAlnum(code)) break;
      digits.push(code);
      position++;
    }
    const after = text.charCodeAt(position);
    if (digits.length !== length || isUpperAlnum(after) || (after >= 0x61 && after <= 0x7a)) continue;
    if (!mod97Valid(digits)) continue;
    found.push({ type: 'iban', start, end: position, confidence: boosted(0.95, contextBefore(text, start, CONTEXT, 40), 0.04) });
    START.lastIndex = position;
  }
  return found;
}

/** ISO 13616 mod-97 on character codes: country and check digits moved to the end, letters as 10..35. */
function mod97Valid(codes: readonly number[]): boolean {
  let remainder = 0;
  for (let k = 0; k < codes.length; k++) {
    const code = codes[(k + 4) % codes.length]!;
    if (code >= 0x41) remainder = (remainder * 100 + (code - 55)) % 97;
    else remainder = (remainder * 10 + (code - 48)) % 97;
  }
  return remainder === 1;
}

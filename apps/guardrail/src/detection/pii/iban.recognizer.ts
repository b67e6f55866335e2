import { boosted, contextBefore, type PiiCandidate } from './pii-candidate';
import { IBAN_LENGTHS, ibanValid } from './pii-validators';

/**
 * IBANs, compact or printed in groups of four. The country's registered length decides where
 * the number ends (so a trailing "EUR" is not swallowed), then ISO 13616 mod-97 validates it.
 */
const START = /(?<![A-Za-z0-9])([A-Z]{2})(\d{2})(?=(?: ?[A-Z0-9]){10})/g;
const CONTEXT = /(?:iban|bank|account|konto|compte|cuenta|conto|conta|transfer|überweisung|virement|transferencia|bonifico|pay to|wire)/i;

export function recognizeIbans(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  START.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = START.exec(text)) !== null) {
    const country = match[1]!;
    const length = IBAN_LENGTHS[country];
    if (length === undefined) continue;
    const start = match.index;
    let position = start + 4;
    let compact = text.slice(start, start + 4);
    while (compact.length < length && position < text.length) {
      const char = text[position]!;
      if (char === ' ' && /[A-Z0-9]/.test(text[position + 1] ?? '') && text[position - 1] !== ' ') {
        position++;
        continue;
      }
      if (!/[A-Z0-9]/.test(char)) break;
      compact += char;
      position++;
    }
    if (compact.length !== length || /[A-Za-z0-9]/.test(text[position] ?? '')) continue;
    if (!ibanValid(compact)) continue;
    found.push({ type: 'iban', start, end: position, confidence: boosted(0.95, contextBefore(text, start, CONTEXT, 40), 0.04) });
    START.lastIndex = position;
  }
  return found;
}

import { wordStartMatches, type PiiCandidate } from './pii-candidate.model';

/**
 * Passport numbers have no checksum and look like any reference code, so one counts only right
 * after a passport cue. National formats vary (US 9 digits, DE "C01X00T47", FR "12AB34567",
 * ES "AAA123456"), hence: 6 to 9 upper-case letters and digits with at least two digits.
 */
const CUE = /(?:passport|reisepass(?:nummer)?|passnummer|pass-?nr\.?|passeport|pasaporte|passaporto|passaporte)(?!\p{L})/giu;
const NUMBER = /(?<![A-Za-z0-9])(?=[A-Z]{0,4}\d[A-Z]{0,4}\d)[A-Z0-9]{6,9}(?![A-Za-z0-9])/;
/** Words allowed between the cue and the number ("passport no. is", "numéro de passeport :"). */
const FILLER_WORDS = new Set([
  'n', 'no', 'nr', 'nº', 'n°', 'num', 'number', 'nummer', 'numéro', 'numero', 'número', 'id', 'is', 'was', 'ist', 'lautet',
  'est', 'es', 'è', 'é', 'de', 'di', 'do', 'du', 'del', 'da', 'the', 'my', 'mon', 'mi', 'il', 'o', 'le', 'la', 'del',
]);

export function recognizePassports(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  for (const cue of wordStartMatches(text, CUE)) {
    const from = cue.index + cue[0].length;
    const window = text.slice(from, from + 40);
    const number = NUMBER.exec(window);
    if (number === null) continue;
    const gap = window.slice(0, number.index);
    const words = gap.toLowerCase().split(/[\s:#.,-]+/).filter((word) => word.length > 0);
    if (!words.every((word) => FILLER_WORDS.has(word))) continue;
    const start = from + number.index;
    found.push({ type: 'passport', start, end: start + number[0].length, confidence: 0.85 });
  }
  return found;
}

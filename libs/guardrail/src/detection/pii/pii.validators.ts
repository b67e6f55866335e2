/** Checksums and range rules that turn a digit pattern into a validated identifier. */

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let value = digits.charCodeAt(i) - 48;
    if (value < 0 || value > 9) return false;
    if (double) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

interface IssuerRange {
  issuer: string;
  /** Inclusive prefix ranges compared on the first `prefixLength` digits. */
  ranges: ReadonlyArray<readonly [number, number]>;
  prefixLength: number;
  lengths: readonly number[];
}

/** Issuer identification ranges (ISO/IEC 7812 as published by the card schemes). */
const ISSUERS: readonly IssuerRange[] = [
  { issuer: 'amex', prefixLength: 2, ranges: [[34, 34], [37, 37]], lengths: [15] },
  { issuer: 'visa', prefixLength: 1, ranges: [[4, 4]], lengths: [13, 16, 19] },
  { issuer: 'mastercard', prefixLength: 2, ranges: [[51, 55]], lengths: [16] },
  { issuer: 'mastercard', prefixLength: 4, ranges: [[2221, 2720]], lengths: [16] },
  { issuer: 'mir', prefixLength: 4, ranges: [[2200, 2204]], lengths: [16, 17, 18, 19] },
  { issuer: 'discover', prefixLength: 4, ranges: [[6011, 6011]], lengths: [16, 17, 18, 19] },
  { issuer: 'discover', prefixLength: 3, ranges: [[644, 649]], lengths: [16, 17, 18, 19] },
  { issuer: 'discover', prefixLength: 2, ranges: [[65, 65]], lengths: [16, 17, 18, 19] },
  { issuer: 'jcb', prefixLength: 4, ranges: [[3528, 3589]], lengths: [16, 17, 18, 19] },
  { issuer: 'diners', prefixLength: 3, ranges: [[300, 305]], lengths: [14, 15, 16, 17, 18, 19] },
  { issuer: 'diners', prefixLength: 2, ranges: [[36, 36], [38, 39]], lengths: [14, 15, 16, 17, 18, 19] },
  { issuer: 'unionpay', prefixLength: 2, ranges: [[62, 62]], lengths: [16, 17, 18, 19] },
  { issuer: 'maestro', prefixLength: 2, ranges: [[50, 50], [56, 58]], lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
  { issuer: 'maestro', prefixLength: 4, ranges: [[6304, 6304], [6759, 6759]], lengths: [12, 13, 14, 15, 16, 17, 18, 19] },
];

/** The card scheme whose range and length the number fits, or null. */
export function cardIssuer(digits: string): string | null {
  for (const entry of ISSUERS) {
    if (!entry.lengths.includes(digits.length)) continue;
    const prefix = Number(digits.slice(0, entry.prefixLength));
    if (entry.ranges.some(([low, high]) => prefix >= low && prefix <= high)) return entry.issuer;
  }
  return null;
}

/** IBAN length per country (SWIFT IBAN registry). */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22,
  CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22,
  GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30,
  KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31,
  MU: 30, NL: 18, NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24,
  SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 == 1. */
export function ibanValid(compact: string): boolean {
  const iban = compact.toUpperCase();
  if (IBAN_LENGTHS[iban.slice(0, 2)] !== iban.length) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const code = char.charCodeAt(0);
    const value = code >= 65 && code <= 90 ? String(code - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return remainder === 1;
}

/** Numbers the SSA never issues or that were published as examples (Presidio rejects the same). */
const PUBLISHED_SSNS = new Set(['078051120', '219099999', '123456789', '111111111', '333333333', '987654320']);

export function usSsnValid(area: string, group: string, serial: string): boolean {
  const areaNumber = Number(area);
  if (areaNumber === 0 || areaNumber === 666 || areaNumber >= 900) return false;
  if (group === '00' || serial === '0000') return false;
  const all = area + group + serial;
  if (PUBLISHED_SSNS.has(all)) return false;
  // A single repeated digit ("555-55-5555") is a placeholder, not an issued number.
  return !/^(\d)\1{8}$/.test(all);
}

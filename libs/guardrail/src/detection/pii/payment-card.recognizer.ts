import { boosted, contextBefore, type PiiCandidate } from './pii-candidate.model';
import { cardIssuer, luhnValid } from './pii.validators';

/**
 * Card numbers: runs of digits with one consistent optional separator, validated by Luhn and
 * by the issuer's prefix range and length. A run may carry trailing digits ("… 1111 2025"), so
 * prefixes ending on a group boundary are tried too.
 */
const DIGIT_RUN = /(?<![\d-])\d(?:[ -]?\d){11,26}(?!\d)/g;
const CONTEXT = /(?:card|credit|debit|visa|master ?card|amex|american express|discover|jcb|diners|maestro|unionpay|cc|pan|kredit|karte|carte|tarjeta|carta|cart[aã]o|payment|pay with|charge)/i;

export function recognizePaymentCards(text: string): PiiCandidate[] {
  const found: PiiCandidate[] = [];
  DIGIT_RUN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = DIGIT_RUN.exec(text)) !== null) {
    const run = match[0];
    const groups = run.split(/[ -]/);
    if (groups.length > 1) {
      // One separator style throughout, and printed cards open with a group of four.
      const separator = run[groups[0]!.length]!;
      if (groups[0]!.length !== 4 || run.includes(separator === ' ' ? '-' : ' ')) continue;
    }
    // Try the whole run, then shorter prefixes that end on a group boundary.
    let digitsSoFar = 0;
    const ends: number[] = [];
    for (const group of groups) {
      digitsSoFar += group.length;
      ends.push(digitsSoFar);
    }
    for (let count = groups.length; count >= 1; count--) {
      const total = ends[count - 1]!;
      if (total < 12 || total > 19) continue;
      const prefix = groups.slice(0, count);
      if (!plausibleGrouping(prefix, total)) continue;
      const digits = prefix.join('');
      if (!luhnValid(digits) || cardIssuer(digits) === null) continue;
      const start = match.index;
      found.push({
        type: 'credit_card',
        start,
        end: start + total + count - 1,
        confidence: boosted(0.9, contextBefore(text, start, CONTEXT, 40), 0.05),
      });
      break;
    }
  }
  return found;
}

/** Printed cards group as 4-4-4-4(-3), Amex 4-6-5, Diners 4-6-4; unseparated numbers always pass. */
function plausibleGrouping(groups: readonly string[], total: number): boolean {
  if (groups.length === 1) return true;
  if (groups.length === 3 && groups[0]!.length === 4 && groups[1]!.length === 6 && (groups[2]!.length === 5 || groups[2]!.length === 4)) return true;
  for (let i = 0; i < groups.length - 1; i++) if (groups[i]!.length !== 4) return false;
  return groups[groups.length - 1]!.length <= 4 && total >= 13;
}

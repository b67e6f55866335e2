import { boosted, contextBefore, type PiiCandidate } from './pii-candidate';
import { cardIssuer, luhnValid } from './pii-validators';

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
    const separators = new Set(run.replace(/\d/g, ''));
    if (separators.size > 1) continue;
    const groups = separators.size === 0 ? [run] : run.split(/[ -]/);
    // Try the whole run, then shorter prefixes that end on a group boundary.
    let accepted = false;
    for (let count = groups.length; count >= 1 && !accepted; count--) {
      const digits = groups.slice(0, count).join('');
      if (digits.length < 12 || digits.length > 19) continue;
      if (!plausibleGrouping(groups.slice(0, count), digits.length)) continue;
      if (!luhnValid(digits) || cardIssuer(digits) === null) continue;
      const length = groups.slice(0, count).join(run[groups[0]!.length] ?? '').length;
      const start = match.index;
      found.push({
        type: 'credit_card',
        start,
        end: start + length,
        confidence: boosted(0.9, contextBefore(text, start, CONTEXT, 40), 0.05),
      });
      accepted = true;
    }
  }
  return found;
}

/** Printed cards group as 4-4-4-4(-3), Amex 4-6-5, Diners 4-6-4; unseparated numbers always pass. */
function plausibleGrouping(groups: readonly string[], total: number): boolean {
  if (groups.length === 1) return true;
  const sizes = groups.map((group) => group.length).join('-');
  if (sizes === '4-6-5' || sizes === '4-6-4') return true;
  return groups.slice(0, -1).every((group) => group.length === 4) && groups[groups.length - 1]!.length <= 4 && total >= 13;
}

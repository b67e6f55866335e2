import { toOriginalSpan, type TextView } from '../text/text-view.model';
import { recognizeDatesOfBirth } from './date-of-birth.recognizer';
import { recognizeEmails } from './email.recognizer';
import { recognizeIbans } from './iban.recognizer';
import { recognizeIpAddresses } from './ip-address.recognizer';
import { recognizePassports } from './passport.recognizer';
import { recognizePaymentCards } from './payment-card.recognizer';
import { recognizePersonNames } from './person-name.recognizer';
import { recognizePhones, type PhoneBudget } from './phone.recognizer';
import type { PiiCandidate } from './pii-candidate.model';
import { recognizeStreetAddresses } from './street-address.recognizer';
import { recognizeUsSsns } from './us-ssn.recognizer';

/** Validated identifiers win overlaps over looser shapes, whatever their confidence. */
const PRIORITY: Record<PiiCandidate['type'], number> = {
  credit_card: 9, iban: 9, us_ssn: 8, email: 8, ip_address: 7, passport: 7, date_of_birth: 6, phone: 5, street_address: 4, person: 3,
};

/**
 * Runs every recognizer over one view; results are in ORIGINAL input offsets, without overlaps.
 * Each recognizer reports at most MAX_PER_RECOGNIZER entities: past that the risk score is
 * saturated anyway, and the cap bounds both the work and the size of the response.
 */
export const MAX_PER_RECOGNIZER = 256;
const capped = (candidates: PiiCandidate[]): PiiCandidate[] => candidates.slice(0, MAX_PER_RECOGNIZER);

export function detectPii(view: TextView, phoneBudget: PhoneBudget): PiiCandidate[] {
  const text = view.text;
  const strict = [
    ...capped(recognizePaymentCards(text)),
    ...capped(recognizeIbans(text)),
    ...capped(recognizeUsSsns(text)),
    ...capped(recognizeIpAddresses(text)),
    ...capped(recognizeEmails(text)),
    ...capped(recognizeDatesOfBirth(text)),
    ...capped(recognizePassports(text)),
  ];
  const phones = capped(recognizePhones(text, strict, phoneBudget));
  const loose = [...capped(recognizeStreetAddresses(text)), ...capped(recognizePersonNames(text, MAX_PER_RECOGNIZER))];
  const resolved = resolveOverlaps([...strict, ...phones, ...loose], text.length);
  return resolved.map((candidate) => ({ ...candidate, ...toOriginalSpan(view, candidate.start, candidate.end) }));
}

/** Greedy by priority; an occupancy map keeps each overlap test proportional to the span length. */
export function resolveOverlaps(candidates: readonly PiiCandidate[], textLength: number): PiiCandidate[] {
  const ordered = [...candidates].sort(
    (a, b) => PRIORITY[b.type] - PRIORITY[a.type] || b.confidence - a.confidence || b.end - b.start - (a.end - a.start),
  );
  const occupied = new Uint8Array(textLength + 1);
  const accepted: PiiCandidate[] = [];
  for (const candidate of ordered) {
    let free = true;
    for (let i = candidate.start; i < candidate.end && free; i++) if (occupied[i] === 1) free = false;
    if (!free) continue;
    occupied.fill(1, candidate.start, candidate.end);
    accepted.push(candidate);
  }
  return accepted.sort((a, b) => a.start - b.start);
}

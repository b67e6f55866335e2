import { toOriginalSpan, type TextView } from '../text/text-view';
import { recognizeDatesOfBirth } from './date-of-birth.recognizer';
import { recognizeEmails } from './email.recognizer';
import { recognizeIbans } from './iban.recognizer';
import { recognizeIpAddresses } from './ip-address.recognizer';
import { recognizePassports } from './passport.recognizer';
import { recognizePaymentCards } from './payment-card.recognizer';
import { recognizePersonNames } from './person-name.recognizer';
import { recognizePhones, type PhoneBudget } from './phone.recognizer';
import type { PiiCandidate } from './pii-candidate';
import { recognizeStreetAddresses } from './street-address.recognizer';
import { recognizeUsSsns } from './us-ssn.recognizer';

/** Validated identifiers win overlaps over looser shapes, whatever their confidence. */
const PRIORITY: Record<PiiCandidate['type'], number> = {
  credit_card: 9, iban: 9, us_ssn: 8, email: 8, ip_address: 7, passport: 7, date_of_birth: 6, phone: 5, street_address: 4, person: 3,
};

/** Runs every recognizer over one view; results are in ORIGINAL input offsets, without overlaps. */
export function detectPii(view: TextView, phoneBudget: PhoneBudget): PiiCandidate[] {
  const text = view.text;
  const strict = [
    ...recognizePaymentCards(text),
    ...recognizeIbans(text),
    ...recognizeUsSsns(text),
    ...recognizeIpAddresses(text),
    ...recognizeEmails(text),
    ...recognizeDatesOfBirth(text),
    ...recognizePassports(text),
  ];
  const phones = recognizePhones(text, strict, phoneBudget);
  const loose = [...recognizeStreetAddresses(text), ...recognizePersonNames(text)];
  const resolved = resolveOverlaps([...strict, ...phones, ...loose]);
  return resolved.map((candidate) => ({ ...candidate, ...toOriginalSpan(view, candidate.start, candidate.end) }));
}

export function resolveOverlaps(candidates: readonly PiiCandidate[]): PiiCandidate[] {
  const ordered = [...candidates].sort(
    (a, b) => PRIORITY[b.type] - PRIORITY[a.type] || b.confidence - a.confidence || b.end - b.start - (a.end - a.start),
  );
  const accepted: PiiCandidate[] = [];
  for (const candidate of ordered) {
    if (accepted.some((other) => other.start < candidate.end && candidate.start < other.end)) continue;
    accepted.push(candidate);
  }
  return accepted.sort((a, b) => a.start - b.start);
}

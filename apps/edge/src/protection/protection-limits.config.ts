import { z } from 'zod';
import type { Clock, ProtectionLimits } from './protection-store.port';

const HOUR_MS = 3_600_000;

/** The spec's Limits table. */
export const DEFAULT_LIMITS: ProtectionLimits = Object.freeze({
  rateLimitPerHour: 1_000,
  rateWindowMs: HOUR_MS,
  loopMaxRequests: 50,
  loopWindowMs: 10_000,
  spendWindowMs: HOUR_MS,
  // Long enough for a slow streamed completion; short enough that a crashed request frees the cap soon.
  reservationTtlMs: 120_000,
});

export const systemClock: Clock = { now: () => Date.now() };

/**
 * A trip marker (loop guard, circuit) stays until resetKey or a call of a newer reset generation. The TTL only bounds garbage when a
 * key is deleted instead of reset; by then control-plane already refuses the key at auth, and if
 * persisting the status had failed, the expiry lets a new trip report firstTrip again.
 */
export const TRIP_MARKER_TTL_MS = 24 * HOUR_MS;

/** How long settleSpend / releaseSpend still recognise a reservation id (late settles still count). */
export const RESERVATION_RECORD_TTL_MS = 24 * HOUR_MS;

/** Month counters outlive their month so the last day's settles and reads still find them. */
export const MONTH_COUNTER_TTL_MS = 35 * 24 * HOUR_MS;

/**
 * Extra lifetime on rolling-window keys. Windows are trimmed by the injected clock, expiry runs on
 * the Redis clock; the margin keeps a skew between the two from dropping live entries.
 */
export const WINDOW_EXPIRY_MARGIN_MS = 60_000;

/** 1 USD in micro-dollars: spend is stored as integers so sums never drift. */
export const MICRO_USD_PER_USD = 1_000_000;

const positiveInt = z.number().int().positive();

const limitsSchema = z.object({
  rateLimitPerHour: positiveInt,
  rateWindowMs: positiveInt,
  loopMaxRequests: positiveInt,
  loopWindowMs: positiveInt,
  spendWindowMs: positiveInt,
  reservationTtlMs: positiveInt,
});

/** Rejects nonsense limits at construction so a typo cannot silently disable a guard. */
export function parseProtectionLimits(limits: ProtectionLimits): ProtectionLimits {
  const parsed = limitsSchema.safeParse(limits);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new RangeError(`Invalid protection limits: ${details}`);
  }
  return Object.freeze({ ...parsed.data });
}

import { microUsdToUsd, optionalUsdToMicroUsd, usdToMicroUsd } from './micro-usd.util';
import {
  MONTH_COUNTER_TTL_MS,
  RESERVATION_RECORD_TTL_MS,
  TRIP_MARKER_TTL_MS,
  parseProtectionLimits,
  systemClock,
} from './protection-limits.config';
import { assertKeyId, assertProjectId, resetAtMsOf } from './protection-input.util';
import type { AdmitRequestOptions, AdmitResult, Clock, ProtectionLimits, ProtectionStore, ReserveResult, ReserveSpendInput } from './protection-store.port';
import { createReservationRef, parseReservationId } from './reservation-id.util';
import { utcMonthOf } from './utc-month.util';

/**
 * In-process adapter for the embedded single-process mode. Every method runs synchronously
 * between awaits, so each one is atomic exactly like a Redis script; the rules mirror
 * redis-protection.scripts.ts step by step (same order of checks, same boundaries).
 * Not shared between processes: never use it behind more than one edge replica.
 */

interface SpendEntry {
  /** ms epoch: reservation time, or settle time once settled. */
  at: number;
  microUsd: number;
}

interface KeyState {
  /** Admission times (ms epoch) of the requests counted in the rolling rate window. */
  rate: number[];
  /** Arrival times (ms epoch) counted in the loop window. */
  loop: number[];
  /** ms epoch (injected clock) until which the trip marker holds; 0 = not tripped. */
  loopTripUntil: number;
  circuitTripUntil: number;
  /**
   * The last reset generation this store caught up with (0 = none). A trip is only ever written
   * under it (see applyGeneration), so unlike the Redis markers a trip here needs no generation of
   * its own: every live trip is of the applied generation.
   */
  appliedGeneration: number;
  /** Rolling-hour spend entries (reserved and settled) by reservation id. */
  spend: Map<string, SpendEntry>;
  /** Outstanding reservations: id → deadline (ms epoch). */
  pending: Map<string, number>;
}

interface MonthState {
  settledMicroUsd: number;
  pending: Map<string, { deadline: number; microUsd: number }>;
  lastWriteAt: number;
}

interface ReservationRecord {
  state: 'reserved' | 'settled' | 'released';
  expiresAt: number;
}

function earliest(times: number[]): number {
  return times.reduce((min, at) => (at < min ? at : min), Number.POSITIVE_INFINITY);
}

export function createMemoryProtectionStore(options: { limits: ProtectionLimits; clock?: Clock }): ProtectionStore {
  const limits = parseProtectionLimits(options.limits);
  const injectedClock = options.clock ?? systemClock;
  // Integer ms, as in the Redis adapter, so both compare window edges identically.
  const clock: Clock = { now: () => Math.floor(injectedClock.now()) };
  const keys = new Map<string, KeyState>();
  const months = new Map<string, MonthState>();
  // Insertion order is creation order, so expired records are always at the front.
  const records = new Map<string, ReservationRecord>();

  function keyState(keyId: string): KeyState {
    let state = keys.get(keyId);
    if (!state) {
      state = { rate: [], loop: [], loopTripUntil: 0, circuitTripUntil: 0, appliedGeneration: 0, spend: new Map(), pending: new Map() };
      keys.set(keyId, state);
    }
    return state;
  }

  function monthState(projectId: number, month: string, now: number): MonthState {
    const id = `${projectId}:${month}`;
    let state = months.get(id);
    if (!state) {
      state = { settledMicroUsd: 0, pending: new Map(), lastWriteAt: now };
      months.set(id, state);
    }
    return state;
  }

  function pruneKey(keyId: string, state: KeyState, now: number): void {
    const idle =
      state.rate.length === 0 &&
      state.loop.length === 0 &&
      state.spend.size === 0 &&
      state.pending.size === 0 &&
      state.loopTripUntil <= now &&
      state.circuitTripUntil <= now;
    if (idle) keys.delete(keyId);
  }

  function collectGarbage(now: number): void {
    for (const [id, record] of records) {
      if (record.expiresAt > now) break;
      records.delete(id);
    }
    for (const [id, state] of months) {
      if (state.lastWriteAt + MONTH_COUNTER_TTL_MS <= now) months.delete(id);
    }
  }

  /**
   * What resetKey does (the Redis adapter's RESET_KEY_STATE). The rate log stays: the request rate
   * limit is not a paused state and a reset must not allow a second burst of 1,000 in the same hour.
   */
  function clearKeyState(state: KeyState): void {
    state.loop = [];
    state.loopTripUntil = 0;
    state.circuitTripUntil = 0;
    state.spend.clear();
    state.pending.clear();
  }

  /**
   * Catches up on a reset whose key.changed (and so resetKey) never reached this store, like the
   * scripts' applyGeneration: the first call of a newer generation than the applied one finds every
   * live trip stale (all are of the applied generation) and does what resetKey does, once per
   * generation. Returns the applied generation.
   */
  function applyGeneration(state: KeyState, now: number, generation: number): number {
    if (generation <= state.appliedGeneration) return state.appliedGeneration;
    if (state.loopTripUntil > now || state.circuitTripUntil > now) clearKeyState(state);
    state.appliedGeneration = generation;
    return generation;
  }

  /** Drops spend entries that left the rolling window and reservations past their deadline. */
  function trimSpend(state: KeyState, now: number): void {
    const cutoff = now - limits.spendWindowMs;
    for (const [id, entry] of state.spend) {
      if (entry.at <= cutoff) state.spend.delete(id);
    }
    for (const [id, deadline] of state.pending) {
      if (deadline <= now) {
        state.pending.delete(id);
        state.spend.delete(id);
      }
    }
  }

  function trimMonthPending(state: MonthState, now: number): void {
    for (const [id, pending] of state.pending) {
      if (pending.deadline <= now) state.pending.delete(id);
    }
  }

  function sumSpend(state: KeyState): number {
    let total = 0;
    for (const entry of state.spend.values()) total += entry.microUsd;
    return total;
  }

  function sumMonthPending(state: MonthState): number {
    let total = 0;
    for (const pending of state.pending.values()) total += pending.microUsd;
    return total;
  }

  function finishReservation(reservationId: string, actualMicroUsd: number | null): void {
    const ref = parseReservationId(reservationId);
    const now = clock.now();
    const record = records.get(reservationId);
    if (!record || record.state !== 'reserved' || record.expiresAt <= now) return;
    record.state = actualMicroUsd === null ? 'released' : 'settled';

    const key = keyState(ref.keyId);
    key.spend.delete(reservationId);
    key.pending.delete(reservationId);
    const month = monthState(ref.projectId, ref.month, now);
    month.pending.delete(reservationId);

    if (actualMicroUsd !== null && actualMicroUsd > 0) {
      // The cost is incurred when the call completes, so it enters the rolling hour at settle time;
      // it belongs to the month of the reservation so a request spanning midnight counts once.
      key.spend.set(reservationId, { at: now, microUsd: actualMicroUsd });
      month.settledMicroUsd += actualMicroUsd;
      month.lastWriteAt = now;
    }
    pruneKey(ref.keyId, key, now);
  }

  return {
    async admitRequest(keyId: string, opts: AdmitRequestOptions): Promise<AdmitResult> {
      assertKeyId(keyId);
      const resetAtMs = resetAtMsOf(opts.resetAtMs);
      const now = clock.now();
      const state = keyState(keyId);
      const applied = applyGeneration(state, now, resetAtMs);

      if (!opts.loopGuardExempt) {
        if (state.loopTripUntil > now) return { ok: false, kind: 'loop_detected', firstTrip: false };
        state.loop = state.loop.filter((at) => at > now - limits.loopWindowMs);
        if (state.loop.length >= limits.loopMaxRequests) {
          // A call of an older generation than the applied one (it holds the settings from before
          // a reset) is refused but writes no trip.
          if (resetAtMs < applied) return { ok: false, kind: 'loop_detected', firstTrip: false };
          state.loopTripUntil = now + TRIP_MARKER_TTL_MS;
          return { ok: false, kind: 'loop_detected', firstTrip: true };
        }
        // Every request that reaches this point counts for the loop pattern, even if the rate
        // limit then refuses it: a client hammering through 429s is exactly a loop.
        state.loop.push(now);
      }

      state.rate = state.rate.filter((at) => at > now - limits.rateWindowMs);
      const count = state.rate.length;
      if (count >= limits.rateLimitPerHour) {
        const resetMs = earliest(state.rate) + limits.rateWindowMs;
        return {
          ok: false,
          kind: 'rate_limited',
          retryAfterSeconds: Math.max(1, Math.ceil((resetMs - now) / 1000)),
          rate: { limit: limits.rateLimitPerHour, remaining: 0, resetMs },
        };
      }
      state.rate.push(now);
      const resetMs = earliest(state.rate) + limits.rateWindowMs;
      return { ok: true, rate: { limit: limits.rateLimitPerHour, remaining: limits.rateLimitPerHour - count - 1, resetMs } };
    },

    async reserveSpend(input: ReserveSpendInput): Promise<ReserveResult> {
      assertKeyId(input.keyId);
      assertProjectId(input.projectId);
      const estimate = usdToMicroUsd(input.estimatedUsd, 'estimatedUsd');
      const hourlyLimit = optionalUsdToMicroUsd(input.hourlyLimitUsd, 'hourlyLimitUsd');
      const budget = optionalUsdToMicroUsd(input.monthlyBudgetUsd, 'monthlyBudgetUsd');
      const resetAtMs = resetAtMsOf(input.resetAtMs);
      const now = clock.now();
      collectGarbage(now);
      const ref = createReservationRef(input.keyId, input.projectId, utcMonthOf(now));

      const key = keyState(input.keyId);
      const applied = applyGeneration(key, now, resetAtMs);
      trimSpend(key, now);
      const month = monthState(input.projectId, ref.month, now);
      trimMonthPending(month, now);

      // A tripped key stays refused until resetKey, whatever its current limit.
      if (key.circuitTripUntil > now) return { ok: false, kind: 'circuit_open', firstTrip: false };

      if (budget !== null) {
        const settled = month.settledMicroUsd;
        if (settled >= budget || settled + sumMonthPending(month) + estimate > budget) {
          pruneKey(input.keyId, key, now);
          return { ok: false, kind: 'budget_exceeded' };
        }
      }

      // "Crossing" the cap means exceeding it: spend that lands exactly on the limit is allowed.
      if (hourlyLimit !== null && sumSpend(key) + estimate > hourlyLimit) {
        if (resetAtMs < applied) return { ok: false, kind: 'circuit_open', firstTrip: false };
        key.circuitTripUntil = now + TRIP_MARKER_TTL_MS;
        return { ok: false, kind: 'circuit_open', firstTrip: true };
      }

      const deadline = now + limits.reservationTtlMs;
      key.spend.set(ref.reservationId, { at: now, microUsd: estimate });
      key.pending.set(ref.reservationId, deadline);
      month.pending.set(ref.reservationId, { deadline, microUsd: estimate });
      month.lastWriteAt = now;
      records.set(ref.reservationId, { state: 'reserved', expiresAt: now + RESERVATION_RECORD_TTL_MS });
      return { ok: true, reservationId: ref.reservationId };
    },

    async settleSpend(reservationId: string, actualUsd: number): Promise<void> {
      finishReservation(reservationId, usdToMicroUsd(actualUsd, 'actualUsd'));
    },

    async releaseSpend(reservationId: string): Promise<void> {
      finishReservation(reservationId, null);
    },

    async monthlySpendUsd(projectId: number): Promise<number> {
      assertProjectId(projectId);
      const month = months.get(`${projectId}:${utcMonthOf(clock.now())}`);
      return microUsdToUsd(month?.settledMicroUsd ?? 0);
    },

    async raiseMonthlySpend(projectId: number, usd: number): Promise<void> {
      assertProjectId(projectId);
      const floor = usdToMicroUsd(usd, 'usd');
      const now = clock.now();
      const month = monthState(projectId, utcMonthOf(now), now);
      if (floor > month.settledMicroUsd) {
        month.settledMicroUsd = floor;
        month.lastWriteAt = now;
      }
    },

    async resetKey(keyId: string): Promise<void> {
      assertKeyId(keyId);
      const state = keys.get(keyId);
      if (!state) return;
      clearKeyState(state);
      pruneKey(keyId, state, clock.now());
    },

    async isHealthy(): Promise<boolean> {
      return true;
    },
  };
}

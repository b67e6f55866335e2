import { randomInt, randomUUID } from 'node:crypto';
import { DEFAULT_LIMITS } from '../protection-limits.config';
import type { AdmitResult, Clock, ProtectionLimits, ProtectionStore, ReserveResult } from '../protection-store.port';
import { createManualClock } from './manual-clock.fixture';

/**
 * The one behaviour suite every ProtectionStore adapter must pass (memory in a unit spec, Redis in
 * an integration spec). Time is a manual clock, never a sleep.
 */

export interface ProtectionStoreHarness {
  /**
   * Two stores over the same state: two clients (edge replicas) for Redis, the same instance twice
   * for memory. Concurrent tests spread their calls over both.
   */
  stores: [ProtectionStore, ProtectionStore];
  /** Removes whatever the test wrote (e.g. the Redis keys under its random prefix). */
  cleanup(): Promise<void>;
}

export type ProtectionStoreFactory = (options: { limits: ProtectionLimits; clock: Clock }) => Promise<ProtectionStoreHarness>;

const HOUR_MS = 3_600_000;
/** Monday 2025-01-13 12:00:00 UTC: the start of an hour, so fixed-bucket boundaries are easy to hit. */
const T0 = Date.UTC(2025, 0, 13, 12, 0, 0);

export function describeProtectionStoreContract(name: string, factory: ProtectionStoreFactory): void {
  describe(`ProtectionStore contract: ${name}`, () => {
    let harness: ProtectionStoreHarness | undefined;

    afterEach(async () => {
      await harness?.cleanup();
      harness = undefined;
    });

    async function setup(limits: Partial<ProtectionLimits> = {}, startMs = T0) {
      const clock = createManualClock(startMs);
      harness = await factory({ limits: { ...DEFAULT_LIMITS, ...limits }, clock });
      const [a, b] = harness.stores;
      return { clock, a, b, stores: harness.stores, keyId: newKeyId(), projectId: newProjectId() };
    }

    /** Fires `count` admits at once, alternating replicas. */
    function admitMany(stores: ProtectionStore[], keyId: string, count: number, loopGuardExempt = true): Promise<AdmitResult[]> {
      return Promise.all(Array.from({ length: count }, (_, i) => stores[i % stores.length].admitRequest(keyId, { loopGuardExempt })));
    }

    describe('rate limit (rolling hour)', () => {
      it('admits exactly 1,000 requests in the hour, then refuses with Retry-After until the oldest leaves', async () => {
        const { clock, a, stores, keyId } = await setup();
        const results = await admitMany(stores, keyId, 1_000);
        expect(results.every((r) => r.ok)).toBe(true);
        const remaining = results.map((r) => (r.ok ? r.rate.remaining : -1)).sort((x, y) => x - y);
        expect(remaining).toEqual(Array.from({ length: 1_000 }, (_, i) => i));

        const refused = await a.admitRequest(keyId, { loopGuardExempt: true });
        expect(refused).toEqual({
          ok: false,
          kind: 'rate_limited',
          retryAfterSeconds: 3_600,
          rate: { limit: 1_000, remaining: 0, resetMs: T0 + HOUR_MS },
        });

        clock.advance(HOUR_MS - 1_500);
        const later = await a.admitRequest(keyId, { loopGuardExempt: true });
        expect(later).toMatchObject({ ok: false, kind: 'rate_limited', retryAfterSeconds: 2 });

        clock.set(T0 + HOUR_MS);
        const freed = await admitMany(stores, keyId, 1_001);
        expect(freed.filter((r) => r.ok)).toHaveLength(1_000);
      });

      it('allows no 2x burst across an hour boundary (a fixed bucket would)', async () => {
        const { clock, stores, a, keyId } = await setup();
        clock.set(T0 + HOUR_MS - 1);
        expect((await admitMany(stores, keyId, 1_000)).every((r) => r.ok)).toBe(true);

        // A new clock hour: a fixed-window counter would reset here and admit another 1,000.
        clock.set(T0 + HOUR_MS);
        expect(await a.admitRequest(keyId, { loopGuardExempt: true })).toMatchObject({ ok: false, kind: 'rate_limited', retryAfterSeconds: 3_600 });
        clock.set(T0 + 2 * HOUR_MS - 2);
        expect(await a.admitRequest(keyId, { loopGuardExempt: true })).toMatchObject({ ok: false, kind: 'rate_limited', retryAfterSeconds: 1 });

        clock.set(T0 + 2 * HOUR_MS - 1);
        expect((await admitMany(stores, keyId, 1_001)).filter((r) => r.ok)).toHaveLength(1_000);
      });

      it('frees slots one by one as requests leave the window', async () => {
        const { clock, stores, a, keyId } = await setup();
        expect((await admitMany(stores, keyId, 400)).every((r) => r.ok)).toBe(true);
        clock.advance(30 * 60_000);
        expect((await admitMany(stores, keyId, 600)).every((r) => r.ok)).toBe(true);
        expect((await a.admitRequest(keyId, { loopGuardExempt: true })).ok).toBe(false);

        // At T0 + 1 h the first 400 leave; the 600 from half an hour ago still count.
        clock.set(T0 + HOUR_MS);
        const results = await admitMany(stores, keyId, 401);
        expect(results.filter((r) => r.ok)).toHaveLength(400);
        const refused = results.find((r) => !r.ok);
        expect(refused).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 1_800, rate: { resetMs: T0 + 90 * 60_000 } });
      });

      it('does not count refused requests against the quota', async () => {
        const { clock, stores, keyId } = await setup({ rateLimitPerHour: 10 });
        expect((await admitMany(stores, keyId, 10)).every((r) => r.ok)).toBe(true);
        for (let i = 0; i < 20; i += 1) {
          clock.advance(60_000);
          expect((await stores[i % 2].admitRequest(keyId, { loopGuardExempt: true })).ok).toBe(false);
        }
        clock.set(T0 + HOUR_MS);
        expect((await admitMany(stores, keyId, 11)).filter((r) => r.ok)).toHaveLength(10);
      });

      it('keeps keys independent and reports headers on admission', async () => {
        const { a, keyId } = await setup({ rateLimitPerHour: 2 });
        const other = newKeyId();
        expect(await a.admitRequest(keyId, { loopGuardExempt: true })).toEqual({
          ok: true,
          rate: { limit: 2, remaining: 1, resetMs: T0 + HOUR_MS },
        });
        await a.admitRequest(keyId, { loopGuardExempt: true });
        expect((await a.admitRequest(keyId, { loopGuardExempt: true })).ok).toBe(false);
        expect((await a.admitRequest(other, { loopGuardExempt: true })).ok).toBe(true);
      });
    });

    describe('loop guard (more than 50 requests in 10 s)', () => {
      it('trips exactly once when 60 concurrent requests arrive through two replicas', async () => {
        const { clock, stores, a, keyId } = await setup();
        const results = await admitMany(stores, keyId, 60, false);
        expect(results.filter((r) => r.ok)).toHaveLength(50);
        const loops = results.filter((r) => !r.ok && r.kind === 'loop_detected');
        expect(loops).toHaveLength(10);
        expect(loops.filter((r) => !r.ok && r.kind === 'loop_detected' && r.firstTrip)).toHaveLength(1);

        // The key stays paused (never a second firstTrip) until reset, even after the window passed.
        clock.advance(60_000);
        const again = await admitMany(stores, keyId, 10, false);
        expect(again.every((r) => !r.ok && r.kind === 'loop_detected' && !r.firstTrip)).toBe(true);
        expect((await a.admitRequest(keyId, { loopGuardExempt: false })).ok).toBe(false);
      });

      it('counts a rolling 10 s window: 50 admitted, the 51st within 10 s trips', async () => {
        const { clock, stores, a, keyId } = await setup();
        expect((await admitMany(stores, keyId, 50, false)).every((r) => r.ok)).toBe(true);
        clock.advance(10_000);
        // The first 50 left the window exactly 10 s later.
        expect((await admitMany(stores, keyId, 50, false)).every((r) => r.ok)).toBe(true);
        clock.advance(9_999);
        expect(await a.admitRequest(keyId, { loopGuardExempt: false })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: true });
      });

      it('lets exempt keys skip the loop guard but not the rate limit', async () => {
        const { a, stores, keyId } = await setup({ rateLimitPerHour: 120 });
        const results = await admitMany(stores, keyId, 121, true);
        expect(results.filter((r) => r.ok)).toHaveLength(120);
        expect(results.filter((r) => !r.ok && r.kind === 'loop_detected')).toHaveLength(0);
        expect(await a.admitRequest(keyId, { loopGuardExempt: true })).toMatchObject({ ok: false, kind: 'rate_limited' });
      });

      it('does not consume rate quota with loop-detected requests', async () => {
        const { stores, a, keyId } = await setup();
        await admitMany(stores, keyId, 55, false);
        await a.resetKey(keyId);
        expect(await a.admitRequest(keyId, { loopGuardExempt: false })).toMatchObject({ ok: true, rate: { remaining: 1_000 - 51 } });
      });
    });

    describe('resetKey', () => {
      it('clears the loop trip and window so the key runs again and can trip again', async () => {
        const { stores, a, b, keyId } = await setup();
        await admitMany(stores, keyId, 51, false);
        await b.resetKey(keyId);
        expect((await admitMany(stores, keyId, 50, false)).every((r) => r.ok)).toBe(true);
        expect(await a.admitRequest(keyId, { loopGuardExempt: false })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: true });
      });

      it('clears the circuit trip and the hourly spend window, keeps the monthly spend and the rate log', async () => {
        const { a, b, keyId, projectId } = await setup({ rateLimitPerHour: 3 });
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        await a.admitRequest(keyId, { loopGuardExempt: false });
        await a.admitRequest(keyId, { loopGuardExempt: false });
        const first = await reserveOk(a, { ...input, estimatedUsd: 0.8 });
        await a.settleSpend(first, 0.8);
        expect(await b.reserveSpend({ ...input, estimatedUsd: 0.5 })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });

        await b.resetKey(keyId);
        const second = await reserveOk(a, { ...input, estimatedUsd: 0.5 });
        await a.settleSpend(second, 0.5);
        expect(await a.monthlySpendUsd(projectId)).toBe(1.3);
        expect(await a.admitRequest(keyId, { loopGuardExempt: false })).toMatchObject({ ok: true, rate: { remaining: 0 } });
        expect((await a.admitRequest(keyId, { loopGuardExempt: false })).ok).toBe(false);
      });

      it('is a no-op for a key without state', async () => {
        const { a, keyId } = await setup();
        await expect(a.resetKey(keyId)).resolves.toBeUndefined();
        expect((await a.admitRequest(keyId, { loopGuardExempt: false })).ok).toBe(true);
      });
    });

    // The key's last admin reset (control-plane's reset_at) arrives with every call as the key's
    // generation. So a replica that missed the reset's key.changed (and never ran resetKey) still
    // lets the key run again, and a call still holding the key's old settings cannot pause it again.
    describe('reset generation (resetKey missed)', () => {
      /** Fires `count` admits at once under one generation, alternating replicas. */
      function admitUnder(stores: ProtectionStore[], keyId: string, count: number, resetAtMs: number): Promise<AdmitResult[]> {
        return Promise.all(Array.from({ length: count }, (_, i) => stores[i % stores.length].admitRequest(keyId, { loopGuardExempt: false, resetAtMs })));
      }

      it('admits a loop-tripped key under a newer generation, without resetKey, and can trip it again', async () => {
        const { clock, stores, a, b, keyId } = await setup();
        await admitMany(stores, keyId, 51, false);
        clock.advance(60_000);
        const resetAtMs = T0 + 30_000;
        // The loop window is cleared with the trip; the rate log is kept (50 admitted + this one).
        expect(await b.admitRequest(keyId, { loopGuardExempt: false, resetAtMs })).toMatchObject({ ok: true, rate: { remaining: 1_000 - 51 } });
        expect((await admitUnder(stores, keyId, 49, resetAtMs)).every((r) => r.ok)).toBe(true);
        // A trip under the new generation is a new one, and stands for it and for older callers.
        expect(await a.admitRequest(keyId, { loopGuardExempt: false, resetAtMs })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: true });
        clock.advance(60_000);
        expect(await b.admitRequest(keyId, { loopGuardExempt: false, resetAtMs })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: false });
        expect(await b.admitRequest(keyId, { loopGuardExempt: false })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: false });
      });

      it('keeps refusing a loop trip for callers of its own or an older generation', async () => {
        const { clock, stores, a, keyId } = await setup();
        const generation = T0 - 5_000;
        expect((await admitUnder(stores, keyId, 51, generation)).filter((r) => !r.ok)).toEqual([{ ok: false, kind: 'loop_detected', firstTrip: true }]);
        clock.advance(60_000);
        for (const resetAtMs of [undefined, 0, generation - 1, generation]) {
          expect(await a.admitRequest(keyId, { loopGuardExempt: false, resetAtMs })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: false });
        }
        expect((await a.admitRequest(keyId, { loopGuardExempt: false, resetAtMs: generation + 1 })).ok).toBe(true);
      });

      it('reserves for a circuit-tripped key under a newer generation, with the hourly spend window cleared and the month kept', async () => {
        const { clock, a, b, keyId, projectId } = await setup();
        const generation = T0 - 5_000;
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        await a.settleSpend(await reserveOk(a, { ...input, estimatedUsd: 0.8, resetAtMs: generation }), 0.8);
        clock.advance(1_000);
        expect(await b.reserveSpend({ ...input, estimatedUsd: 0.5, resetAtMs: generation })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });
        clock.advance(60_000);
        for (const resetAtMs of [undefined, 0, generation - 1, generation]) {
          expect(await a.reserveSpend({ ...input, estimatedUsd: 0, resetAtMs })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: false });
        }

        const resetAtMs = clock.now();
        // The whole cap again: the 0.8 settled before the reset no longer counts this hour.
        await b.settleSpend(await reserveOk(b, { ...input, estimatedUsd: 1, resetAtMs }), 1);
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0.000001, resetAtMs })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });
        expect(await b.reserveSpend({ ...input, estimatedUsd: 0, resetAtMs })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: false });
        expect(await a.monthlySpendUsd(projectId)).toBe(1.8);
      });

      it('clears a trip written after the reset by a call that still held the old generation', async () => {
        const { clock, a, b, keyId, projectId } = await setup();
        const resetAtMs = T0 + 1_000;
        clock.set(T0 + 5_000);
        // The admin raised the cap at the reset; a call that still held the old cap (1 µUSD) trips it.
        expect(await a.reserveSpend({ keyId, projectId, estimatedUsd: 0.5, hourlyLimitUsd: 0.000001, monthlyBudgetUsd: null })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });
        await reserveOk(b, { keyId, projectId, estimatedUsd: 0.5, hourlyLimitUsd: null, monthlyBudgetUsd: null, resetAtMs });
      });

      it('clears stale loop and circuit trips together, once', async () => {
        const { clock, stores, a, b, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        await a.settleSpend(await reserveOk(a, { ...input, estimatedUsd: 0.8 }), 0.8);
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0.5 })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });
        await admitMany(stores, keyId, 51, false);
        clock.advance(1_000);
        const resetAtMs = T0 + 500;
        expect((await b.admitRequest(keyId, { loopGuardExempt: false, resetAtMs })).ok).toBe(true);
        await reserveOk(a, { ...input, estimatedUsd: 1, resetAtMs });
      });

      it('refuses a call of an older generation without tripping the key, so it cannot wipe what was counted since the reset', async () => {
        const { stores, a, b, keyId, projectId } = await setup();
        const resetAtMs = T0 - 1_000;
        // The admin lifted the cap to $1 at the reset; the current generation spends $0.90 of it.
        const current = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null, resetAtMs };
        await a.settleSpend(await reserveOk(a, { ...current, estimatedUsd: 0.9 }), 0.9);
        // A call still holding the settings from before the reset ($0.10 cap, generation 0).
        expect(await b.reserveSpend({ keyId, projectId, estimatedUsd: 0.5, hourlyLimitUsd: 0.1, monthlyBudgetUsd: null })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: false });
        // It wrote no trip: the $0.90 still counts, and this call is the one that trips the key.
        expect(await a.reserveSpend({ ...current, estimatedUsd: 0.9 })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });

        const loopKey = newKeyId();
        expect((await admitUnder(stores, loopKey, 50, resetAtMs)).every((r) => r.ok)).toBe(true);
        expect(await b.admitRequest(loopKey, { loopGuardExempt: false })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: false });
        expect(await a.admitRequest(loopKey, { loopGuardExempt: false, resetAtMs })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: true });
      });

      it('rejects a reset generation that is not an integer ms epoch', async () => {
        const { a, keyId, projectId } = await setup();
        for (const resetAtMs of [Number.NaN, 1.5, 2 ** 60]) await expect(a.admitRequest(keyId, { loopGuardExempt: false, resetAtMs })).rejects.toThrow(RangeError);
        await expect(a.reserveSpend({ keyId, projectId, estimatedUsd: 0, hourlyLimitUsd: null, monthlyBudgetUsd: null, resetAtMs: -1 })).rejects.toThrow(RangeError);
      });
    });

    describe('hourly spend cap (reserve, then settle)', () => {
      it('admits exactly one of 20 parallel reservations when the cap fits one, tripping once', async () => {
        const { stores, keyId, projectId } = await setup();
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % 2].reserveSpend({ keyId, projectId, estimatedUsd: 0.6, hourlyLimitUsd: 1, monthlyBudgetUsd: null }),
          ),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        const open = results.filter((r): r is Extract<ReserveResult, { kind: 'circuit_open' }> => !r.ok && r.kind === 'circuit_open');
        expect(open).toHaveLength(19);
        expect(open.filter((r) => r.firstTrip)).toHaveLength(1);
      });

      it('allows spend equal to the limit; exceeding it trips and the key stays open', async () => {
        const { a, b, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        await reserveOk(a, { ...input, estimatedUsd: 0.4 });
        await reserveOk(b, { ...input, estimatedUsd: 0.6 });
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0.000001 })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });
        expect(await b.reserveSpend({ ...input, estimatedUsd: 0 })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: false });
        // Sticky until reset, even with a raised or removed limit.
        expect(await b.reserveSpend({ ...input, hourlyLimitUsd: null, estimatedUsd: 0 })).toEqual({ ok: false, kind: 'circuit_open', firstTrip: false });
      });

      it('replaces the estimate by the actual cost on settle', async () => {
        const { a, b, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        const id = await reserveOk(a, { ...input, estimatedUsd: 0.9 });
        await b.settleSpend(id, 0.1);
        await reserveOk(a, { ...input, estimatedUsd: 0.9 });
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0.000001 })).toMatchObject({ ok: false, kind: 'circuit_open', firstTrip: true });
      });

      it('frees the reservation on release', async () => {
        const { a, b, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: 5 };
        const id = await reserveOk(a, { ...input, estimatedUsd: 0.9 });
        await b.releaseSpend(id);
        await reserveOk(a, { ...input, estimatedUsd: 1 });
        expect(await a.monthlySpendUsd(projectId)).toBe(0);
      });

      it('settles and releases idempotently', async () => {
        const { a, b, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        const id = await reserveOk(a, { ...input, estimatedUsd: 0.5 });
        await Promise.all([a.settleSpend(id, 0.3), b.settleSpend(id, 0.3)]);
        await a.settleSpend(id, 0.9);
        await b.releaseSpend(id);
        expect(await a.monthlySpendUsd(projectId)).toBe(0.3);
        await reserveOk(a, { ...input, estimatedUsd: 0.7 });
        expect((await a.reserveSpend({ ...input, estimatedUsd: 0.000001 })).ok).toBe(false);
      });

      it('stops counting a reservation that was never settled after reservationTtlMs, yet a late settle still counts', async () => {
        const { clock, a, keyId, projectId } = await setup({ reservationTtlMs: 120_000 });
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: 1 };
        const crashed = await reserveOk(a, { ...input, estimatedUsd: 0.9 });
        clock.advance(119_999);
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0.2 })).toEqual({ ok: false, kind: 'budget_exceeded' });
        clock.advance(1);
        const next = await reserveOk(a, { ...input, estimatedUsd: 0.9 });
        await a.releaseSpend(next);

        await a.settleSpend(crashed, 0.05);
        expect(await a.monthlySpendUsd(projectId)).toBe(0.05);
        await reserveOk(a, { ...input, estimatedUsd: 0.95 });
      });

      it('measures spend over a rolling hour', async () => {
        const { clock, a, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        await a.settleSpend(await reserveOk(a, { ...input, estimatedUsd: 0.6 }), 0.6);
        clock.advance(30 * 60_000);
        await a.releaseSpend(await reserveOk(a, { ...input, estimatedUsd: 0.4 }));
        clock.set(T0 + HOUR_MS - 1);
        await a.releaseSpend(await reserveOk(a, { ...input, estimatedUsd: 0.4 }));
        // The 0.6 settled at T0 leaves the window at T0 + 1 h.
        clock.set(T0 + HOUR_MS);
        await reserveOk(a, { ...input, estimatedUsd: 1 });
      });

      it('treats a null hourly limit as no cap', async () => {
        const { a, keyId, projectId } = await setup();
        for (let i = 0; i < 3; i += 1) {
          await reserveOk(a, { keyId, projectId, estimatedUsd: 1_000, hourlyLimitUsd: null, monthlyBudgetUsd: null });
        }
      });

      it('keeps the cap per key', async () => {
        const { a, keyId, projectId } = await setup();
        const input = { projectId, estimatedUsd: 1, hourlyLimitUsd: 1, monthlyBudgetUsd: null };
        await reserveOk(a, { ...input, keyId });
        expect((await a.reserveSpend({ ...input, keyId })).ok).toBe(false);
        await reserveOk(a, { ...input, keyId: newKeyId() });
      });
    });

    describe('monthly budget (per project, calendar month UTC)', () => {
      it('counts settled plus outstanding reservations; reaching the budget refuses', async () => {
        const { a, b, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: null, monthlyBudgetUsd: 1 };
        const first = await reserveOk(a, { ...input, estimatedUsd: 0.6 });
        expect(await b.reserveSpend({ ...input, estimatedUsd: 0.5 })).toEqual({ ok: false, kind: 'budget_exceeded' });
        const second = await reserveOk(b, { ...input, estimatedUsd: 0.4 });
        await a.settleSpend(first, 0.6);
        await b.settleSpend(second, 0.4);
        expect(await a.monthlySpendUsd(projectId)).toBe(1);
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0 })).toEqual({ ok: false, kind: 'budget_exceeded' });
        // Budget refusals never trip the key.
        await reserveOk(a, { ...input, monthlyBudgetUsd: 2, estimatedUsd: 0.5 });
      });

      it('admits exactly one of 20 parallel reservations from different keys when the budget fits one', async () => {
        const { stores, projectId } = await setup();
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % 2].reserveSpend({ keyId: newKeyId(), projectId, estimatedUsd: 3, hourlyLimitUsd: 100, monthlyBudgetUsd: 5 }),
          ),
        );
        expect(results.filter((r) => r.ok)).toHaveLength(1);
        expect(results.filter((r) => !r.ok && r.kind === 'budget_exceeded')).toHaveLength(19);
      });

      it('sums exactly in micro-dollars (no float drift)', async () => {
        const { a, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: null, monthlyBudgetUsd: null };
        for (let i = 0; i < 10; i += 1) {
          await a.settleSpend(await reserveOk(a, { ...input, estimatedUsd: 0.1 }), 0.1);
        }
        await a.settleSpend(await reserveOk(a, { ...input, estimatedUsd: 0.2 }), 0.2);
        expect(await a.monthlySpendUsd(projectId)).toBe(1.2);
      });

      it('resets with the calendar month (UTC); a reservation counts in the month it was made', async () => {
        const endOfJanuary = Date.UTC(2025, 0, 31, 23, 59, 59, 0);
        const { clock, a, b, keyId, projectId } = await setup({}, endOfJanuary);
        const input = { keyId, projectId, hourlyLimitUsd: null, monthlyBudgetUsd: 1 };
        await a.settleSpend(await reserveOk(a, { ...input, estimatedUsd: 0.7 }), 0.7);
        const spanning = await reserveOk(a, { ...input, estimatedUsd: 0.2 });
        expect(await a.reserveSpend({ ...input, estimatedUsd: 0.5 })).toEqual({ ok: false, kind: 'budget_exceeded' });

        clock.set(Date.UTC(2025, 1, 1, 0, 0, 0, 0));
        expect(await b.monthlySpendUsd(projectId)).toBe(0);
        await b.settleSpend(spanning, 0.2);
        expect(await b.monthlySpendUsd(projectId)).toBe(0);
        await b.settleSpend(await reserveOk(b, { ...input, estimatedUsd: 1 }), 0.25);
        expect(await b.monthlySpendUsd(projectId)).toBe(0.25);

        clock.set(endOfJanuary + 500);
        expect(await a.monthlySpendUsd(projectId)).toBe(0.9);
      });

      it('re-seeds a lost month counter from the durable figure, never lowering it', async () => {
        const { a, b, keyId, projectId } = await setup();
        await a.raiseMonthlySpend(projectId, 0.75);
        expect(await b.monthlySpendUsd(projectId)).toBe(0.75);
        await b.raiseMonthlySpend(projectId, 0.5);
        expect(await a.monthlySpendUsd(projectId)).toBe(0.75);
        expect((await a.reserveSpend({ keyId, projectId, estimatedUsd: 0.3, hourlyLimitUsd: null, monthlyBudgetUsd: 1 })).ok).toBe(false);
        await reserveOk(a, { keyId, projectId, estimatedUsd: 0.25, hourlyLimitUsd: null, monthlyBudgetUsd: 1 });
      });

      it('keeps budgets per project and treats null as no budget', async () => {
        const { a, keyId, projectId } = await setup();
        await reserveOk(a, { keyId, projectId, estimatedUsd: 1, hourlyLimitUsd: null, monthlyBudgetUsd: 1 });
        expect((await a.reserveSpend({ keyId, projectId, estimatedUsd: 1, hourlyLimitUsd: null, monthlyBudgetUsd: 1 })).ok).toBe(false);
        await reserveOk(a, { keyId, projectId, estimatedUsd: 1, hourlyLimitUsd: null, monthlyBudgetUsd: null });
        await reserveOk(a, { keyId: newKeyId(), projectId: newProjectId(), estimatedUsd: 1, hourlyLimitUsd: null, monthlyBudgetUsd: 1 });
      });
    });

    describe('input and health', () => {
      it('rejects invalid amounts and malformed reservation ids', async () => {
        const { a, keyId, projectId } = await setup();
        const input = { keyId, projectId, hourlyLimitUsd: null, monthlyBudgetUsd: null };
        await expect(a.reserveSpend({ ...input, estimatedUsd: -1 })).rejects.toThrow(RangeError);
        await expect(a.reserveSpend({ ...input, estimatedUsd: Number.NaN })).rejects.toThrow(RangeError);
        await expect(a.settleSpend('not-a-reservation', 1)).rejects.toThrow(TypeError);
        const id = await reserveOk(a, { ...input, estimatedUsd: 1 });
        await expect(a.settleSpend(id, Number.POSITIVE_INFINITY)).rejects.toThrow(RangeError);
        await expect(a.admitRequest('', { loopGuardExempt: false })).rejects.toThrow(TypeError);
      });

      it('reports healthy', async () => {
        const { a, b } = await setup();
        expect(await a.isHealthy()).toBe(true);
        expect(await b.isHealthy()).toBe(true);
      });
    });
  });
}

async function reserveOk(store: ProtectionStore, input: Parameters<ProtectionStore['reserveSpend']>[0]): Promise<string> {
  const result = await store.reserveSpend(input);
  if (!result.ok) throw new Error(`expected a reservation, got ${JSON.stringify(result)}`);
  return result.reservationId;
}

function newKeyId(): string {
  return `ak_${randomUUID().replace(/-/g, '').slice(0, 16)}`;
}

function newProjectId(): number {
  return randomInt(1, 2 ** 31);
}

import { DEFAULT_LIMITS } from './protection-limits.config';
import { createMemoryProtectionStore } from './memory-protection.store';
import { createManualClock } from './testing/manual-clock.fixture';
import { describeProtectionStoreContract } from './testing/protection-store.contract';

describeProtectionStoreContract('memory', async ({ limits, clock }) => {
  // One process holds the state: both "replicas" are the same instance.
  const store = createMemoryProtectionStore({ limits, clock });
  return { stores: [store, store], cleanup: async () => undefined };
});

describe('createMemoryProtectionStore', () => {
  it('refuses limits that would disable a guard', () => {
    expect(() => createMemoryProtectionStore({ limits: { ...DEFAULT_LIMITS, rateLimitPerHour: 0 } })).toThrow(RangeError);
    expect(() => createMemoryProtectionStore({ limits: { ...DEFAULT_LIMITS, loopWindowMs: Number.NaN } })).toThrow(/loopWindowMs/);
  });

  it('uses the system clock by default', async () => {
    const store = createMemoryProtectionStore({ limits: DEFAULT_LIMITS });
    const before = Date.now();
    const result = await store.admitRequest('ak_default_clock', { loopGuardExempt: false });
    expect(result.ok && result.rate.resetMs).toBeGreaterThanOrEqual(before + DEFAULT_LIMITS.rateWindowMs);
  });

  it('forgets a reservation id after its record expires (24 h), so a very late settle is a no-op', async () => {
    const clock = createManualClock(Date.UTC(2025, 2, 3, 10));
    const store = createMemoryProtectionStore({ limits: DEFAULT_LIMITS, clock });
    const result = await store.reserveSpend({ keyId: 'ak_late', projectId: 7, estimatedUsd: 1, hourlyLimitUsd: null, monthlyBudgetUsd: null });
    if (!result.ok) throw new Error('expected a reservation');
    clock.advance(24 * 3_600_000);
    // Any later reservation collects the expired record.
    await store.reserveSpend({ keyId: 'ak_other', projectId: 7, estimatedUsd: 0, hourlyLimitUsd: null, monthlyBudgetUsd: null });
    await store.settleSpend(result.reservationId, 1);
    expect(await store.monthlySpendUsd(7)).toBe(0);
  });
});

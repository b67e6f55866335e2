import { createLogger } from '@gateway/logging';
import { createMemoryProtectionStore } from './memory-protection.store';
import { DEFAULT_LIMITS } from './protection-limits.config';
import { ProtectionGuard, type GuardedKey } from './protection.guard';

const KEY: GuardedKey = { keyId: 'ak_0123456789abcdef', projectId: 7, hourlyLimit: 1, loopGuardExempt: false, monthlyBudgetUsd: null, projectMonthlySpendUsd: 0, resetAtMs: 0 };
const CALLER = { ip: '10.0.0.1', userAgent: 'spec' };

/** A guard over a memory store whose key has spent $0.90 of its $1 hour, settled. */
async function spentGuard(): Promise<ProtectionGuard> {
  const guard = new ProtectionGuard(createMemoryProtectionStore({ limits: DEFAULT_LIMITS }), async () => undefined, createLogger({ service: 'edge', level: 'silent' }));
  await (await guard.reserve(KEY, 0.9, CALLER)).settle(0.9);
  return guard;
}

const overCap = (guard: ProtectionGuard) => guard.reserve(KEY, 0.2, CALLER);

describe('ProtectionGuard.onKeyChanged (key.changed)', () => {
  it('clears the hour of a key an admin reset', async () => {
    const guard = await spentGuard();
    await guard.onKeyChanged({ keyId: KEY.keyId, status: 'active', reset: true });
    await expect(overCap(guard)).resolves.toBeDefined();
  });

  it('keeps the hour counting on any other change (a new hourly_limit alone, a pause)', async () => {
    const guard = await spentGuard();
    await guard.onKeyChanged({ keyId: KEY.keyId, status: 'active', reset: false });
    await guard.onKeyChanged({ keyId: KEY.keyId, status: 'tripped', reset: false });
    await expect(overCap(guard)).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
  });

  it('takes a change to active from a control-plane that does not say (earlier version) for a reset', async () => {
    const guard = await spentGuard();
    await guard.onKeyChanged({ keyId: KEY.keyId, status: 'active' });
    await expect(overCap(guard)).resolves.toBeDefined();
  });
});

import { InProcessEventBus } from '@gateway/bus';
import { DomainError } from '@gateway/errors';
import { controlplane, events, Subjects } from '@gateway/proto';
import { ProjectPolicyCache, VerifiedKeyCache } from './control-plane-caches';

const principal = (keyId: string, status = 'active'): controlplane.KeyPrincipal => ({
  keyId,
  projectId: 7,
  organizationId: 1,
  status,
  hourlyLimit: undefined,
  loopGuardExempt: false,
  projectStatus: 'active',
  monthlyBudgetUsd: undefined,
  cacheTtlMs: 60_000,
  projectMonthlySpendUsd: 0,
  blockedIps: [],
});

/** The in-process bus calls broadcast handlers during publish; let their promises settle. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('VerifiedKeyCache', () => {
  it('answers from cache until key.changed drops the key', async () => {
    const bus = new InProcessEventBus();
    let calls = 0;
    let status = 'active';
    const cache = new VerifiedKeyCache({ verifyApiKey: async () => (calls++, principal('ak_1', status)) } as never, 30_000);
    await cache.listen(bus);
    await cache.verify('ak_1.secret', { ip: '', userAgent: '' });
    await cache.verify('ak_1.secret', { ip: '', userAgent: '' });
    expect(calls).toBe(1);
    status = 'revoked';
    const event = events.KeyChanged.encode({ meta: undefined, keyId: 'ak_1', projectId: 7, status: 'revoked', loopInterventionCount: 0 }).finish();
    await bus.publish(Subjects.keyChanged, event, { eventId: 'e1' });
    await settle();
    await expect(cache.verify('ak_1.secret', { ip: '', userAgent: '' })).rejects.toEqual(new DomainError('UNAUTHENTICATED', 'Unauthorized'));
    expect(calls).toBe(2);
  });

  it('refuses a paused key in verify but reports its status in lookup', async () => {
    const cache = new VerifiedKeyCache({ verifyApiKey: async () => principal('ak_2', 'tripped') } as never, 30_000);
    await expect(cache.verify('ak_2.s', { ip: '', userAgent: '' })).rejects.toThrow('Unauthorized');
    await expect(cache.lookup('ak_2.s', { ip: '', userAgent: '' })).resolves.toMatchObject({ keyId: 'ak_2', status: 'tripped' });
  });
});

describe('ProjectPolicyCache', () => {
  it('shares one call between concurrent misses and refetches after project.changed', async () => {
    const bus = new InProcessEventBus();
    let calls = 0;
    const cache = new ProjectPolicyCache({
      getProjectPolicy: async (ref: controlplane.ProjectRef) => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { project: { id: ref.projectId, name: `v${calls}` } as controlplane.Project, models: [] };
      },
    } as never);
    await cache.listen(bus);
    const [a, b] = await Promise.all([cache.get(3), cache.get(3)]);
    expect([a.project?.name, b.project?.name, calls]).toEqual(['v1', 'v1', 1]);
    await bus.publish(Subjects.projectChanged, events.ProjectChanged.encode({ meta: undefined, projectId: 3, organizationId: 1, change: 'updated' }).finish(), { eventId: 'p1' });
    await settle();
    expect((await cache.get(3)).project?.name).toBe('v2');
  });
});

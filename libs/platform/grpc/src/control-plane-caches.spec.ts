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
  resetAtMs: 0,
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

  it('does not cache an answer that was in flight when key.changed or project.changed arrived', async () => {
    const bus = new InProcessEventBus();
    const answers: Array<(principal: controlplane.KeyPrincipal) => void> = [];
    const cache = new VerifiedKeyCache(
      { verifyApiKey: () => new Promise<controlplane.KeyPrincipal>((resolve) => answers.push(resolve)) } as never,
      30_000,
    );
    await cache.listen(bus);
    const caller = { ip: '', userAgent: '' };
    const keyChanged = events.KeyChanged.encode({ meta: undefined, keyId: 'ak_3', projectId: 7, status: 'active', loopInterventionCount: 0 }).finish();
    const projectChanged = events.ProjectChanged.encode({ meta: undefined, projectId: 7, organizationId: 1, change: 'updated' }).finish();

    // Control-plane read the key before the admin reset it; the reset's key.changed lands first.
    const stale = cache.lookup('ak_3.s', caller);
    await bus.publish(Subjects.keyChanged, keyChanged, { eventId: 'e3' });
    await settle();
    answers[0](principal('ak_3', 'tripped'));
    // The caller that asked still gets the answer it waited for, but it is not kept.
    await expect(stale).resolves.toMatchObject({ status: 'tripped' });
    const fresh = cache.lookup('ak_3.s', caller);
    expect(answers).toHaveLength(2);
    answers[1](principal('ak_3', 'active'));
    await expect(fresh).resolves.toMatchObject({ status: 'active' });

    // The same for a project change (budget, block list, status) during the call.
    await bus.publish(Subjects.keyChanged, keyChanged, { eventId: 'e4' });
    await settle();
    const beforeProjectChange = cache.lookup('ak_3.s', caller);
    await bus.publish(Subjects.projectChanged, projectChanged, { eventId: 'p3' });
    await settle();
    answers[2](principal('ak_3', 'active'));
    await beforeProjectChange;
    const uncontested = cache.lookup('ak_3.s', caller);
    expect(answers).toHaveLength(4);

    // An answer that raced no change is cached as before.
    answers[3](principal('ak_3', 'active'));
    await uncontested;
    await cache.lookup('ak_3.s', caller);
    expect(answers).toHaveLength(4);
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

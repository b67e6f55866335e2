import { PolicySource, type PolicyFetch } from './policy.source';

const POLICY = { project_id: 4, risk_threshold: 0.5, routing_tiers: { simple: 'fast', secure: null }, policy_rules: { blocked_terms: ['Project Falcon'], blocked_patterns: ['secret-\\d{4}'], blocked_topics: [] } };

function source(answers: PolicyFetch[], options = { ttlMs: 1_000, maxStaleMs: 5_000 }) {
  let now = 0;
  const asked: string[] = [];
  const policies = new PolicySource(
    async (authorization) => {
      asked.push(authorization);
      const next = answers.shift();
      if (!next) throw new Error('unexpected fetch');
      return next;
    },
    { ...options, now: () => now },
  );
  return { policies, asked, advance: (ms: number) => void (now += ms) };
}

const ok = (body: unknown = POLICY): PolicyFetch => ({ kind: 'answer', status: 200, body });

describe('PolicySource', () => {
  it('fetches with the caller key, validates, compiles and caches for the TTL', async () => {
    const { policies, asked, advance } = source([ok(), ok()]);
    const first = await policies.get('Bearer ak_1.s');
    expect(first).toMatchObject({ kind: 'policy', stale: false });
    if (first.kind !== 'policy') throw new Error('no policy');
    expect(first.policy.source).toEqual({ projectId: 4, riskThreshold: 0.5, routingTiers: { simple: 'fast' }, blockedTerms: ['Project Falcon'], blockedPatterns: ['secret-\\d{4}'], blockedTopics: [] });
    await policies.get('Bearer ak_1.s');
    expect(asked).toEqual(['Bearer ak_1.s']);
    advance(1_000);
    await policies.get('Bearer ak_1.s');
    expect(asked).toHaveLength(2);
  });

  it('keeps keys apart and coalesces concurrent fetches', async () => {
    const { policies, asked } = source([ok(), ok({ ...POLICY, project_id: 5 })]);
    const [a, b, c] = await Promise.all([policies.get('Bearer ak_1.s'), policies.get('Bearer ak_1.s'), policies.get('Bearer ak_2.s')]);
    expect(asked).toEqual(['Bearer ak_1.s', 'Bearer ak_2.s']);
    expect([a, b, c].map((lookup) => (lookup.kind === 'policy' ? lookup.policy.source.projectId : null))).toEqual([4, 4, 5]);
  });

  it("passes the gateway's verdict on the key on, and forgets that key's policy", async () => {
    const { policies, advance } = source([ok(), { kind: 'answer', status: 401, body: { error: 'Unauthorized' } }, { kind: 'unreachable', error: 'ECONNREFUSED' }]);
    await policies.get('Bearer ak_1.s');
    advance(1_000);
    await expect(policies.get('Bearer ak_1.s')).resolves.toEqual({ kind: 'refused', status: 401, body: { error: 'Unauthorized' } });
    // The revoked key's policy is gone: with the gateway down there is nothing stale to fall back on.
    await expect(policies.get('Bearer ak_1.s')).resolves.toMatchObject({ kind: 'unavailable' });
  });

  it('applies a stale policy while the gateway is down, up to the limit, then holds requests back', async () => {
    const { policies, advance } = source([ok(), { kind: 'unreachable', error: 'ECONNREFUSED' }, { kind: 'answer', status: 503, body: {} }]);
    await policies.get('Bearer ak_1.s');
    advance(2_000);
    await expect(policies.get('Bearer ak_1.s')).resolves.toMatchObject({ kind: 'policy', stale: true });
    advance(3_000);
    await expect(policies.get('Bearer ak_1.s')).resolves.toEqual({ kind: 'unavailable', reason: 'Project policy unavailable (the gateway answered HTTP 503): request not forwarded' });
  });

  it('refuses invalid or unenforceable policies (fail closed)', async () => {
    const { policies } = source([ok({ project_id: 'x' }), ok({ ...POLICY, policy_rules: { blocked_patterns: ['(a+)+'] } }), { kind: 'answer', status: 404, body: { error: 'Not found' } }]);
    await expect(policies.get('Bearer a')).resolves.toEqual({ kind: 'unavailable', reason: 'The gateway answered an invalid project policy' });
    await expect(policies.get('Bearer a')).resolves.toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('nested quantifier') });
    await expect(policies.get('Bearer a')).resolves.toMatchObject({ kind: 'unavailable', reason: expect.stringContaining('HTTP 404') });
  });
});

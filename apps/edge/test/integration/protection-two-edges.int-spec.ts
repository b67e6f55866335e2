import { join } from 'node:path';
import { Redis } from 'ioredis';
import { eventually, GatewayFixture, MockProviderProcess, ProductionStack, RedisProcess, TestHttpClient, type JsonResponse, type ProjectFixture, type RunningApp } from '@gateway/testing';
import { DEFAULT_PROTECTION_PREFIX } from '../../src/protection';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@protection.test', password: 'protection-password-123' };

/**
 * Issue 7's proof: two edge processes share one Redis, so every limit holds across replicas.
 * A private redis-server lets the test stop Redis without disturbing anything else.
 */
describe('gateway protection across two edge replicas (production mode)', () => {
  const redis = new RedisProcess();
  const mock = new MockProviderProcess(root);
  let stack: ProductionStack;
  let fixture: GatewayFixture;
  let edgeB: RunningApp;
  let clientsOf: (project: ProjectFixture) => [TestHttpClient, TestHttpClient];

  beforeAll(async () => {
    await redis.start();
    await mock.start();
    stack = new ProductionStack({
      root,
      apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy'],
      databasePrefix: 'gw_it_protect',
      redisUrl: redis.url,
      extraEnv: { 'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password } },
    });
    await stack.startAll();
    edgeB = await stack.startReplica('edge');
    fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
    clientsOf = (project) => [project.api, new TestHttpClient(`http://127.0.0.1:${edgeB.port}`).withBearer(project.rawKey)];
  }, 180_000);

  afterAll(async () => {
    await stack?.stopAll();
    await mock.stop();
    await redis.stop();
  }, 60_000);

  const models = () => [{ identifier: 'cheap', base_url: `${mock.baseUrl}/v1`, input_cost_per_1k: 0.001, output_cost_per_1k: 0.002 }];

  async function trace(api: TestHttpClient): Promise<string> {
    const created = await api.post('/api/v1/traces', {});
    expect(created.status).toBe(201);
    return created.body.id;
  }

  it('trips the loop guard exactly once for 60 requests in under 10 s split across both edges', async () => {
    const project = await fixture.project({ models: models() });
    const [a, b] = clientsOf(project);
    const started = Date.now();
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).get('/api/v1/traces?per_page=1')));
    expect(Date.now() - started).toBeLessThan(10_000);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);
    const looped = responses.filter((r) => r.status === 429);
    expect(looped).toHaveLength(10);
    for (const response of looped) expect(response.body).toEqual({ error: 'Recursive loop detected. Account throttled.', code: 'LOOP_DETECTED' });

    // Persisted once: status and one intervention, whatever replica saw the trip first.
    const keys = await fixture.dashboard.get('/api/v1/keys');
    const key = keys.body.find((k: { id: string }) => k.id === project.keyId);
    expect(key).toMatchObject({ status: 'loop_detected', loop_intervention_count: 1 });
    // Paused: refused on both replicas until an admin resets it.
    await eventually(async () => (await a.get('/api/v1/traces')).status === 401 && (await b.get('/api/v1/traces')).status === 401);
    const reset = await fixture.dashboard.patch(`/api/v1/keys/${project.keyId}`, { status: 'active' });
    expect(reset.status).toBe(200);
    await eventually(async () => (await b.get('/api/v1/traces')).status === 200);
    const again = await fixture.dashboard.get('/api/v1/keys');
    expect(again.body.find((k: { id: string }) => k.id === project.keyId).loop_intervention_count).toBe(1);
  }, 60_000);

  it('admits exactly one of 20 parallel executions when the hourly cap fits one, and trips the key', async () => {
    // One reservation: ~2 prompt tokens at $0.001/1k + 512 completion tokens at $0.002/1k ≈ $0.00103.
    const project = await fixture.project({ models: models(), settings: { routing_tiers: { simple: 'cheap', complex: 'cheap' } }, key: { hourly_limit: 0.0015 } });
    const [a, b] = clientsOf(project);
    const traceId = await trace(a);
    await mock.clearRequests();
    // The admitted call holds its reservation while the other 19 arrive.
    await mock.addBehavior({ latencyMs: 1_500, times: 1 });
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? b : a).post('/api/v1/executions', { trace_id: traceId, input: 'hi' })));
    const ok = responses.filter((r) => r.status === 200);
    const capped = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(1);
    expect(ok[0].body).toMatchObject({ output: expect.stringContaining('Mock answer'), model: 'cheap', step_id: expect.any(Number) });
    expect(capped).toHaveLength(19);
    for (const response of capped) expect(response.body).toEqual({ error: 'Kill switch engaged: hourly limit of $0.0015 exceeded.', code: 'CIRCUIT_OPEN' });
    expect((await mock.requests()).filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
    const keys = await fixture.dashboard.get('/api/v1/keys');
    expect(keys.body.find((k: { id: string }) => k.id === project.keyId).status).toBe('tripped');
  }, 60_000);

  /**
   * Replays a reset that the edges' key.changed handler (resetKey) missed: once the handlers have
   * cleared the trip, and before any call of the key, the trip goes back into Redis exactly as it
   * was written (the marker, whose value is its expiry, and the generation it was decided under,
   * the one before the reset). control-plane's reset_at, carried in the key principal, must make
   * the edges clear it instead of refusing the key.
   */
  async function replayMissedReset(
    project: ProjectFixture,
    marker: 'loop-trip' | 'circuit-trip',
    patch: Record<string, unknown>,
    call: (api: TestHttpClient) => Promise<JsonResponse>,
  ): Promise<void> {
    const replicas = clientsOf(project);
    const store = new Redis(redis.url);
    try {
      const key = `${DEFAULT_PROTECTION_PREFIX}k:${project.keyId}:${marker}`;
      const [trip, generation] = await store.mget(key, `${key}-generation`);
      expect(Number(trip)).toBeGreaterThan(Date.now());
      expect(generation).toBe('0');
      const reset = await fixture.dashboard.patch(`/api/v1/keys/${project.keyId}`, { status: 'active', ...patch });
      expect(reset.status).toBe(200);
      await eventually(async () => (await store.exists(key)) === 0);
      // Both replicas handle the broadcast; let a straggler's DEL land before the replay.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await store.set(key, trip!, 'PX', 86_400_000);
      await store.set(`${key}-generation`, generation!, 'PX', 86_400_000);

      for (const api of replicas) expect(await call(api)).toMatchObject({ status: 200 });
      expect(await store.exists(key, `${key}-generation`)).toBe(0);
    } finally {
      store.disconnect();
    }
  }

  it('serves a loop-tripped key reset in control-plane although the edges missed the reset (key.changed)', async () => {
    const project = await fixture.project({ models: models() });
    const [a, b] = clientsOf(project);
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).get('/api/v1/traces?per_page=1')));
    expect(responses.filter((r) => r.status === 429)).toHaveLength(10);
    await eventually(async () => (await fixture.dashboard.get('/api/v1/keys')).body.find((k: { id: string }) => k.id === project.keyId).status === 'loop_detected');

    await replayMissedReset(project, 'loop-trip', {}, (api) => api.get('/api/v1/traces?per_page=1'));
    // A new loop after the reset trips again, and control-plane records it: the edges report the
    // trip under the reset's generation, not an older one it would ignore.
    const again = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? b : a).get('/api/v1/traces?per_page=1')));
    expect(again.some((r) => r.status === 429)).toBe(true);
    await eventually(async () => (await fixture.dashboard.get('/api/v1/keys')).body.find((k: { id: string }) => k.id === project.keyId).status === 'loop_detected');
  }, 60_000);

  it('serves a circuit-tripped key reset in control-plane although the edges missed the reset (key.changed)', async () => {
    const project = await fixture.project({ models: models(), settings: { routing_tiers: { simple: 'cheap', complex: 'cheap' } }, key: { hourly_limit: 0.0000001 } });
    const traceId = await trace(project.api);
    const capped = await project.api.post('/api/v1/executions', { trace_id: traceId, input: 'hi' });
    expect(capped).toMatchObject({ status: 429, body: { code: 'CIRCUIT_OPEN' } });
    await eventually(async () => (await fixture.dashboard.get('/api/v1/keys')).body.find((k: { id: string }) => k.id === project.keyId).status === 'tripped');

    await replayMissedReset(project, 'circuit-trip', { hourly_limit: null }, (api) => api.post('/api/v1/executions', { trace_id: traceId, input: 'hi' }));
  }, 60_000);

  it('answers 402 once the monthly budget is reached, and counts the spend exactly', async () => {
    // Reservation of one call ≈ $1.026 (512 completion tokens at $2/1k); its actual cost ≈ $0.014.
    // The budget fits one reservation, not the spend so far plus a second one.
    const pricey = [{ identifier: 'pricey', base_url: `${mock.baseUrl}/v1`, input_cost_per_1k: 1, output_cost_per_1k: 2 }];
    const project = await fixture.project({ models: pricey, settings: { routing_tiers: { simple: 'pricey', complex: 'pricey' }, monthly_budget_usd: 1.03 } });
    const [a, b] = clientsOf(project);
    const traceId = await trace(a);
    const first = await a.post('/api/v1/executions', { trace_id: traceId, input: 'hello' });
    expect(first.status).toBe(200);
    const second = await b.post('/api/v1/executions', { trace_id: traceId, input: 'hello again' });
    expect(second.status).toBe(402);
    expect(second.body).toEqual({ error: 'Monthly budget exceeded.', code: 'BUDGET_EXCEEDED' });
    const detail = await a.get(`/api/v1/traces/${traceId}`);
    const cost = detail.body.summary.total_cost;
    expect(cost).toBeGreaterThan(0);
    const spend = await eventually(async () => {
      const projectView = await fixture.dashboard.get(`/api/v1/projects/${project.projectId}`);
      return projectView.body.total_monthly_spend > 0 && projectView.body.total_monthly_spend;
    });
    expect(spend).toBeCloseTo(cost, 9);
  }, 60_000);

  it('fails closed with 503 while Redis is down (no model call), and recovers by itself', async () => {
    const project = await fixture.project({ models: models(), settings: { routing_tiers: { simple: 'cheap', complex: 'cheap' } } });
    const [a, b] = clientsOf(project);
    const traceId = await trace(a);
    expect((await a.post('/api/v1/executions', { trace_id: traceId, input: 'before' })).status).toBe(200);
    await redis.kill();
    await mock.clearRequests();
    for (const client of [a, b]) {
      const refused = await client.post('/api/v1/executions', { trace_id: traceId, input: 'while down' });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: 'Service temporarily unavailable: usage limits cannot be checked.' });
      expect(refused.headers.get('retry-after')).toBe('1');
    }
    expect(await mock.requests()).toHaveLength(0);
    await redis.start();
    const statuses: number[] = [];
    await eventually(async () => {
      const [fromA, fromB] = [await a.post('/api/v1/executions', { trace_id: traceId, input: 'after' }), await b.post('/api/v1/executions', { trace_id: traceId, input: 'after' })];
      statuses.push(fromA.status, fromB.status);
      if (fromA.status === 429 || fromB.status === 429) throw new Error(`unexpected 429: ${JSON.stringify([fromA.body, fromB.body])}`);
      return fromA.status === 200 && fromB.status === 200;
    }, 15_000);
    // Until Redis answers again every metered request is refused, never let through.
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
  }, 60_000);

  it('refuses a revoked key on the other replica within one second', async () => {
    const project = await fixture.project({ models: models() });
    const [a, b] = clientsOf(project);
    expect((await a.get('/api/v1/traces')).status).toBe(200);
    expect((await b.get('/api/v1/traces')).status).toBe(200); // cached on B now
    const revoked = await fixture.dashboard.delete(`/api/v1/keys/${project.keyId}`);
    expect(revoked.status).toBe(204);
    const since = Date.now();
    let refusedAfter = -1;
    while (Date.now() - since < 1_000) {
      if ((await b.get('/api/v1/traces')).status === 401) {
        refusedAfter = Date.now() - since;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(refusedAfter).toBeGreaterThanOrEqual(0);
    expect(refusedAfter).toBeLessThan(1_000);
    expect((await b.get('/api/v1/traces')).body).toEqual({ error: 'Unauthorized' });
  }, 30_000);

  it('refuses executions on a trace completed through the other replica, before any model call', async () => {
    const project = await fixture.project({ models: models(), settings: { routing_tiers: { simple: 'cheap', complex: 'cheap' } } });
    const [a, b] = clientsOf(project);
    // Created and executed on A. Whichever replica completes a trace, the others must refuse it
    // before paying for a model call (an edge-side cache of open traces would not: a call paid
    // for on a sealed trace could not be recorded).
    const traceId = await trace(a);
    expect((await a.post('/api/v1/executions', { trace_id: traceId, input: 'hello' })).status).toBe(200);
    const completed = await b.patch(`/api/v1/traces/${traceId}/complete`, {});
    expect(completed.status).toBe(200);
    await mock.clearRequests();
    // A refuses at once, and never calls the model.
    const since = Date.now();
    let refused: { status: number; body: unknown } | undefined;
    while (Date.now() - since < 1_000) {
      const response = await a.post('/api/v1/executions', { trace_id: traceId, input: 'hello again' });
      if (response.status !== 200) {
        refused = response;
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(refused).toEqual(expect.objectContaining({ status: 422, body: { error: 'Trace is completed and accepts no new executions' } }));
    expect(Date.now() - since).toBeLessThan(1_000);
    expect((await mock.requests()).filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(0);
  }, 30_000);
});

describe('rolling-hour rate limit across two edges (scaled window)', () => {
  const WINDOW_MS = 20_000;
  const redis = new RedisProcess();
  const mock = new MockProviderProcess(root);
  let stack: ProductionStack;
  let fixture: GatewayFixture;
  let edgeB: RunningApp;

  beforeAll(async () => {
    await redis.start();
    await mock.start();
    // The loop guard is widened so only the hourly limit (1,000 per window) is under test.
    const limits = { RATE_LIMIT_WINDOW_MS: String(WINDOW_MS), LOOP_GUARD_MAX_REQUESTS: '100000' };
    stack = new ProductionStack({
      root,
      apps: ['edge', 'control-plane'],
      databasePrefix: 'gw_it_ratelimit',
      redisUrl: redis.url,
      extraEnv: { 'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password }, edge: limits },
    });
    await stack.startAll();
    edgeB = await stack.startReplica('edge');
    fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
  }, 180_000);

  afterAll(async () => {
    await stack?.stopAll();
    await mock.stop();
    await redis.stop();
  }, 60_000);

  async function burst(clients: TestHttpClient[], count: number): Promise<{ ok: number; limited: number; sample: any }> {
    let ok = 0;
    let limited = 0;
    let sample: any;
    let next = 0;
    const worker = async () => {
      while (next < count) {
        const i = next++;
        const response = await clients[i % clients.length].get('/api/v1/sdk/config');
        if (response.status === 200) ok++;
        else if (response.status === 429) {
          limited++;
          sample = { body: response.body, retryAfter: response.headers.get('retry-after'), limit: response.headers.get('x-ratelimit-limit'), remaining: response.headers.get('x-ratelimit-remaining') };
        } else throw new Error(`unexpected ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    return { ok, limited, sample };
  }

  it('admits exactly 1,000 per rolling window, freeing slots as the oldest requests age out', async () => {
    const project = await fixture.project({ models: [{ identifier: 'm', base_url: `${mock.baseUrl}/v1` }] });
    const clients = [project.api, new TestHttpClient(`http://127.0.0.1:${edgeB.port}`).withBearer(project.rawKey)];

    const phaseA = await burst(clients, 600);
    const aEnded = Date.now();
    expect(phaseA).toMatchObject({ ok: 600, limited: 0 });
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS / 2 - (Date.now() - aEnded)));
    const bStarted = Date.now();
    const phaseB = await burst(clients, 500);
    expect(phaseB.ok).toBe(400);
    expect(phaseB.limited).toBe(100);
    expect(phaseB.sample.body).toEqual({ error: 'Rate limit exceeded' });
    expect(Number(phaseB.sample.retryAfter)).toBeGreaterThan(0);
    expect(phaseB.sample.limit).toBe('1000');
    expect(phaseB.sample.remaining).toBe('0');

    // Past A's window but inside B's: exactly A's 600 slots are free again, not a fresh 1,000.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, aEnded + WINDOW_MS + 500 - Date.now())));
    const phaseC = await burst(clients, 700);
    expect(Date.now()).toBeLessThan(bStarted + WINDOW_MS);
    expect(phaseC.ok).toBe(600);
    expect(phaseC.limited).toBe(100);
  }, 90_000);
});

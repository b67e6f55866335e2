import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { eventually, GatewayFixture, MockProviderProcess, ProductionStack, type ModelFixture, type ProjectFixture, type TestHttpClient } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@replay.test', password: 'replay-password-123' };
const TRACE_NOT_OWNED = 'Trace not found or not owned by this customer';

/**
 * Issue 8, replay: POST /replay validation, the JetStream work queue, each replay path
 * (force_model, compare_models, force_models fan-out, max_cost), the 1-hour cache, and a worker
 * killed mid-job whose job another worker finishes once. Production processes throughout.
 */
describe('replay (production mode)', () => {
  const mock = new MockProviderProcess(root);
  let stack: ProductionStack;
  let project: ProjectFixture;
  let api: TestHttpClient;

  const model = (identifier: string, input: number, output: number, infrastructure: string): ModelFixture => ({
    identifier, provider: 'openai', base_url: `${mock.baseUrl}/v1`, input_cost_per_1k: input, output_cost_per_1k: output, additional_config: { infrastructure },
  });

  beforeAll(async () => {
    await mock.start();
    stack = new ProductionStack({
      root,
      apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy', 'replay-worker'],
      databasePrefix: 'gw_it_replay',
      logLevel: process.env.IT_LOG_LEVEL ?? 'warn',
      extraEnv: {
        'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
        'replay-worker': { REPLAY_REDIS_PREFIX: `replay-it-${randomUUID()}`, REPLAY_ACK_WAIT_MS: '4000', REPLAY_LEASE_MS: '2000', REPLAY_WORKER_CONCURRENCY: '1' },
      },
    });
    await stack.startAll();
    const fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
    project = await fixture.project({
      models: [model('smart', 0.01, 0.03, 'cloud-b'), model('fast', 0.0005, 0.0015, 'cloud-a'), model('other', 0.002, 0.004, 'cloud-c')],
      settings: { routing_tiers: { simple: 'smart', complex: 'smart' } },
      // Polling job status is bursty traffic by design; the loop guard is not what this tests.
      key: { loop_guard_exempt: true },
    });
    api = project.api;
  }, 240_000);

  afterAll(async () => {
    await stack?.stopAll();
    await mock.stop();
  }, 60_000);

  /** A completed trace with one execution (routed to smart) and one direct run per extra model. */
  async function sourceTrace(inputs: string[], runs: { model: string; input: string }[] = []): Promise<any> {
    const created = await api.post('/api/v1/traces', { revenue: 0.5 });
    expect(created.status).toBe(201);
    const id = created.body.id;
    for (const input of inputs) expect((await api.post('/api/v1/executions', { trace_id: id, input })).status).toBe(200);
    for (const run of runs) expect((await api.post('/api/v1/runs', { trace_id: id, model: run.model, input: run.input })).status).toBe(200);
    expect((await api.patch(`/api/v1/traces/${id}/complete`)).status).toBe(200);
    return (await api.get(`/api/v1/traces/${id}`)).body;
  }

  async function finished(jobId: string, timeoutMs = 30_000): Promise<any> {
    return eventually(async () => {
      const job = await api.get(`/api/v1/replay/${jobId}`);
      expect(job.status).toBe(200);
      return job.body.status === 'completed' || job.body.status === 'failed' ? job.body : undefined;
    }, timeoutMs, 250);
  }

  const side = (trace: any) => ({
    total_cost: trace.summary.total_cost,
    optimization_grade: trace.summary.optimization_grade,
    total_latency_ms: trace.summary.total_latency_ms,
    models_used: Object.keys(trace.summary.by_model).sort(),
    grades: trace.summary.grades,
  });

  it('validates the request: types (400), rules and foreign traces (422), unknown jobs (404)', async () => {
    const source = await sourceTrace(['What is the capital of Peru?']);
    expect((await api.post('/api/v1/replay', {})).status).toBe(400);
    expect((await api.post('/api/v1/replay', { trace_id: source.id, compare_models: 'fast' })).status).toBe(400);
    expect((await api.post('/api/v1/replay', { trace_id: source.id, max_cost: 'cheap' })).status).toBe(400);
    const both = await api.post('/api/v1/replay', { trace_id: source.id, force_model: 'fast', compare_models: ['other'] });
    expect(both.status).toBe(422);
    expect(both.body).toEqual({ error: 'force_model and compare_models are mutually exclusive' });
    const ghost = await api.post('/api/v1/replay', { trace_id: source.id, compare_models: ['fast', 'ghost'] });
    expect(ghost).toMatchObject({ status: 422, body: { error: 'Model not authorized or found: ghost' } });
    const foreign = await api.post('/api/v1/replay', { trace_id: randomUUID() });
    expect(foreign).toMatchObject({ status: 422, body: { error: TRACE_NOT_OWNED } });
    expect((await api.get(`/api/v1/replay/${randomUUID()}`)).status).toBe(404);
    expect((await api.get('/api/v1/replay/not-a-job')).status).toBe(404);
    expect((await new GatewayFixture(stack.edgeUrl, OWNER).dashboard.post('/api/v1/replay', { trace_id: source.id })).status).toBe(401);
  });

  it('replays every model call on force_model into a new trace, compares both, and answers the cached result within the hour', async () => {
    const source = await sourceTrace(['Summarize: the quarterly numbers went up.'], [{ model: 'smart', input: 'Name three colours.' }]);
    const accepted = await api.post('/api/v1/replay', { trace_id: source.id, force_model: 'fast' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ job_id: expect.any(String), status: 'queued' });
    const result = await finished(accepted.body.job_id);
    expect(result).toMatchObject({ job_id: accepted.body.job_id, status: 'completed', source_trace_id: source.id, overrides: { force_model: 'fast' } });

    const replayTrace = (await api.get(`/api/v1/traces/${result.replay_trace_id}`)).body;
    expect(replayTrace.metadata).toMatchObject({ replay_of: source.id, replay_job_id: accepted.body.job_id });
    const sourceRuns = source.steps.filter((s: any) => s.type === 'run');
    expect(replayTrace.steps.map((s: any) => [s.type, s.model, s.input])).toEqual(sourceRuns.map((s: any) => ['run', 'fast', s.input]));
    expect(result.comparison.source).toEqual(side(source));
    expect(result.comparison.replay).toEqual({ ...side(replayTrace), skipped_steps: [] });
    expect(result.comparison.replay.models_used).toEqual(['fast']);
    expect(result.comparison.replay.total_cost).toBeLessThan(result.comparison.source.total_cost);

    // Same trace and overrides: the completed result at once, no new job.
    const mockCalls = (await mock.requests()).length;
    const cached = await api.post('/api/v1/replay', { trace_id: source.id, force_model: 'fast' });
    expect(cached.status).toBe(200);
    expect(cached.body).toEqual(result);
    expect((await mock.requests()).length).toBe(mockCalls);
    // Other overrides are another job.
    const other = await api.post('/api/v1/replay', { trace_id: source.id, force_model: 'fast', max_cost: 5 });
    expect(other.status).toBe(202);
    expect(other.body.job_id).not.toBe(accepted.body.job_id);
    expect((await finished(other.body.job_id)).overrides).toEqual({ force_model: 'fast', max_cost: 5 });
  });

  it('benchmarks compare_models: one replay per model, in the order given', async () => {
    const source = await sourceTrace(['Write a haiku about rain.']);
    const accepted = await api.post('/api/v1/replay', { trace_id: source.id, compare_models: ['other', 'fast'] });
    expect(accepted.status).toBe(202);
    const result = await finished(accepted.body.job_id);
    expect(result.status).toBe('completed');
    expect(result.comparison.source).toEqual(side(source));
    expect(result.comparison.replays.map((r: any) => [r.model, r.models_used])).toEqual([['other', ['other']], ['fast', ['fast']]]);
    for (const replayed of result.comparison.replays) {
      const trace = (await api.get(`/api/v1/traces/${replayed.replay_trace_id}`)).body;
      expect(replayed).toEqual({ model: replayed.model, replay_trace_id: trace.id, ...side(trace), skipped_steps: [] });
    }
    expect(result.replay_trace_id).toBe(result.comparison.replays[0].replay_trace_id);
  });

  it('replaces a fan-out with force_models and skips calls over max_cost', async () => {
    const prompt = 'Classify the sentiment of: great product';
    const source = await sourceTrace([], [{ model: 'smart', input: prompt }, { model: 'fast', input: prompt }, { model: 'smart', input: 'Say hello in one word, please.' }]);
    const fanout = await finished((await api.post('/api/v1/replay', { trace_id: source.id, force_models: ['other', 'fast', 'smart'] })).body.job_id);
    const fanoutTrace = (await api.get(`/api/v1/traces/${fanout.replay_trace_id}`)).body;
    expect(fanoutTrace.steps.map((s: any) => [s.model, s.input])).toEqual([['other', prompt], ['fast', prompt], ['smart', prompt], ['smart', 'Say hello in one word, please.']]);

    // The smart calls cost more than this; the fast one less (estimates from the source tokens).
    const runs = source.steps.filter((s: any) => s.type === 'run');
    const estimate = (s: any, m: string) => (s.prompt_tokens / 1000) * { smart: 0.01, fast: 0.0005 }[m]! + (s.completion_tokens / 1000) * { smart: 0.03, fast: 0.0015 }[m]!;
    const maxCost = (estimate(runs[0], 'smart') + estimate(runs[1], 'fast')) / 2;
    expect(estimate(runs[1], 'fast')).toBeLessThan(maxCost);
    const before = (await mock.requests()).length;
    const capped = await finished((await api.post('/api/v1/replay', { trace_id: source.id, max_cost: maxCost })).body.job_id);
    expect(capped.comparison.replay.skipped_steps).toEqual([
      { source_step_id: runs[0].id, model: 'smart', estimated_cost: expect.closeTo(estimate(runs[0], 'smart'), 12) },
      { source_step_id: runs[2].id, model: 'smart', estimated_cost: expect.closeTo(estimate(runs[2], 'smart'), 12) },
    ]);
    const cappedTrace = (await api.get(`/api/v1/traces/${capped.replay_trace_id}`)).body;
    expect(cappedTrace.steps.map((s: any) => s.model)).toEqual(['fast']);
    expect((await mock.requests()).length - before).toBe(1);
  });

  it('finishes a job once when its worker is killed mid-call: another worker resumes it', async () => {
    const source = await sourceTrace(['Translate into French: good morning'], [{ model: 'smart', input: 'Translate into Spanish: thank you' }]);
    await mock.clearRequests();
    await mock.addBehavior({ model: 'other', latencyMs: 5_000, times: 1 });
    try {
      const accepted = await api.post('/api/v1/replay', { trace_id: source.id, force_model: 'other' });
      expect(accepted.status).toBe(202);
      const jobId = accepted.body.job_id;
      await eventually(async () => (await api.get(`/api/v1/replay/${jobId}`)).body.status === 'running', 10_000, 100);
      // The first call to `other` is held 5 s by the mock: the worker dies inside it.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await stack.kill('replay-worker');
      await stack.start('replay-worker');
      const result = await finished(jobId, 40_000);
      expect(result.status).toBe('completed');

      // One replay trace for the job, with each source call recorded once.
      const traces = (await api.get('/api/v1/traces?per_page=100')).body.data.filter((t: any) => t.metadata?.replay_job_id === jobId);
      expect(traces.map((t: any) => t.id)).toEqual([result.replay_trace_id]);
      const replayTrace = (await api.get(`/api/v1/traces/${result.replay_trace_id}`)).body;
      expect(replayTrace.steps.map((s: any) => [s.model, s.input])).toEqual([
        ['other', 'Translate into French: good morning'],
        ['other', 'Translate into Spanish: thank you'],
      ]);
      expect(result.comparison.replay).toEqual({ ...side(replayTrace), skipped_steps: [] });
    } finally {
      await mock.clearBehaviors();
    }
  }, 90_000);

  it('spreads jobs over several workers and runs each once', async () => {
    await stack.startReplica('replay-worker');
    try {
      const sources = await Promise.all(['Why is the sky blue?', 'How do tides work?', 'What is a prime number?', 'Who wrote Hamlet?'].map((q) => sourceTrace([q])));
      const jobs = await Promise.all(sources.map(async (s) => (await api.post('/api/v1/replay', { trace_id: s.id, compare_models: ['fast', 'other'] })).body.job_id as string));
      const results = await Promise.all(jobs.map((job) => finished(job, 60_000)));
      expect(results.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
      const all = (await api.get('/api/v1/traces?per_page=100')).body.data;
      for (const job of jobs) expect(all.filter((t: any) => t.metadata?.replay_job_id === job)).toHaveLength(2);
    } finally {
      await stack.stopReplicas();
    }
  }, 120_000);
});

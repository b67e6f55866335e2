import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { eventually, GatewayFixture, MockProviderProcess, ProductionStack, TestHttpClient, type ModelFixture, type ProjectFixture } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@insights.test', password: 'insights-password-123' };
const LATENCY_THRESHOLD_MS = 200;

/** R-7 percentile (linear interpolation between closest ranks), as insights computes it. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  return sorted[lower]! + (sorted[Math.ceil(rank)]! - sorted[lower]!) * (rank - lower);
}

/**
 * Issue 8, insights: traffic and replays through edge produce each insight type on the scheduled
 * run, with data computed independently here; dismissal holds until a figure changes materially.
 */
describe('insights (production mode)', () => {
  const mock = new MockProviderProcess(root);
  let stack: ProductionStack;
  let fixture: GatewayFixture;
  let project: ProjectFixture;
  const summaries: string[] = [];
  const replays: any[] = [];

  const model = (identifier: string, input: number, output: number): ModelFixture => ({ identifier, provider: 'openai', base_url: `${mock.baseUrl}/v1`, input_cost_per_1k: input, output_cost_per_1k: output });
  const base = () => `/api/v1/projects/${project.projectId}/insights`;

  beforeAll(async () => {
    await mock.start();
    stack = new ProductionStack({
      root,
      apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy', 'insights', 'replay-worker'],
      databasePrefix: 'gw_it_insights',
      extraEnv: {
        'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
        ledger: { OUTBOX_POLL_MS: '50' },
        insights: {
          INSIGHTS_REFRESH_INTERVAL_MS: '1500',
          INSIGHTS_MIN_COMPARISONS: '2',
          INSIGHTS_LATENCY_P99_MS: String(LATENCY_THRESHOLD_MS),
          INSIGHTS_LATENCY_MIN_SAMPLES: '3',
          INSIGHTS_INTENT_SHARE_PCT: '50',
          INSIGHTS_INTENT_MIN_SAMPLES: '3',
          INSIGHTS_MATERIAL_CHANGE_PCT: '25',
        },
        'replay-worker': { REPLAY_REDIS_PREFIX: `replay-it-${randomUUID()}` },
      },
    });
    await stack.startAll();
    fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
    project = await fixture.project({
      models: [model('smart', 0.01, 0.03), model('fast', 0.0005, 0.0015)],
      settings: { routing_tiers: { simple: 'smart', complex: 'smart' } },
      key: { loop_guard_exempt: true },
    });

    // Summaries dominate the traffic, all on the expensive model, two of them slow.
    await mock.addBehavior({ model: 'smart', latencyMs: 400, times: 2 });
    for (const text of ['the quarterly numbers went up', 'the team shipped the release', 'the outage lasted an hour', 'the budget was approved']) summaries.push(await completedTrace(`Summarize this: ${text}.`));
    await completedTrace('What is the capital of Peru?');
    // Replays of two summaries on the cheap model: the evidence for a migration.
    for (const id of summaries.slice(0, 2)) {
      const accepted = await project.api.post('/api/v1/replay', { trace_id: id, force_model: 'fast' });
      expect(accepted.status).toBe(202);
      replays.push(await eventually(async () => {
        const job = (await project.api.get(`/api/v1/replay/${accepted.body.job_id}`)).body;
        return job.status === 'completed' ? job : undefined;
      }, 30_000, 300));
    }
  }, 300_000);

  afterAll(async () => {
    await stack?.stopAll();
    await mock.stop();
  }, 60_000);

  async function completedTrace(input: string): Promise<string> {
    const created = await project.api.post('/api/v1/traces', {});
    const id = created.body.id;
    expect((await project.api.post('/api/v1/executions', { trace_id: id, input })).status).toBe(200);
    expect((await project.api.patch(`/api/v1/traces/${id}/complete`)).status).toBe(200);
    return id;
  }

  async function runSteps(ids: string[]): Promise<any[]> {
    const traces = await Promise.all(ids.map(async (id) => (await project.api.get(`/api/v1/traces/${id}`)).body));
    return traces.flatMap((t) => t.steps.filter((s: any) => s.type === 'run'));
  }

  const byType = (list: any[], type: string) => list.find((insight) => insight.insight_type === type);

  it('produces each insight type on the scheduled run, with the figures of the traffic', async () => {
    const list = await eventually(async () => {
      const response = await fixture.dashboard.get(base());
      expect(response.status).toBe(200);
      const types = response.body.map((i: any) => i.insight_type).sort();
      return types.join() === 'intent_pattern,latency_alert,migration_alert' ? response.body : undefined;
    }, 30_000, 500);
    for (const insight of list) expect(insight).toMatchObject({ id: expect.any(Number), status: 'active', created_at: expect.any(String), estimated_savings_usd: expect.any(Number) });

    const summaryRuns = await runSteps(summaries);
    const allRuns = summaryRuns.length + 1;
    const currentCost = summaryRuns.reduce((sum, s) => sum + s.cost, 0);
    const sourceCost = replays.reduce((sum, r) => sum + r.comparison.source.total_cost, 0);
    const replayCost = replays.reduce((sum, r) => sum + r.comparison.replay.total_cost, 0);
    const savingsPct = (1 - replayCost / sourceCost) * 100;

    const migration = byType(list, 'migration_alert');
    expect(migration.data).toMatchObject({ intent: 'summarization', current_model: 'smart', suggested_model: 'fast', comparisons: 2, equivalent_comparisons: 2, sample_count: summaryRuns.length });
    expect(migration.data.savings_pct).toBeCloseTo(savingsPct, 3);
    expect(migration.data.current_cost_usd).toBeCloseTo(currentCost, 9);
    expect(migration.estimated_savings_usd).toBeCloseTo(currentCost * (migration.data.savings_pct / 100) * (720 / migration.data.observed_hours), 6);
    expect(migration.estimated_savings_usd).toBeGreaterThan(0);

    const latency = byType(list, 'latency_alert');
    const latencies = summaryRuns.map((s) => s.latency_ms);
    expect(latency.data).toMatchObject({ intent: 'summarization', threshold_ms: LATENCY_THRESHOLD_MS, sample_count: summaryRuns.length, slowest_model: 'smart' });
    expect(latency.data.p99_latency_ms).toBeCloseTo(percentile(latencies, 99), 2);
    expect(latency.data.p99_latency_ms).toBeGreaterThan(LATENCY_THRESHOLD_MS);
    expect(latency.estimated_savings_usd).toBe(0);

    const pattern = byType(list, 'intent_pattern');
    expect(pattern.data).toMatchObject({ intent: 'summarization', request_count: summaryRuns.length, total_requests: allRuns, models: ['smart'], suggested_model: 'fast', suggested_rule: { intent_routes: { summarization: 'fast' } } });
    expect(pattern.data.share_pct).toBeCloseTo((summaryRuns.length / allRuns) * 100, 3);
    expect(pattern.estimated_savings_usd).toBeCloseTo(migration.estimated_savings_usd, 9);
  });

  it('needs a session that sees the project', async () => {
    expect((await project.api.get(base())).status).toBe(401);
    expect((await new TestHttpClient(stack.edgeUrl).post(`${base()}/refresh`)).status).toBe(401);
    expect((await fixture.dashboard.get('/api/v1/projects/999999999999/insights')).status).toBe(404);
    expect((await fixture.dashboard.patch(`${base()}/999999999/dismiss`)).status).toBe(404);
  });

  it('keeps dismissed insights away until their figures change materially', async () => {
    const list = (await fixture.dashboard.get(base())).body;
    for (const insight of list) {
      const dismissed = await fixture.dashboard.patch(`${base()}/${insight.id}/dismiss`);
      expect(dismissed.status).toBe(200);
      expect(dismissed.body).toMatchObject({ id: insight.id, insight_type: insight.insight_type, status: 'dismissed' });
    }
    const refreshed = await fixture.dashboard.post(`${base()}/refresh`);
    expect(refreshed.status).toBe(202);
    expect(refreshed.body).toEqual({ computed: 0 });
    expect((await fixture.dashboard.get(base())).body).toEqual([]);

    // One much slower summary: p99 moves far (latency_alert is back, a new insight); the share
    // of summaries moves a little (intent_pattern stays dismissed); no new replay (migration stays).
    await mock.addBehavior({ model: 'smart', latencyMs: 1_500, times: 1 });
    const slow = await completedTrace('Summarize this: the migration finished late.');
    const runs = await runSteps([...summaries, slow]);
    await eventually(async () => {
      const response = await fixture.dashboard.post(`${base()}/refresh`);
      expect(response.status).toBe(202);
      const active = (await fixture.dashboard.get(base())).body;
      return active.length === 1 && active[0].data.sample_count === runs.length ? active : undefined;
    }, 20_000, 500).then((active) => {
      const [latency] = active;
      expect(latency.insight_type).toBe('latency_alert');
      expect(list.map((i: any) => i.id)).not.toContain(latency.id);
      expect(latency.data.p99_latency_ms).toBeCloseTo(percentile(runs.map((s) => s.latency_ms), 99), 2);
    });
  }, 60_000);
});

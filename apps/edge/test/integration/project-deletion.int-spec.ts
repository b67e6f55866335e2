import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { encodeEvent, JetStreamEventBus } from '@gateway/bus';
import { createLogger } from '@gateway/logging';
import { events, Subjects } from '@gateway/proto';
import { eventually, GatewayFixture, MockProviderProcess, ProductionStack, type ProjectFixture } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@deletion.test', password: 'deletion-password-123' };

const TABLES = {
  ledger: ['traces', 'steps', 'shadow_results'],
  analytics: ['trace_facts', 'step_facts', 'step_rollups', 'latency_rollups', 'trace_rollups', 'chain_depth_rollups', 'loop_interventions', 'model_baselines'],
  insights: ['trace_intents', 'step_observations', 'replay_comparisons', 'insights'],
} as const;
type Service = keyof typeof TABLES;
/** Tables the traffic below fills (no shadow scoring, loop halt or replay here). */
const FILLED: Record<Service, string[]> = {
  ledger: ['traces', 'steps'],
  analytics: ['trace_facts', 'step_facts', 'step_rollups', 'latency_rollups', 'trace_rollups', 'chain_depth_rollups', 'model_baselines'],
  insights: ['trace_intents', 'step_observations', 'insights'],
};
type Counts = Record<Service, Record<string, number>>;

/**
 * Issue 3, project deletion in production mode: DELETE /api/v1/projects/:id removes the project's
 * data from the ledger, analytics and insights (each learns it from project.changed and checks
 * with control-plane), the other project's data stays, a forged deletion of a live project
 * deletes nothing, and late events of the deleted project bring nothing back.
 */
describe('project deletion everywhere (production mode)', () => {
  const mock = new MockProviderProcess(root);
  let stack: ProductionStack;
  let bus: JetStreamEventBus;
  const databases = {} as Record<Service, pg.Client>;
  let fixture: GatewayFixture;
  let gone: ProjectFixture;
  let kept: ProjectFixture;

  beforeAll(async () => {
    await mock.start();
    stack = new ProductionStack({
      root,
      apps: ['edge', 'control-plane', 'ledger', 'guardrail', 'router', 'provider-proxy', 'analytics', 'insights'],
      databasePrefix: 'gw_it_deletion',
      extraEnv: {
        'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
        ledger: { OUTBOX_POLL_MS: '50' },
        insights: { INSIGHTS_REFRESH_INTERVAL_MS: '0', INSIGHTS_INTENT_SHARE_PCT: '50', INSIGHTS_INTENT_MIN_SAMPLES: '2' },
      },
    });
    await stack.startAll();
    for (const service of ['ledger', 'analytics', 'insights'] as const) {
      databases[service] = new pg.Client({ connectionString: stack.apps.get(service)!.env.DATABASE_URL });
      await databases[service].connect();
    }
    bus = await JetStreamEventBus.connectGateway({ servers: 'nats://127.0.0.1:4222', logger: createLogger({ service: 'deletion-it', level: 'silent' }), name: 'deletion-it' });

    fixture = new GatewayFixture(stack.edgeUrl, OWNER);
    await fixture.login();
    const options = {
      models: [{ identifier: 'smart', provider: 'openai', base_url: `${mock.baseUrl}/v1`, input_cost_per_1k: 0.01, output_cost_per_1k: 0.03 }],
      settings: { routing_tiers: { simple: 'smart', complex: 'smart' } },
    };
    gone = await fixture.project(options);
    kept = await fixture.project(options);
    for (const project of [gone, kept]) {
      for (const text of ['the quarterly numbers went up', 'the team shipped the release', 'the budget was approved']) {
        const trace = await project.api.post('/api/v1/traces', { revenue: 1 });
        expect(trace.status).toBe(201);
        expect((await project.api.post('/api/v1/executions', { trace_id: trace.body.id, input: `Summarize this: ${text}.` })).status).toBe(200);
        expect((await project.api.patch(`/api/v1/traces/${trace.body.id}/complete`)).status).toBe(200);
      }
    }
  }, 300_000);

  afterAll(async () => {
    await bus?.close();
    for (const client of Object.values(databases)) await client.end();
    await stack?.stopAll();
    await mock.stop();
  }, 60_000);

  async function counts(projectId: number): Promise<Counts> {
    const result = {} as Counts;
    for (const service of Object.keys(TABLES) as Service[]) {
      result[service] = {};
      for (const table of TABLES[service]) {
        const { rows } = await databases[service].query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE project_id = $1`, [projectId]);
        result[service][table] = Number(rows[0]!.n);
      }
    }
    return result;
  }
  const filled = (found: Counts) => (Object.keys(FILLED) as Service[]).every((service) => FILLED[service].every((table) => found[service][table] > 0));
  const nothing = Object.fromEntries(Object.entries(TABLES).map(([service, tables]) => [service, Object.fromEntries(tables.map((table) => [table, 0]))])) as Counts;
  const empty = (found: Counts) => (Object.keys(TABLES) as Service[]).every((service) => TABLES[service].every((table) => found[service][table] === 0));

  async function publish(event: { subject: string; eventId: string; data: Uint8Array; headers: Record<string, string> }): Promise<void> {
    await bus.publish(event.subject, event.data, { eventId: event.eventId, headers: event.headers });
  }
  const traceCreated = (projectId: number, traceId: string, at: Date) =>
    publish(encodeEvent(Subjects.traceCreated, events.TraceCreated, { traceId, projectId, status: 'pending', revenue: 1, createdAt: at.toISOString(), meta: { occurredAt: at.toISOString() } }));

  it('deletes the project and its data in the ledger, analytics and insights, and nothing of the other project', async () => {
    // Both projects' traffic reached every service, and insights computed an insight for each.
    await eventually(async () => (await Promise.all([counts(gone.projectId), counts(kept.projectId)])).every((found) => found.insights.step_observations === 3), 30_000, 200);
    for (const project of [gone, kept]) {
      const refreshed = await fixture.dashboard.post(`/api/v1/projects/${project.projectId}/insights/refresh`);
      expect(refreshed.status).toBe(202);
    }
    await eventually(async () => filled(await counts(gone.projectId)) && filled(await counts(kept.projectId)), 30_000, 200);
    const keptBefore = await counts(kept.projectId);

    // A forged deletion of the live project (e.g. another deployment sharing the NATS server):
    // control-plane still has it, so every service keeps its data.
    await publish(encodeEvent(Subjects.projectChanged, events.ProjectChanged, { projectId: kept.projectId, organizationId: 1, change: 'deleted' }));

    const deleted = await fixture.dashboard.delete(`/api/v1/projects/${gone.projectId}`);
    expect(deleted.status).toBe(204);
    expect((await fixture.dashboard.get(`/api/v1/projects/${gone.projectId}`)).status).toBe(404);
    // Its key stops working once edge hears of the change (a read: nothing is written for the gone project).
    await eventually(async () => (await gone.api.get('/api/v1/stats')).status === 401, 5_000, 50);

    // Each service's deletion consumer handles events in order: once the real deletion is done,
    // the forged one before it was handled too.
    await eventually(async () => empty(await counts(gone.projectId)), 30_000, 200).catch(() => undefined);
    expect(await counts(gone.projectId)).toEqual(nothing);
    expect(await counts(kept.projectId)).toEqual(keptBefore);
  });

  it('does not bring the deleted project back from late events', async () => {
    // A trace event of the deleted project that happened before its deletion (a slow outbox, a
    // redelivery), then a marker for the live project on the same consumers.
    const before = new Date(Date.now() - 10 * 60_000);
    await traceCreated(gone.projectId, randomUUID(), before);
    const marker = randomUUID();
    await traceCreated(kept.projectId, marker, new Date());
    await eventually(async () => (await databases.analytics.query('SELECT 1 FROM trace_facts WHERE trace_id = $1', [marker])).rowCount === 1, 20_000, 200);
    expect(await counts(gone.projectId)).toEqual(nothing);
  });
});

import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { checkGrpcHealth } from '@gateway/grpc';
import { eventually, GRPC_APPS, ProductionStack, TestHttpClient } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@slice.test', password: 'slice-password-123' };

/**
 * The foundation's vertical slice, in production mode (one process per app from dist/, real
 * PostgreSQL, NATS): bootstrap owner → session → project → key → trace → read back → the
 * ledger's outbox publishes → analytics consumes into its own database.
 */
describe('vertical slice (production mode)', () => {
  const stack = new ProductionStack({
    root,
    databasePrefix: 'gw_it_slice',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
    },
  });
  let dashboard: TestHttpClient;

  beforeAll(async () => {
    await stack.startAll();
    dashboard = new TestHttpClient(stack.edgeUrl);
    const login = await dashboard.post('/api/v1/session', OWNER);
    expect(login.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await stack.stopAll();
  }, 60_000);

  async function projectWithKey(name: string): Promise<{ projectId: number; rawKey: string }> {
    const project = await dashboard.post('/api/v1/projects', { project: { name, description: 'slice' } });
    expect(project.status).toBe(201);
    const key = await dashboard.post('/api/v1/keys', { name: `${name} key`, project_id: project.body.id });
    expect(key.status).toBe(201);
    return { projectId: project.body.id, rawKey: key.body.raw_key };
  }

  it('answers /up and every gRPC service is SERVING on grpc.health.v1', async () => {
    const up = await dashboard.get('/up');
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ status: 'ok', version: expect.any(String) });
    for (const app of GRPC_APPS) await expect(checkGrpcHealth(stack.address(app))).resolves.toBe('SERVING');
  });

  it('runs session → project → key → trace → read back, and analytics receives the trace event', async () => {
    const session = await dashboard.get('/api/v1/session');
    expect(session.body.user).toMatchObject({ email: OWNER.email, role: 'owner' });

    const { projectId, rawKey } = await projectWithKey(`slice-${randomUUID().slice(0, 8)}`);
    expect(rawKey).toMatch(/^ak_[0-9a-f]+\.[A-Za-z0-9_-]{43}$/);
    const api = new TestHttpClient(stack.edgeUrl).withBearer(rawKey);
    const created = await api.post('/api/v1/traces', { metadata: { user: 'u-1' }, revenue: 0.5 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', metadata: { user: 'u-1' }, revenue: 0.5 });

    const fetched = await api.get(`/api/v1/traces/${created.body.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({ id: created.body.id, status: 'pending', steps: [], summary: { step_count: 0, total_cost: 0 } });

    const analytics = new pg.Client({ connectionString: stack.apps.get('analytics')!.env.DATABASE_URL });
    await analytics.connect();
    try {
      const row = await eventually(async () => {
        const { rows } = await analytics.query('SELECT project_id, status, revenue FROM trace_facts WHERE trace_id = $1', [created.body.id]);
        return rows[0];
      });
      expect(Number(row.project_id)).toBe(projectId);
      expect(row).toMatchObject({ status: 'pending', revenue: 0.5 });
    } finally {
      await analytics.end();
    }
  });

  it("refuses another project's trace with 404 and a missing or wrong key with 401", async () => {
    const a = await projectWithKey(`a-${randomUUID().slice(0, 8)}`);
    const b = await projectWithKey(`b-${randomUUID().slice(0, 8)}`);
    const traceOfB = await new TestHttpClient(stack.edgeUrl).withBearer(b.rawKey).post('/api/v1/traces', {});
    const asA = await new TestHttpClient(stack.edgeUrl).withBearer(a.rawKey).get(`/api/v1/traces/${traceOfB.body.id}`);
    expect(asA.status).toBe(404);
    expect(asA.body).toEqual({ error: 'Not found' });

    const anonymous = await new TestHttpClient(stack.edgeUrl).post('/api/v1/traces', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'Unauthorized' });
    const wrongSecret = await new TestHttpClient(stack.edgeUrl).withBearer(`${a.rawKey.split('.')[0]}.wrong`).post('/api/v1/traces', {});
    expect(wrongSecret.status).toBe(401);
  });

  it('validates input with the spec shapes', async () => {
    const { rawKey } = await projectWithKey(`v-${randomUUID().slice(0, 8)}`);
    const api = new TestHttpClient(stack.edgeUrl).withBearer(rawKey);
    const badMetadata = await api.post('/api/v1/traces', { metadata: ['not', 'an', 'object'] });
    expect(badMetadata.status).toBe(422);
    const malformed = await api.request('POST', '/api/v1/traces', '{"metadata":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.any(String) });
    const blank = await dashboard.post('/api/v1/projects', { project: { name: '  ' } });
    expect(blank.status).toBe(422);
    expect(blank.body).toEqual({ errors: ["Name can't be blank"] });
    const unknown = await dashboard.get('/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Not found' });
  });
});

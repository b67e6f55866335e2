import { join } from 'node:path';
import pg from 'pg';
import { eventually, ProductionStack, TestHttpClient } from '@gateway/testing';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@outbox.test', password: 'outbox-password-123' };

/**
 * Done-when of the foundation: the ledger commits a trace, dies before publishing its event
 * (SIGKILL), restarts, and analytics still receives the event exactly once.
 */
describe('ledger outbox survives a crash between commit and publish', () => {
  const stack = new ProductionStack({
    root,
    apps: ['edge', 'control-plane', 'ledger', 'analytics'],
    databasePrefix: 'gw_it_outbox',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
      ledger: { LEDGER_OUTBOX_PAUSED: 'true' },
    },
  });

  beforeAll(() => stack.startAll(), 120_000);
  afterAll(() => stack.stopAll(), 60_000);

  it('delivers the committed trace event once after the ledger restarts', async () => {
    const dashboard = new TestHttpClient(stack.edgeUrl);
    expect((await dashboard.post('/api/v1/session', OWNER)).status).toBe(201);
    const project = await dashboard.post('/api/v1/projects', { project: { name: `outbox-${Date.now()}` } });
    const key = await dashboard.post('/api/v1/keys', { name: 'outbox', project_id: project.body.id });
    const api = new TestHttpClient(stack.edgeUrl).withBearer(key.body.raw_key);
    const trace = await api.post('/api/v1/traces', { metadata: { case: 'crash' } });
    expect(trace.status).toBe(201);

    const ledgerDb = new pg.Client({ connectionString: stack.apps.get('ledger')!.env.DATABASE_URL });
    const analyticsDb = new pg.Client({ connectionString: stack.apps.get('analytics')!.env.DATABASE_URL });
    await ledgerDb.connect();
    await analyticsDb.connect();
    try {
      // Committed in the ledger, its event still unpublished in the outbox.
      const { rows: pending } = await ledgerDb.query(
        "SELECT event_id::text AS event_id FROM outbox_events WHERE subject = 'gateway.v1.trace.created' AND published_at IS NULL AND created_at > now() - interval '1 minute'",
      );
      expect(pending.length).toBeGreaterThanOrEqual(1);
      await stack.kill('ledger');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = await analyticsDb.query('SELECT 1 FROM trace_facts WHERE trace_id = $1', [trace.body.id]);
      expect(before.rowCount).toBe(0);

      await stack.start('ledger', { LEDGER_OUTBOX_PAUSED: 'false' });
      await eventually(async () => (await analyticsDb.query('SELECT 1 FROM trace_facts WHERE trace_id = $1', [trace.body.id])).rowCount === 1);

      // Exactly once: one processed row per event, and publishing the same event ids again changes nothing.
      const eventIds = pending.map((row) => row.event_id);
      // Every pending event arrives (not only this trace's): wait for all of them, then exactly one row each.
      await eventually(async () => (await analyticsDb.query('SELECT count(*)::int AS n FROM processed_events WHERE event_id = ANY($1)', [eventIds])).rows[0].n >= eventIds.length);
      const processed = await analyticsDb.query('SELECT count(*)::int AS n FROM processed_events WHERE event_id = ANY($1)', [eventIds]);
      expect(processed.rows[0].n).toBe(eventIds.length);
      await ledgerDb.query('UPDATE outbox_events SET published_at = NULL WHERE event_id = ANY($1::uuid[])', [eventIds]);
      await eventually(async () => (await ledgerDb.query('SELECT 1 FROM outbox_events WHERE event_id = ANY($1::uuid[]) AND published_at IS NULL', [eventIds])).rowCount === 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const facts = await analyticsDb.query('SELECT count(*)::int AS n FROM trace_facts WHERE trace_id = $1', [trace.body.id]);
      expect(facts.rows[0].n).toBe(1);
      const again = await analyticsDb.query('SELECT count(*)::int AS n FROM processed_events WHERE event_id = ANY($1)', [eventIds]);
      expect(again.rows[0].n).toBe(eventIds.length);
    } finally {
      await ledgerDb.end();
      await analyticsDb.end();
    }
  });
});

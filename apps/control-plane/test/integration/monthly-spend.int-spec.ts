import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { connect } from 'nats';
import { InProcessEventBus, JetStreamEventBus, type EventBus } from '@gateway/bus';
import { ensureDatabase, runMigrations } from '@gateway/db';
import { createLogger } from '@gateway/logging';
import { events } from '@gateway/proto';
import { createControlPlaneDatabase, type ControlPlaneDatabase } from '../../src/database';
import { RecordSpendUseCase, type StepCost } from '../../src/spend/record-spend.usecase';
import { stepRecordedHandler } from '../../src/spend/step-recorded.handler';

const postgresUrl = process.env.POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const migrationsDir = join(__dirname, '../../prisma/migrations');
const logger = createLogger({ service: 'cp-spend-it', level: 'silent' });

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met in time (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The monthly spend consumer on real PostgreSQL: one statement per batch of step.recorded events,
 * in the public schema (production) and in a schema of its own (the embedded default), and fed by
 * both bus adapters.
 */
describe.each(['public', 'control'])('monthly spend (schema %s)', (schema) => {
  let database: ControlPlaneDatabase;
  let spend: RecordSpendUseCase;
  let organizationId: string;
  const table = (name: string) => `"${schema}".${name}`;

  beforeAll(async () => {
    const url = await ensureDatabase(postgresUrl, `gw_it_cp_spend_${schema}`, { fresh: true });
    await runMigrations({ url, schema, migrationsDir });
    database = createControlPlaneDatabase({ url, schema, poolMax: 4, onPoolError: () => undefined });
    spend = new RecordSpendUseCase(database.db, database.pool, schema);
    organizationId = (await database.pool.query<{ id: string }>(`INSERT INTO ${table('organizations')} (name) VALUES ('Spend org') RETURNING id`)).rows[0].id;
  });

  afterAll(async () => {
    await database?.close();
  });

  async function project(): Promise<number> {
    const { rows } = await database.pool.query<{ id: string }>(`INSERT INTO ${table('projects')} (organization_id, name) VALUES ($1, $2) RETURNING id`, [organizationId, `p-${randomUUID()}`]);
    return Number(rows[0].id);
  }

  async function spendOf(projectId: number): Promise<Record<string, string>> {
    const { rows } = await database.pool.query<{ month: string; spend: string }>(`SELECT month, spend_usd::text AS spend FROM ${table('project_monthly_spend')} WHERE project_id = $1 ORDER BY month`, [projectId]);
    return Object.fromEntries(rows.map((row) => [row.month, row.spend]));
  }

  const step = (projectId: number, cost: number, createdAt = '2026-11-20T10:00:00.000Z', eventId: string = randomUUID()): StepCost => ({ eventId, projectId, cost, createdAt });

  it("adds a batch's costs per project and UTC month in one statement, exactly", async () => {
    const [a, b] = [await project(), await project()];
    const outcome = await spend.record([
      step(a, 0.1),
      step(a, 0.2),
      step(b, 1.5),
      // 23:30 on Oct 31 at UTC-2 is November in UTC.
      step(a, 0.7, '2026-10-31T23:30:00.000-02:00'),
      step(a, 5, '2026-10-15T00:00:00.000Z'),
    ]);
    expect(outcome).toEqual({ fresh: 5, applied: 5 });
    expect(await spendOf(a)).toEqual({ '2026-10': '5.000000000000', '2026-11': '1.000000000000' });
    expect(await spendOf(b)).toEqual({ '2026-11': '1.500000000000' });
  });

  it('counts an event id once: twice in one batch, redelivered, or in concurrent batches', async () => {
    const p = await project();
    const repeated = step(p, 0.25);
    expect(await spend.record([repeated, step(p, 0.5), repeated])).toEqual({ fresh: 2, applied: 2 });
    // The whole batch again (a redelivery after a lost ack).
    expect(await spend.record([repeated])).toEqual({ fresh: 0, applied: 0 });
    expect(await spendOf(p)).toEqual({ '2026-11': '0.750000000000' });

    // Two replicas handling overlapping batches at the same time.
    const shared = Array.from({ length: 20 }, () => step(p, 0.01));
    const own = [step(p, 1), step(p, 2)];
    const outcomes = await Promise.all([spend.record([...shared, own[0]]), spend.record([own[1], ...[...shared].reverse()])]);
    expect(outcomes[0].fresh + outcomes[1].fresh).toBe(22);
    expect(await spendOf(p)).toEqual({ '2026-11': String((0.75 + 0.2 + 3).toFixed(12)) });
  });

  it('remembers but adds nothing for unknown projects, zero or invalid costs', async () => {
    const p = await project();
    const unknown = step(987_654_321, 3);
    expect(await spend.record([unknown, step(p, 0), step(p, -1), step(p, Number.NaN), step(p, 0.4, 'not a date')])).toEqual({ fresh: 5, applied: 1 });
    const thisMonth = new Date().toISOString().slice(0, 7);
    expect(await spendOf(p)).toEqual({ [thisMonth]: '0.400000000000' });
    const { rows } = await database.pool.query(`SELECT 1 FROM ${table('processed_events')} WHERE event_id = $1`, [unknown.eventId]);
    expect(rows).toHaveLength(1);
    expect(await spend.record([])).toEqual({ fresh: 0, applied: 0 });
  });

  describe.each(['in-process', 'nats-jetstream'])('consumed from the %s bus', (adapter) => {
    let bus: EventBus;
    let subject: string;
    let teardown: () => Promise<void>;

    beforeEach(async () => {
      if (adapter === 'in-process') {
        const inProcess = new InProcessEventBus();
        bus = inProcess;
        subject = 'test.step.recorded';
        teardown = () => inProcess.close();
        return;
      }
      const id = randomBytes(4).toString('hex');
      const stream = `TEST_CP_SPEND_${id}`;
      subject = `cpspend.${id}.step.recorded`;
      const jetstream = await JetStreamEventBus.connect({ servers: natsUrl, stream, subjects: [`cpspend.${id}.>`], logger });
      bus = jetstream;
      teardown = async () => {
        await jetstream.close();
        const nc = await connect({ servers: natsUrl });
        await (await nc.jetstreamManager()).streams.delete(stream).catch(() => undefined);
        await nc.close();
      };
    });

    afterEach(async () => {
      await teardown();
    });

    it('applies published steps in batches, once per event id; a message that does not decode does not hold its batch back', async () => {
      const p = await project();
      const publish = async (cost: number, eventId = randomUUID(), transportId = eventId) => {
        const event = events.StepRecorded.fromPartial({ meta: { eventId, occurredAt: '', traceparent: '' }, projectId: p, cost, createdAt: '2026-11-20T10:00:00.000Z' });
        await bus.publish(subject, events.StepRecorded.encode(event).finish(), { eventId: transportId });
      };
      const duplicated = randomUUID();
      for (let i = 0; i < 40; i++) await publish(0.05);
      await publish(0.5, duplicated);
      // The same event republished under another transport id (after the de-duplication window).
      await publish(0.5, duplicated, randomUUID());
      await bus.publish(subject, new Uint8Array([0xff, 0xff, 0xff]), { eventId: `garbage-${randomUUID()}` });

      const handler = stepRecordedHandler(spend);
      const sizes: number[] = [];
      const options = { durable: `cp-spend-${randomBytes(3).toString('hex')}`, subject, maxBatch: 16, maxWaitMs: 50, maxDeliver: 2, retryDelayMs: 50 };
      const sub = await bus.subscribeBatch(options, async (messages) => {
        sizes.push(messages.length);
        return handler(messages);
      });
      try {
        const spent = await waitFor(() => spendOf(p), (current) => current['2026-11'] === '2.500000000000');
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(await spendOf(p)).toEqual(spent);
        const { rows } = await database.pool.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table('processed_events')} WHERE event_id = $1`, [duplicated]);
        expect(rows[0].count).toBe(1);
        expect(Math.max(...sizes)).toBe(16);
        // 43 messages, and the undecodable one once more.
        expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(44);
      } finally {
        await sub.stop();
      }
    });
  });
});

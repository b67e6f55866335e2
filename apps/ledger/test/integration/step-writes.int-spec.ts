import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { encodeEvent } from '@gateway/bus';
import { common, events, ledger, Subjects } from '@gateway/proto';
import type { Step as StepRow } from '../../src/generated/prisma/client';
import { DAY_MS, ledgerTables } from '../../src/ledger-tables';
import { LedgerSql } from '../../src/sql';
import { StepRepository, type StepWrite } from '../../src/steps/step.repository';
import { stepRow } from '../../src/traces/ledger-rows.fixture';
import { eventually } from '@gateway/testing';
import { LedgerTestStack, step } from './ledger-test-stack';

/**
 * RecordStep's hot path: concurrent calls share one statement (group commit) yet each gets the
 * outcome it would have had alone; the statements are prepared per connection and survive lost
 * connections.
 */
describe('ledger step writes (production mode)', () => {
  const it7 = new LedgerTestStack('ledger_step_writes');
  let projectId: number;
  let actor: common.Actor;

  beforeAll(async () => {
    await it7.start();
    ({ projectId, actor } = await it7.project('steps'));
  }, 120_000);
  afterAll(() => it7.stop(), 60_000);

  const newTrace = async (as = { projectId, actor }) => (await it7.ledger.createTrace({ actor: as.actor, projectId: as.projectId, metadata: {}, status: 'pending', sourceTraceId: '' })).id;
  const record = (traceId: string, fields: Partial<ledger.RecordStepRequest>) => it7.ledger.recordStep(step(projectId, actor, traceId, fields));

  it('gives each of many concurrent calls its own outcome, as if they had run one by one', async () => {
    const open = await newTrace();
    const routed = await newTrace();
    const sealed = await newTrace();
    await record(sealed, { type: 'run', model: 'mini' });
    await it7.ledger.completeTrace({ actor, projectId, traceId: sealed });
    const other = await it7.project('steps-other');
    const foreign = await newTrace(other);
    const parent = await record(open, { type: 'run', model: 'mini' });
    const elsewhere = await record(routed, { type: 'log' });

    const calls: { expect: 'ok' | 'same' | 'conflict' | 'not-owned' | 'bad-parent'; traceId: string; call: Promise<ledger.Step> }[] = [];
    const add = (expected: (typeof calls)[number]['expect'], traceId: string, fields: Partial<ledger.RecordStepRequest>) => calls.push({ expect: expected, traceId, call: record(traceId, fields) });
    for (let i = 0; i < 24; i++) add('ok', open, { type: 'tool_call', model: 'mini', parentStepId: parent.id, input: `call ${i}`, idempotencyKey: `k-${i}` });
    for (let i = 0; i < 4; i++) add('same', open, { type: 'run', model: 'mini', input: `retry ${i}`, idempotencyKey: 'one-key' });
    add('ok', routed, { type: 'run', model: 'large', tier: 'complex' });
    for (let i = 0; i < 3; i++) add('ok', routed, { type: 'check', retentionDays: 90 - i });
    for (let i = 0; i < 3; i++) add('conflict', sealed, { type: 'run', model: 'mini' });
    add('ok', sealed, { type: 'log', output: { user_rating: 5 } });
    for (let i = 0; i < 3; i++) add('not-owned', foreign, { type: 'run', model: 'mini' });
    for (let i = 0; i < 3; i++) add('bad-parent', open, { type: 'run', model: 'mini', parentStepId: elsewhere.id });
    const settled = await Promise.allSettled(calls.map((c) => c.call));

    const sameIds = new Set<number>();
    settled.forEach((result, index) => {
      const { expect: expected, traceId } = calls[index];
      if (expected === 'ok' || expected === 'same') {
        expect(result).toMatchObject({ status: 'fulfilled', value: { traceId } });
        if (expected === 'same') sameIds.add((result as PromiseFulfilledResult<ledger.Step>).value.id);
      } else {
        const error = { conflict: { code: 'CONFLICT', message: 'Trace already completed' }, 'not-owned': { code: 'VALIDATION_FAILED', message: 'Trace not found or not owned by this customer' }, 'bad-parent': { code: 'VALIDATION_FAILED', message: 'parent_step_id does not belong to this trace' } }[expected];
        expect(result).toMatchObject({ status: 'rejected', reason: error });
      }
    });
    expect(sameIds.size).toBe(1);

    const count = async (traceId: string) => (await it7.sql<{ n: number }>('SELECT count(*)::int AS n FROM steps WHERE trace_id = $1', [traceId]))[0].n;
    expect(await count(open)).toBe(1 + 24 + 1);
    expect(await count(routed)).toBe(1 + 4);
    expect(await count(sealed)).toBe(2);
    expect(await count(foreign)).toBe(0);
    // One step.recorded event per step, never one for a step that was not written.
    const [events] = await it7.sql<{ steps: number; events: number }>(
      "SELECT (SELECT count(*)::int FROM steps) AS steps, (SELECT count(*)::int FROM outbox_events WHERE subject = 'gateway.v1.step.recorded') AS events",
    );
    expect(events.events).toBe(events.steps);
    const [trace] = await it7.sql<{ routing_tier: string; routing_model: string; retention_until: Date; longest: Date }>(
      'SELECT routing_tier, routing_model, retention_until, (SELECT max(retention_until) FROM steps WHERE trace_id = $1) AS longest FROM traces WHERE id = $1',
      [routed],
    );
    expect(trace).toMatchObject({ routing_tier: 'complex', routing_model: 'large' });
    expect(trace.retention_until.toISOString()).toBe(trace.longest.toISOString());
    expect(trace.retention_until.getTime()).toBeGreaterThan(Date.now() + 89 * DAY_MS);
  });

  describe('one statement for the steps waiting together', () => {
    let pool: pg.Pool;
    let repository: StepRepository;
    let first: Promise<unknown>;

    beforeAll(() => {
      pool = new pg.Pool({ connectionString: it7.stack.apps.get('ledger')!.env.DATABASE_URL, max: 2 });
      // One statement at a time: every write submitted while one runs joins the next batch.
      repository = new StepRepository(new LedgerSql(pool), ledgerTables('public'), { maxBatch: 64, maxInFlight: 1 });
    });
    afterAll(() => pool.end());

    const write = async (traceId: string, fields: Partial<StepRow> = {}, routing: StepWrite['routing'] = null): Promise<StepWrite> => {
      const createdAt = new Date();
      const row = stepRow(0, {
        id: await repository.allocateId(),
        traceId,
        projectId: BigInt(projectId),
        input: 'question',
        output: 'answer',
        latencyMs: 10,
        promptTokens: 1,
        completionTokens: 1,
        retentionUntil: new Date(createdAt.getTime() + 30 * DAY_MS),
        createdAt,
        ...fields,
      });
      // A real step.recorded event: the stack's consumers read it.
      const event = encodeEvent(Subjects.stepRecorded, events.StepRecorded, events.StepRecorded.fromPartial({ traceId, projectId: Number(row.projectId), stepId: Number(row.id), type: row.type, createdAt: createdAt.toISOString() }));
      return { row, routing, event };
    };
    /** Occupies the one slot, so the writes submitted right after leave as one batch. */
    const holdSlot = async () => {
      first = repository.writeOpen(await write(await newTrace()));
    };

    it('applies the routing decisions of one trace in call order and grows its retention to the longest step', async () => {
      const traceId = await newTrace();
      const writes = [
        await write(traceId, { retentionUntil: new Date(Date.now() + 90 * DAY_MS) }, { tier: 'simple', model: 'mini' }),
        await write(traceId, {}, { tier: 'complex', model: 'large' }),
        await write(traceId, { type: 'check' }),
      ];
      await holdSlot();
      const outcomes = await Promise.all(writes.map((w) => repository.writeOpen(w)));
      await first;
      expect(outcomes.map((o) => o.inserted)).toEqual([true, true, true]);
      const [trace] = await it7.sql<{ routing_tier: string; routing_model: string; retention_until: Date }>('SELECT routing_tier, routing_model, retention_until FROM traces WHERE id = $1', [traceId]);
      expect(trace).toMatchObject({ routing_tier: 'complex', routing_model: 'large' });
      expect(trace.retention_until.getTime()).toBe(writes[0].row.retentionUntil.getTime());
      // Events in call order: outbox ids follow the batch.
      const events = await it7.sql<{ event_id: string }>('SELECT event_id::text AS event_id FROM outbox_events WHERE event_id = ANY($1::uuid[]) ORDER BY id', [writes.map((w) => w.event.eventId)]);
      expect(events.map((e) => e.event_id)).toEqual(writes.map((w) => w.event.eventId));
    });

    it('writes a key repeated within one batch once, and answers each step of a mixed batch on its own', async () => {
      const traceId = await newTrace();
      const sealed = await newTrace();
      await record(sealed, { type: 'run' });
      await it7.ledger.completeTrace({ actor, projectId, traceId: sealed });
      const writes = [
        await write(traceId, { idempotencyKey: 'twice' }),
        await write(traceId, { idempotencyKey: 'twice' }),
        await write(sealed),
        await write(randomUUID()),
        await write(traceId, { parentStepId: 1n }),
        await write(traceId, { projectId: BigInt(projectId + 1) }),
      ];
      await holdSlot();
      const outcomes = await Promise.all(writes.map((w) => repository.writeOpen(w)));
      await first;
      expect(outcomes).toEqual([
        { inserted: true, traceStatus: 'pending', sealed: false, parentFound: true },
        { inserted: false, traceStatus: 'pending', sealed: false, parentFound: true },
        { inserted: false, traceStatus: 'completed', sealed: true, parentFound: true },
        { inserted: false, traceStatus: null, sealed: false, parentFound: true },
        { inserted: false, traceStatus: 'pending', sealed: false, parentFound: false },
        { inserted: false, traceStatus: null, sealed: false, parentFound: true },
      ]);
      const written = await it7.sql<{ id: string }>('SELECT id::text AS id FROM steps WHERE trace_id = $1', [traceId]);
      expect(written).toEqual([{ id: String(writes[0].row.id) }]);
    });

    it('writes the others when one step of a batch is refused by PostgreSQL, and fails only that one', async () => {
      const traceId = await newTrace();
      const writes = [await write(traceId), await write(traceId, { input: 'nul \u0000 byte' }), await write(traceId)];
      await holdSlot();
      const settled = await Promise.allSettled(writes.map((w) => repository.writeOpen(w)));
      await first;
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect(await it7.sql('SELECT id FROM steps WHERE trace_id = $1', [traceId])).toHaveLength(2);
    });
  });

  it('answers RecordSteps and GetTraceHeaders item by item, as each unary call would, in request order', async () => {
    const open = await newTrace();
    const sealed = await newTrace();
    await record(sealed, { type: 'run', model: 'mini' });
    await it7.ledger.completeTrace({ actor, projectId, traceId: sealed });
    const other = await it7.project('steps-batch-other');
    const foreign = await newTrace(other);
    const missing = randomUUID();

    const { results } = await it7.ledger.recordSteps({
      steps: [
        step(projectId, actor, open, { type: 'run', model: 'mini', input: 'first', idempotencyKey: 'batch-1' }),
        step(projectId, actor, sealed, { type: 'run', model: 'mini' }),
        step(projectId, actor, foreign, { type: 'run', model: 'mini' }),
        step(projectId, actor, open, { type: 'run', model: 'mini', input: 'first again', idempotencyKey: 'batch-1' }),
        step(projectId, actor, open, { type: 'log', input: 'second', idempotencyKey: 'batch-2' }),
      ],
    });
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({ step: { traceId: open, type: 'run' }, error: undefined });
    expect(results[1]).toMatchObject({ step: undefined, error: { code: 'CONFLICT', message: 'Trace already completed' } });
    expect(results[2]).toMatchObject({ step: undefined, error: { code: 'VALIDATION_FAILED', message: 'Trace not found or not owned by this customer' } });
    // Items are concurrent calls: of two with one idempotency key one step is written and both
    // answer it, as for two concurrent unary calls.
    expect(results[3].step?.id).toBe(results[0].step?.id);
    expect(results[4]).toMatchObject({ step: { traceId: open, type: 'log' } });
    const [written] = await it7.sql<{ n: number }>('SELECT count(*)::int AS n FROM steps WHERE trace_id = $1', [open]);
    expect(written.n).toBe(2);

    const headers = await it7.ledger.getTraceHeaders({
      refs: [open, sealed, foreign, missing].map((traceId) => ({ actor, projectId, traceId })),
    });
    expect(headers.results.map((result) => result.trace?.status ?? result.error?.code)).toEqual(['pending', 'completed', 'NOT_FOUND', 'NOT_FOUND']);
    for (const [index, traceId] of [open, sealed, foreign, missing].entries()) {
      const unary = await it7.ledger.getTraceHeader({ actor, projectId, traceId }).then((trace) => trace.status, (error: { code: string }) => error.code);
      expect(unary).toBe(headers.results[index].trace?.status ?? headers.results[index].error?.code);
    }

    // More than a batch may carry: refused whole, nothing written.
    const tooMany = Array.from({ length: 257 }, (_, i) => step(projectId, actor, open, { type: 'log', input: `over ${i}` }));
    await expect(it7.ledger.recordSteps({ steps: tooMany })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'A batch carries at most 256 items' });
    const [after] = await it7.sql<{ n: number }>('SELECT count(*)::int AS n FROM steps WHERE trace_id = $1', [open]);
    expect(after.n).toBe(2);
  });

  it('keeps working after PostgreSQL drops its connections, also one the outbox relay holds between its statements', async () => {
    const traceId = await newTrace();
    await record(traceId, { type: 'run' });
    await it7.ledger.getTraceHeader({ actor, projectId, traceId });
    const ledgerPid = it7.stack.apps.get('ledger')!.process!.pid;
    for (let round = 0; round < 5; round++) {
      // Steps keep the relay busy (its connection held while it publishes) as the connections go.
      const writes = Promise.allSettled(Array.from({ length: 20 }, (_, i) => record(traceId, { type: 'log', input: `round ${round} step ${i}` })));
      await it7.sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = ''");
      await writes;
    }
    expect(it7.stack.apps.get('ledger')!.process!.exitCode).toBeNull();
    expect(it7.stack.apps.get('ledger')!.process!.pid).toBe(ledgerPid);
    // Calls that met a dying connection may fail; the ledger then opens new ones and prepares its statements again.
    await eventually(() => record(traceId, { type: 'log', input: 'probe' }).then(() => true, () => false));
    for (let i = 0; i < 3; i++) {
      await expect(record(traceId, { type: 'log', input: `after ${i}` })).resolves.toMatchObject({ traceId });
      await expect(it7.ledger.getTraceHeader({ actor, projectId, traceId })).resolves.toMatchObject({ id: traceId });
    }
  });
});

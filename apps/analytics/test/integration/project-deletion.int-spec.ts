import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ensureDatabase, runMigrations } from '@gateway/db';
import { DELETED_PROJECT_GRACE_MS } from '@gateway/grpc';
import { createLogger } from '@gateway/logging';
import { events } from '@gateway/proto';
import { analyticsTables, PROJECT_DATA_TABLES, type ProjectDataTable } from '../../src/analytics-tables';
import { createAnalyticsDb, type AnalyticsDb } from '../../src/database';
import { IngestEventUseCase } from '../../src/ingest/ingest-event.usecase';
import { DeleteProjectDataUseCase } from '../../src/projects/delete-project-data.usecase';
import { lockProjectShared } from '../../src/projects/deleted-projects';

const SCHEMA = 'public';
const t = analyticsTables(SCHEMA);
const base = <T>(codec: { decode(data: Uint8Array): T }): T => codec.decode(new Uint8Array());
const meta = (occurredAt: Date) => ({ eventId: randomUUID(), occurredAt: occurredAt.toISOString(), traceparent: '' });

/**
 * Project deletion in analytics' own database (real PostgreSQL, the service's migrations and
 * use cases): every table emptied of the project in batches, idempotent; late events of a
 * deleted project not applied; an event transaction in flight finishes before the delete.
 * The control-plane confirmation and the bus are covered end to end in
 * apps/edge/test/integration/project-deletion.int-spec.ts.
 */
describe('analytics project deletion (PostgreSQL)', () => {
  let db: AnalyticsDb;
  let ingest: IngestEventUseCase;
  let deleteData: DeleteProjectDataUseCase;
  const project = () => 500_000_000 + Math.floor(Math.random() * 100_000_000);
  let stepIds = Math.floor(Math.random() * 1_000_000) * 1_000;

  beforeAll(async () => {
    const url = await ensureDatabase('postgresql://postgres@127.0.0.1:5432/postgres', 'gw_it_analytics_deletion', { fresh: true });
    await runMigrations({ url, schema: SCHEMA, migrationsDir: join(__dirname, '../../prisma/migrations'), logger: createLogger({ service: 'analytics-it', level: 'silent' }) });
    db = createAnalyticsDb({ url, schema: SCHEMA, poolMax: 4 });
    ingest = new IngestEventUseCase(db, { schema: SCHEMA, driftSampleThreshold: 1, stallMonitorThreshold: 0.3, orphanDeliveries: 1 });
    // Two rows per statement: every table of a project takes several.
    deleteData = new DeleteProjectDataUseCase(db, { schema: SCHEMA, batchSize: 2 });
  }, 60_000);

  afterAll(async () => {
    await db?.$disconnect();
  });

  /** A completed trace with two model answers, one in the next hour, plus a loop halt: a row in every analytics table. */
  async function traffic(projectId: number, at = new Date()): Promise<string> {
    const traceId = randomUUID();
    const later = new Date(at.getTime() + 3_600_000);
    await ingest.traceCreated(randomUUID(), { ...base(events.TraceCreated), meta: meta(at), traceId, projectId, status: 'pending', revenue: 1, createdAt: at.toISOString() });
    for (const [index, when] of [at, later].entries()) {
      await ingest.stepRecorded(randomUUID(), {
        ...base(events.StepRecorded),
        meta: meta(when),
        traceId,
        projectId,
        stepId: (stepIds += 1),
        type: 'run',
        model: index === 0 ? 'fast' : 'smart',
        infrastructure: 'cloud-a',
        cost: 0.01,
        latencyMs: 120 + index,
        outputChars: 40,
        createdAt: when.toISOString(),
      });
    }
    await ingest.traceCompleted(randomUUID(), { ...base(events.TraceCompleted), meta: meta(later), traceId, projectId, status: 'completed', chainDepth: 1, stallProbability: 0.5, createdAt: at.toISOString(), completedAt: later.toISOString() });
    await ingest.keyChanged(randomUUID(), { ...base(events.KeyChanged), meta: meta(later), keyId: `ak_${randomUUID().slice(0, 8)}`, projectId, status: 'loop_detected', loopInterventionCount: 1 });
    return traceId;
  }

  async function rows(projectId: number): Promise<Record<ProjectDataTable, number>> {
    const counts = {} as Record<ProjectDataTable, number>;
    for (const table of PROJECT_DATA_TABLES) {
      const [row] = await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM ${t[table]} WHERE project_id = $1::bigint`, projectId);
      counts[table] = Number(row!.n);
    }
    return counts;
  }
  const none = Object.fromEntries(PROJECT_DATA_TABLES.map((table) => [table, 0]));

  it('deletes every row of the project from every table, in batches, keeps other projects, and is idempotent', async () => {
    const [gone, kept] = [project(), project()];
    for (let trace = 0; trace < 3; trace += 1) {
      await traffic(gone);
      await traffic(kept);
    }
    const before = await rows(gone);
    for (const table of PROJECT_DATA_TABLES) expect([table, before[table] > 0]).toEqual([table, true]);
    // Several statements for the large tables (batch size 2).
    expect(before.stepFacts).toBe(6);
    const keptBefore = await rows(kept);

    const deleted = await deleteData.execute(gone, new Date());
    expect(deleted).toEqual(before);
    expect(await rows(gone)).toEqual(none);
    expect(await rows(kept)).toEqual(keptBefore);

    // A redelivered deletion deletes nothing more.
    expect(await deleteData.execute(gone, new Date())).toEqual(none);
    expect(await rows(kept)).toEqual(keptBefore);
  });

  it('does not apply late events of a deleted project; a project id first used after the deletion is counted', async () => {
    const gone = project();
    const deletedAt = new Date(Date.now() - 10 * 60_000);
    await traffic(gone, new Date(deletedAt.getTime() - 3 * 3_600_000));
    await deleteData.execute(gone, deletedAt);

    // Events that happened before the deletion (a slow outbox, a redelivery) or within the grace after it.
    await traffic(gone, new Date(deletedAt.getTime() - 90 * 60_000));
    await ingest.traceCreated(randomUUID(), { ...base(events.TraceCreated), meta: meta(new Date(deletedAt.getTime() + DELETED_PROJECT_GRACE_MS - 1_000)), traceId: randomUUID(), projectId: gone, status: 'pending', createdAt: deletedAt.toISOString() });
    expect(await rows(gone)).toEqual(none);

    // After the grace: not about the deleted project (e.g. a stray deletion of an id not created yet).
    const fresh = new Date(deletedAt.getTime() + DELETED_PROJECT_GRACE_MS + 60_000);
    await ingest.traceCreated(randomUUID(), { ...base(events.TraceCreated), meta: meta(fresh), traceId: randomUUID(), projectId: gone, status: 'pending', revenue: 2, createdAt: fresh.toISOString() });
    expect((await rows(gone)).traceFacts).toBe(1);
  });

  it('waits for an event transaction in flight, then deletes what it wrote', async () => {
    const gone = project();
    await traffic(gone);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    // An event being applied: the project's shared lock, one row written, not committed yet.
    const inFlight = db.$transaction(
      async (tx) => {
        await lockProjectShared(tx, gone);
        await tx.$executeRawUnsafe(`INSERT INTO ${t.traceFacts} (trace_id, project_id, status, created_at) VALUES ($1::uuid, $2::bigint, 'pending', now())`, randomUUID(), gone);
        locked();
        await held;
      },
      { timeout: 20_000 },
    );
    await lockTaken;
    let finished = false;
    const deletion = deleteData.execute(gone, new Date()).then((result) => ((finished = true), result));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(finished).toBe(false);
    release();
    await inFlight;
    const deleted = await deletion;
    expect(deleted.traceFacts).toBe(2);
    expect(await rows(gone)).toEqual(none);
  });
});

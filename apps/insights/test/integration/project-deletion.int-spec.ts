import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ensureDatabase, runMigrations } from '@gateway/db';
import { DELETED_PROJECT_GRACE_MS } from '@gateway/grpc';
import { createLogger } from '@gateway/logging';
import { createInsightsDb, type InsightsDb } from '../../src/database';
import { insightsTables, PROJECT_DATA_TABLES, type ProjectDataTable } from '../../src/insights-tables';
import { DeleteProjectDataUseCase } from '../../src/projects/delete-project-data.usecase';
import { lockProjectEvents, lockProjectRefresh, recordEventUnlessDeleted } from '../../src/projects/deleted-projects';

const SCHEMA = 'public';
const t = insightsTables(SCHEMA);

/**
 * Project deletion in insights' own database (real PostgreSQL, the service's migrations and use
 * cases): every table emptied of the project in batches, idempotent; late events of a deleted
 * project refused; a refresh or an event transaction in flight finishes before the delete. The
 * control-plane confirmation, the bus and real traffic are covered end to end in
 * apps/edge/test/integration/project-deletion.int-spec.ts.
 */
describe('insights project deletion (PostgreSQL)', () => {
  let db: InsightsDb;
  let deleteData: DeleteProjectDataUseCase;
  const project = () => 500_000_000 + Math.floor(Math.random() * 100_000_000);
  let stepIds = Math.floor(Math.random() * 1_000_000) * 1_000;

  beforeAll(async () => {
    const url = await ensureDatabase('postgresql://postgres@127.0.0.1:5432/postgres', 'gw_it_insights_deletion', { fresh: true });
    await runMigrations({ url, schema: SCHEMA, migrationsDir: join(__dirname, '../../prisma/migrations'), logger: createLogger({ service: 'insights-it', level: 'silent' }) });
    db = createInsightsDb({ url, schema: SCHEMA, poolMax: 4 });
    // Two rows per statement: every table of a project takes several.
    deleteData = new DeleteProjectDataUseCase(db, { schema: SCHEMA, batchSize: 2 });
  }, 60_000);

  afterAll(async () => {
    await db?.$disconnect();
  });

  /** What ingest and a refresh keep of `traces` summarization traces with a replay each, and an insight. */
  async function data(projectId: number, traces: number): Promise<void> {
    const id = BigInt(projectId);
    for (let index = 0; index < traces; index += 1) {
      const [source, replay] = [randomUUID(), randomUUID()];
      await db.traceIntent.createMany({ data: [{ traceId: source, projectId: id, intent: 'summarization' }, { traceId: replay, projectId: id, intent: 'summarization', replay: true }] });
      await db.stepObservation.create({ data: { stepId: BigInt((stepIds += 1)), projectId: id, traceId: source, intent: 'summarization', model: 'smart', cost: 0.01, latencyMs: 300, createdAt: new Date() } });
      await db.replayComparison.create({
        data: { replayTraceId: replay, projectId: id, sourceTraceId: source, intent: 'summarization', sourceModel: 'smart', replayModel: 'fast', sourceCost: 0.01, replayCost: 0.001, similarity: 0.9, equivalent: true, createdAt: new Date() },
      });
      await db.insight.create({ data: { projectId: id, insightType: 'intent_pattern', patternKey: `intent_pattern:summarization:${index}`, status: index === 0 ? 'dismissed' : 'active', data: { intent: 'summarization' } } });
    }
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

  const record = (projectId: number, occurredAt: Date, eventId = randomUUID()) =>
    db.$transaction((tx) => recordEventUnlessDeleted(tx, t, { eventId, subject: 'step.recorded', projectId, occurredAt }));

  it('deletes every row of the project from every table, in batches, keeps other projects, and is idempotent', async () => {
    const [gone, kept] = [project(), project()];
    await data(gone, 3);
    await data(kept, 2);
    expect(await rows(gone)).toEqual({ traceIntents: 6, stepObservations: 3, replayComparisons: 3, insights: 3 });
    const keptBefore = await rows(kept);

    expect(await deleteData.execute(gone, new Date())).toEqual({ traceIntents: 6, stepObservations: 3, replayComparisons: 3, insights: 3 });
    expect(await rows(gone)).toEqual(none);
    expect(await rows(kept)).toEqual(keptBefore);
    expect(await deleteData.execute(gone, new Date())).toEqual(none);
    expect(await rows(kept)).toEqual(keptBefore);
  });

  it('refuses events of a deleted project that happened before the deletion (or within the grace), not later ones', async () => {
    const gone = project();
    const deletedAt = new Date(Date.now() - 10 * 60_000);
    await deleteData.execute(gone, deletedAt);
    await expect(record(gone, new Date(deletedAt.getTime() - 60 * 60_000))).resolves.toBe(false);
    await expect(record(gone, new Date(deletedAt.getTime() + DELETED_PROJECT_GRACE_MS - 1_000))).resolves.toBe(false);
    // After the grace: not about the deleted project (e.g. a stray deletion of an id not created yet).
    const later = randomUUID();
    await expect(record(gone, new Date(deletedAt.getTime() + DELETED_PROJECT_GRACE_MS + 60_000), later)).resolves.toBe(true);
    // Each event id once, whatever the project.
    await expect(record(gone, new Date(), later)).resolves.toBe(false);
    const other = randomUUID();
    await expect(record(project(), new Date(deletedAt.getTime() - 60 * 60_000), other)).resolves.toBe(true);
    await expect(record(project(), new Date(), other)).resolves.toBe(false);
  });

  it.each([
    ['a refresh', (tx: Parameters<typeof lockProjectRefresh>[0], projectId: number) => lockProjectRefresh(tx, projectId)],
    ['an event', (tx: Parameters<typeof lockProjectRefresh>[0], projectId: number) => lockProjectEvents(tx, projectId, 'shared')],
  ])('waits for %s in flight, then deletes what it wrote', async (_name, lock) => {
    const gone = project();
    await data(gone, 1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const inFlight = db.$transaction(
      async (tx) => {
        await lock(tx, gone);
        await tx.insight.create({ data: { projectId: BigInt(gone), insightType: 'latency_alert', patternKey: 'latency_alert:summarization', status: 'active', data: {} } });
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
    expect((await deletion).insights).toBe(2);
    expect(await rows(gone)).toEqual(none);
  });
});

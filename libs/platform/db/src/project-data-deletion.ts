import type { RawSqlClient } from './prisma-outbox';

/**
 * A project's data deletion in a service that keeps data per project, and the guard against
 * its late events. Each service keeps a `deleted_projects (project_id, deleted_at)` table, a
 * `processed_events (event_id, subject)` table, and names its per-project advisory locks:
 * event transactions take the `events` lock shared, a deletion takes it exclusive, so an event
 * applied concurrently with the deletion either commits before the deletion reads the tables
 * (and is deleted with the rest) or waits and then sees the deleted_projects row.
 */
export interface ProjectDeletionLocks {
  /** Lock that event transactions take shared and a deletion exclusive. */
  events: string;
  /** Further per-project locks a deletion takes exclusive, in this order, before the events lock. */
  before?: readonly string[];
}

/** Schema-qualified names of the guard tables. */
export interface DeletedProjectTables {
  deletedProjects: string;
  processedEvents: string;
}

export type ProjectLockMode = 'shared' | 'exclusive';

const LOCK_NAME = /^[a-z][a-z0-9-]*$/;

/** Takes a per-project advisory lock (transaction scoped), keyed by (hashtext(name), project id). */
export async function lockProject(tx: RawSqlClient, name: string, projectId: number, mode: ProjectLockMode): Promise<void> {
  if (!LOCK_NAME.test(name)) throw new Error(`invalid lock name: ${name}`);
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await tx.$executeRawUnsafe(`SELECT ${lock}(hashtext('${name}'), ($1::bigint % 2147483647)::int)`, projectId);
}

export interface ProjectEvent {
  eventId: string;
  subject: string;
  projectId: number;
  occurredAt: Date;
}

/**
 * Records the event id as processed unless it was already, or it is about a project deleted
 * after it happened (within `graceMs`); true when the event is to be applied. Takes the
 * project's events lock shared first, so the check sees a deletion committed meanwhile.
 */
export async function recordEventUnlessProjectDeleted(
  tx: RawSqlClient,
  guard: { tables: DeletedProjectTables; eventsLock: string; graceMs: number },
  event: ProjectEvent,
): Promise<boolean> {
  await lockProject(tx, guard.eventsLock, event.projectId, 'shared');
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO ${guard.tables.processedEvents} (event_id, subject)
     SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM ${guard.tables.deletedProjects} WHERE project_id = $3::bigint AND deleted_at >= $4::timestamptz)
     ON CONFLICT (event_id) DO NOTHING`,
    event.eventId,
    event.subject,
    event.projectId,
    new Date(event.occurredAt.getTime() - guard.graceMs).toISOString(),
  );
  return inserted > 0;
}

export interface ProjectDataDeletionOptions {
  /** Rows per DELETE statement: a large project goes in several short statements. */
  batchSize?: number;
  /** Longest the transaction may take (ms); the event is redelivered if it fails. */
  timeoutMs?: number;
}

export interface ProjectDataDeletionSettings<T extends string> extends ProjectDataDeletionOptions {
  /** Schema-qualified table names: the data tables and the deleted_projects table. */
  tables: Readonly<Record<T, string>> & Pick<DeletedProjectTables, 'deletedProjects'>;
  /** The tables holding a project's data (all keyed by project_id), emptied in this order. */
  dataTables: readonly T[];
  locks: ProjectDeletionLocks;
}

/** A Prisma client (or anything with an interactive transaction over raw SQL). */
export interface ProjectDataDb {
  $transaction<R>(fn: (tx: RawSqlClient) => Promise<R>, options: { timeout: number }): Promise<R>;
}

/**
 * Deletes every row of a project from every data table, in one transaction under the project's
 * exclusive locks, and marks the project deleted as of `deletedAt` so that events about it that
 * happened before are not applied any more (see recordEventUnlessProjectDeleted). Running it
 * again deletes nothing more (idempotent), which makes redelivered events harmless.
 */
export class ProjectDataDeletion<T extends string> {
  private readonly batchSize: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly db: ProjectDataDb,
    private readonly settings: ProjectDataDeletionSettings<T>,
  ) {
    this.batchSize = settings.batchSize ?? 5_000;
    this.timeoutMs = settings.timeoutMs ?? 110_000;
  }

  async execute(projectId: number, deletedAt: Date): Promise<Record<T, number>> {
    const { tables, dataTables, locks } = this.settings;
    return this.db.$transaction(
      async (tx) => {
        for (const lock of [...(locks.before ?? []), locks.events]) await lockProject(tx, lock, projectId, 'exclusive');
        await tx.$executeRawUnsafe(
          `INSERT INTO ${tables.deletedProjects} (project_id, deleted_at) VALUES ($1::bigint, $2::timestamptz)
           ON CONFLICT (project_id) DO UPDATE SET deleted_at = GREATEST(${tables.deletedProjects}.deleted_at, EXCLUDED.deleted_at)`,
          projectId,
          deletedAt.toISOString(),
        );
        const deleted = {} as Record<T, number>;
        for (const table of dataTables) deleted[table] = await this.drain(tx, tables[table], projectId);
        return deleted;
      },
      { timeout: this.timeoutMs },
    );
  }

  private async drain(tx: RawSqlClient, table: string, projectId: number): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await tx.$executeRawUnsafe(
        `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE project_id = $1::bigint LIMIT $2))`,
        projectId,
        this.batchSize,
      );
      total += deleted;
      if (deleted < this.batchSize) return total;
    }
  }
}

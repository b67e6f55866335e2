import { DELETED_PROJECT_GRACE_MS } from '@gateway/grpc';
import type { Prisma } from '../generated/prisma/client';
import type { InsightsTables } from '../insights-tables';

type Tx = Prisma.TransactionClient;

const projectKey = `($1::bigint % 2147483647)::int`;

// Two per-project advisory locks (transaction scoped):
// - `insights`: a refresh holds it while it reconciles the project's insights; a deletion takes
//   it too, so a refresh either finishes before the deletion (and its insights are deleted) or
//   runs after it on no data.
// - `insights-events`: event transactions take it shared, a deletion exclusive, so an event is
//   either applied before the deletion reads the tables or sees the deleted_projects row.
export async function lockProjectRefresh(tx: Tx, projectId: number): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext('insights'), ${projectKey})`, projectId);
}

export async function lockProjectEvents(tx: Tx, projectId: number, mode: 'shared' | 'exclusive'): Promise<void> {
  const lock = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await tx.$executeRawUnsafe(`SELECT ${lock}(hashtext('insights-events'), ${projectKey})`, projectId);
}

/**
 * Records the event id as processed unless it was already, or it is about a project deleted
 * after it happened (within the grace); true when the event is to be applied.
 */
export async function recordEventUnlessDeleted(tx: Tx, t: InsightsTables, event: { eventId: string; subject: string; projectId: number; occurredAt: Date }): Promise<boolean> {
  await lockProjectEvents(tx, event.projectId, 'shared');
  const inserted = await tx.$executeRawUnsafe(
    `INSERT INTO ${t.processedEvents} (event_id, subject)
     SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM ${t.deletedProjects} WHERE project_id = $3::bigint AND deleted_at >= $4::timestamptz)
     ON CONFLICT (event_id) DO NOTHING`,
    event.eventId,
    event.subject,
    event.projectId,
    new Date(event.occurredAt.getTime() - DELETED_PROJECT_GRACE_MS).toISOString(),
  );
  return inserted > 0;
}

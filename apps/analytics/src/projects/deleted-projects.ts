import { DELETED_PROJECT_GRACE_MS } from '@gateway/grpc';
import type { AnalyticsTables } from '../analytics-tables';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

// Event transactions take the project's lock shared, a deletion takes it exclusive: an event
// applied concurrently with the deletion either commits before the deletion reads the tables
// (and is deleted with the rest) or waits and then sees the deleted_projects row.
const LOCK_KEY = `hashtext('analytics-project'), ($1::bigint % 2147483647)::int`;

export async function lockProjectShared(tx: Tx, projectId: number): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock_shared(${LOCK_KEY})`, projectId);
}

export async function lockProjectExclusive(tx: Tx, projectId: number): Promise<void> {
  await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${LOCK_KEY})`, projectId);
}

/**
 * Records the event id as processed unless it was already, or it is about a project deleted
 * after it happened (within the grace); true when the event is to be applied. Takes the
 * project's shared lock first, so the check sees a deletion committed meanwhile.
 */
export async function recordEventUnlessDeleted(tx: Tx, t: AnalyticsTables, event: { eventId: string; subject: string; projectId: number; occurredAt: Date }): Promise<boolean> {
  await lockProjectShared(tx, event.projectId);
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

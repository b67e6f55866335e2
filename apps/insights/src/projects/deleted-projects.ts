import { lockProject, recordEventUnlessProjectDeleted, type ProjectDeletionLocks, type ProjectEvent, type ProjectLockMode, type RawSqlClient } from '@gateway/db';
import { DELETED_PROJECT_GRACE_MS } from '@gateway/grpc';
import type { InsightsTables } from '../insights-tables';

// Two per-project advisory locks (transaction scoped):
// - `insights`: a refresh holds it while it reconciles the project's insights; a deletion takes
//   it too, so a refresh either finishes before the deletion (and its insights are deleted) or
//   runs after it on no data.
// - `insights-events`: event transactions take it shared, a deletion exclusive, so an event is
//   either applied before the deletion reads the tables or sees the deleted_projects row.
// A deletion takes the refresh lock, then the events lock; nothing else takes both, so no
// lock-order deadlock.
const REFRESH_LOCK = 'insights';
export const INSIGHTS_PROJECT_LOCKS: ProjectDeletionLocks = { before: [REFRESH_LOCK], events: 'insights-events' };

export function lockProjectRefresh(tx: RawSqlClient, projectId: number): Promise<void> {
  return lockProject(tx, REFRESH_LOCK, projectId, 'exclusive');
}

export function lockProjectEvents(tx: RawSqlClient, projectId: number, mode: ProjectLockMode): Promise<void> {
  return lockProject(tx, INSIGHTS_PROJECT_LOCKS.events, projectId, mode);
}

/** True when the event is to be applied: not seen yet, and not about a project deleted after it happened. */
export function recordEventUnlessDeleted(tx: RawSqlClient, t: InsightsTables, event: ProjectEvent): Promise<boolean> {
  return recordEventUnlessProjectDeleted(tx, { tables: t, eventsLock: INSIGHTS_PROJECT_LOCKS.events, graceMs: DELETED_PROJECT_GRACE_MS }, event);
}

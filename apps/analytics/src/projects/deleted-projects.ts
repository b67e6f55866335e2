import { lockProject, recordEventUnlessProjectDeleted, type ProjectDeletionLocks, type ProjectEvent, type RawSqlClient } from '@gateway/db';
import { DELETED_PROJECT_GRACE_MS } from '@gateway/grpc';
import type { AnalyticsTables } from '../analytics-tables';

// One per-project lock: event transactions take it shared, a deletion exclusive (see @gateway/db).
export const ANALYTICS_PROJECT_LOCKS: ProjectDeletionLocks = { events: 'analytics-project' };

export function lockProjectShared(tx: RawSqlClient, projectId: number): Promise<void> {
  return lockProject(tx, ANALYTICS_PROJECT_LOCKS.events, projectId, 'shared');
}

/** True when the event is to be applied: not seen yet, and not about a project deleted after it happened. */
export function recordEventUnlessDeleted(tx: RawSqlClient, t: AnalyticsTables, event: ProjectEvent): Promise<boolean> {
  return recordEventUnlessProjectDeleted(tx, { tables: t, eventsLock: ANALYTICS_PROJECT_LOCKS.events, graceMs: DELETED_PROJECT_GRACE_MS }, event);
}

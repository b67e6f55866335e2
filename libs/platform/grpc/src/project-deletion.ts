import { typedHandler, type MessageHandler } from '@gateway/bus';
import { isDomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import { events } from '@gateway/proto';
import { createProjectPolicyCache, type ProjectPolicyCache } from './control-plane-caches';

/**
 * Whether a project is really gone, asked of the owner of projects (control-plane) before a
 * service deletes the project's data on `project.changed` (change `deleted`). Deleting data is
 * irreversible, so the event alone is not enough: control-plane must answer NOT_FOUND, or a
 * project whose status is `deleted`. A misrouted or forged event (e.g. from another deployment
 * sharing the NATS server, whose project ids overlap) cannot wipe a live project.
 *
 * Always a fresh answer: the cached policy is dropped first. Control-plane unreachable (or any
 * other error) → the error propagates, so the event is redelivered later.
 */
export class ProjectDeletionCheck {
  constructor(private readonly policies: Pick<ProjectPolicyCache, 'get' | 'invalidate'>) {}

  async isDeleted(projectId: number): Promise<boolean> {
    this.policies.invalidate(projectId);
    try {
      const policy = await this.policies.get(projectId);
      return policy.project?.status === 'deleted';
    } catch (error) {
      if (isDomainError(error) && error.code === 'NOT_FOUND') return true;
      throw error;
    }
  }
}

/** A deletion check with its own control-plane client, for a service that has no policy cache. */
export function createProjectDeletionCheck(address: string, internalToken: string): { check: ProjectDeletionCheck; close(): void } {
  const { cache, close } = createProjectPolicyCache(address, internalToken);
  return { check: new ProjectDeletionCheck(cache), close };
}

/**
 * Events about a deleted project that happened up to this long after its deletion are still
 * ignored by the services that keep its data: requests in flight at the deletion, and clock skew
 * between hosts. Events later than that belong to a project id the deletion did not concern
 * (e.g. a stray deletion of an id this deployment had not created yet).
 */
export const DELETED_PROJECT_GRACE_MS = 60_000;

/** An event's time (`meta.occurredAt`); `now` when it is missing or unreadable. */
export function eventTime(meta: { occurredAt: string } | undefined, now = new Date()): Date {
  const at = meta?.occurredAt ? Date.parse(meta.occurredAt) : Number.NaN;
  return Number.isNaN(at) ? now : new Date(at);
}

/** When a project was deleted, from its `project.changed` event: never later than now, so a future time cannot shut a project id out. */
export function projectDeletedAt(meta: { occurredAt: string } | undefined, now = new Date()): Date {
  const at = eventTime(meta, now);
  return at > now ? now : at;
}

/** Deletes every row a service keeps about a project; idempotent. Answers counts (per table) for the log. */
export interface ProjectDataDeleter {
  execute(projectId: number, deletedAt: Date): Promise<Record<string, number>>;
}

/**
 * The `gateway.v1.project.changed` consumer of a service that keeps project data: change
 * `deleted`, confirmed by control-plane → the project's data is deleted as of the event's time.
 * Run on a durable subscription, so the event is acknowledged once this returns; a failure
 * (control-plane unreachable, database error) is redelivered, which the idempotent delete makes
 * harmless. A project control-plane still has keeps its data (logged, acknowledged). Other
 * changes are acknowledged and ignored.
 */
export function projectDeletedHandler(service: string, deps: { check: Pick<ProjectDeletionCheck, 'isDeleted'>; deleteData: ProjectDataDeleter; logger: Logger }): MessageHandler {
  return typedHandler(service, events.ProjectChanged, async (event) => {
    if (event.change !== 'deleted' || !event.projectId) return;
    if (!(await deps.check.isDeleted(event.projectId))) {
      deps.logger.warn({ projectId: event.projectId, eventId: event.meta?.eventId }, 'project.changed deleted for a project control-plane still has; data kept');
      return;
    }
    const deleted = await deps.deleteData.execute(event.projectId, projectDeletedAt(event.meta));
    deps.logger.info({ projectId: event.projectId, deleted }, 'project data deleted');
  });
}

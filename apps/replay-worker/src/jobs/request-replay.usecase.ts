import { randomUUID } from 'node:crypto';
import { encodeEvent, type EventBus } from '@gateway/bus';
import { DomainError, isDomainError } from '@gateway/errors';
import type { ProjectPolicyCache } from '@gateway/grpc';
import { events, Subjects, type common } from '@gateway/proto';
import type { LedgerClient } from '../replay/run-replay.usecase';
import type { ReplayJobRecord, JobStatus } from './replay-job.types';
import { replayCacheKey, validateOverrides, type RawOverrides } from './replay-overrides';
import type { ReplayStore } from './replay.store';

/** Spec (Errors): a trace_id that is absent or of another account. */
export const TRACE_NOT_OWNED = 'Trace not found or not owned by this customer';

export type ReplayAnswer =
  | { kind: 'cached'; jobId: string; result: Record<string, unknown> }
  | { kind: 'accepted'; jobId: string; status: JobStatus };

export interface RequestReplaySettings {
  ttlMs: number;
  maxCompareModels: number;
}

/**
 * POST /replay: validates the overrides against the project's registry, checks the source trace
 * is the project's, then answers the cached completed result of the same trace and overrides
 * (within the TTL, no new job), or the job already queued/running for them, or queues a new job
 * (status record first, then gateway.v1.replay.requested on the work queue).
 */
export class RequestReplayUseCase {
  constructor(
    private readonly store: ReplayStore,
    private readonly bus: Pick<EventBus, 'publish'>,
    private readonly ledger: Pick<LedgerClient, 'getTrace'>,
    private readonly policies: Pick<ProjectPolicyCache, 'get'>,
    private readonly settings: RequestReplaySettings,
  ) {}

  async execute(projectId: number, actor: common.Actor | undefined, traceId: string, raw: RawOverrides): Promise<ReplayAnswer> {
    const policy = await this.policies.get(projectId);
    const overrides = validateOverrides(raw, new Set(policy.models.map((model) => model.identifier)), this.settings.maxCompareModels);
    try {
      await this.ledger.getTrace({ actor, projectId, traceId });
    } catch (error) {
      if (isDomainError(error) && (error.code === 'NOT_FOUND' || error.code === 'BAD_REQUEST')) throw new DomainError('VALIDATION_FAILED', TRACE_NOT_OWNED);
      throw error;
    }
    const cacheKey = replayCacheKey(projectId, traceId, overrides);
    const cached = await this.store.getCached(cacheKey);
    if (cached) return { kind: 'cached', jobId: cached.jobId, result: cached.result };

    const jobId = randomUUID();
    const holder = await this.store.claimInflight(cacheKey, jobId, this.settings.ttlMs);
    if (holder !== jobId) {
      const running = await this.store.getJob(holder);
      if (running && (running.status === 'queued' || running.status === 'running')) return { kind: 'accepted', jobId: running.jobId, status: running.status };
      // The holder finished, failed or expired: take its place.
      await this.store.clearInflight(cacheKey, holder);
      const again = await this.store.getCached(cacheKey);
      if (again) return { kind: 'cached', jobId: again.jobId, result: again.result };
      if ((await this.store.claimInflight(cacheKey, jobId, this.settings.ttlMs)) !== jobId) return this.execute(projectId, actor, traceId, raw);
    }
    const job: ReplayJobRecord = { jobId, projectId, traceId, overrides, cacheKey, status: 'queued', createdAt: new Date().toISOString(), attempts: 0 };
    await this.store.saveJob(job, this.settings.ttlMs);
    const event = encodeEvent(Subjects.replayRequested, events.ReplayRequested, { jobId, projectId, traceId, overrides: JSON.parse(JSON.stringify(overrides)) as Record<string, unknown>, meta: { eventId: jobId } });
    try {
      await this.bus.publish(event.subject, event.data, { eventId: event.eventId, headers: event.headers });
    } catch (error) {
      await this.store.clearInflight(cacheKey, jobId);
      await this.store.saveJob({ ...job, status: 'failed', error: 'The replay queue is unavailable' }, this.settings.ttlMs);
      throw new DomainError('UNAVAILABLE', 'The replay queue is unavailable', { cause: error });
    }
    return { kind: 'accepted', jobId, status: 'queued' };
  }
}

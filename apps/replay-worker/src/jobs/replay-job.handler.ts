import { randomUUID } from 'node:crypto';
import { typedHandler, type MessageHandler } from '@gateway/bus';
import { isDomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import { events } from '@gateway/proto';
import { isTransient, ReplayAbortedError, type RunReplayUseCase } from '../replay/run-replay.usecase';
import type { ReplayJobRecord } from './replay-job.types';
import type { ReplayStore } from './replay.store';

export interface ReplayWorkerSettings {
  ttlMs: number;
  leaseMs: number;
  /** How long a redelivered copy waits for a live worker that holds the job, before it is redelivered again. */
  waitBudgetMs: number;
  maxAttempts: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * gateway.v1.replay.requested (work queue shared by every worker). Exactly-once execution on
 * an at-least-once queue:
 * - a job record that is missing (expired, or another deployment's) or already finished is acked;
 * - the worker takes the job's lease in the store (renewed every third of its life); a copy
 *   delivered while another live worker holds the lease waits for it to finish (then acks) or
 *   for the lease to lapse, i.e. that worker died (then takes over and resumes the job from its
 *   saved progress);
 * - losing the lease mid-run (a long pause) stops the run before its next model call;
 * - a transient failure (a dependency away) is retried through redelivery up to maxAttempts,
 *   anything else marks the job failed with a message safe to show.
 */
export function replayJobHandler(deps: {
  store: ReplayStore;
  run: RunReplayUseCase;
  logger: Logger;
  settings: ReplayWorkerSettings;
  workerId?: string;
  /** Shutdown: a running job stops before its next model call and is redelivered to another worker. */
  stopping?: () => boolean;
}): MessageHandler {
  const workerId = deps.workerId ?? randomUUID();
  const { store, settings, logger } = deps;
  const save = (job: ReplayJobRecord) => store.saveJob(job, Math.max(1_000, Date.parse(job.createdAt) + settings.ttlMs - Date.now()));

  const finish = async (job: ReplayJobRecord, patch: Partial<ReplayJobRecord>) => {
    const done = { ...job, ...patch, finishedAt: new Date().toISOString() };
    // The finished record and the cached result each live a full TTL from now.
    await store.saveJob(done, settings.ttlMs);
    if (done.status === 'completed' && done.result) await store.setCached(job.cacheKey, { jobId: job.jobId, result: done.result }, settings.ttlMs);
    await store.clearInflight(job.cacheKey, job.jobId);
  };

  return typedHandler('replay-worker', events.ReplayRequested, async (event) => {
    const jobId = event.jobId;
    let job = await store.getJob(jobId);
    if (!job || job.projectId !== event.projectId) {
      logger.info({ jobId }, 'replay job unknown or expired; message dropped');
      return;
    }
    if (job.status === 'completed' || job.status === 'failed') return;

    const waitedSince = Date.now();
    while (!(await store.claimLease(jobId, workerId, settings.leaseMs))) {
      // Another live worker runs it: wait for its end or for its lease to lapse.
      await sleep(Math.min(500, settings.leaseMs / 3));
      job = await store.getJob(jobId);
      if (!job || job.status === 'completed' || job.status === 'failed') return;
      if (Date.now() - waitedSince > settings.waitBudgetMs) throw new Error(`replay job ${jobId} is held by another worker; redelivered later`);
    }

    let lost = false;
    const heartbeat = setInterval(() => {
      store.renewLease(jobId, workerId, settings.leaseMs).then(
        (held) => {
          if (!held) lost = true;
        },
        (error: unknown) => logger.warn({ err: error, jobId }, 'replay lease renewal failed'),
      );
    }, Math.max(100, Math.floor(settings.leaseMs / 3)));
    try {
      job = (await store.getJob(jobId)) ?? job;
      if (job.status === 'completed' || job.status === 'failed') return;
      job = { ...job, status: 'running', startedAt: job.startedAt ?? new Date().toISOString(), attempts: job.attempts + 1, workerId };
      await save(job);
      let current = job;
      try {
        const result = await deps.run.execute(
          job,
          async (progress) => {
            current = { ...current, progress };
            await save(current);
          },
          () => lost || Boolean(deps.stopping?.()),
        );
        await finish(current, { status: 'completed', result });
        logger.info({ jobId, attempts: current.attempts }, 'replay completed');
      } catch (error) {
        if (error instanceof ReplayAbortedError) throw error;
        if (isTransient(error) && current.attempts < settings.maxAttempts) {
          logger.warn({ err: error, jobId, attempt: current.attempts }, 'replay attempt failed; retried');
          throw error;
        }
        logger.warn({ err: error, jobId }, 'replay failed');
        await finish(current, { status: 'failed', error: isDomainError(error) && error.code !== 'INTERNAL' ? error.message : 'Replay failed: a service it depends on did not answer' });
      }
    } finally {
      clearInterval(heartbeat);
      await store.releaseLease(jobId, workerId).catch(() => undefined);
    }
  });
}

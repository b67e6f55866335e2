import { ReplayFailedError, ReplayTimeoutError } from '../errors';
import { abortableSleep, type Sleep } from '../http/http.transport';
import type { CompletedReplay, ReplayJob, ReplayStatus } from '../types';

/** The spec: clients poll a replay job every 1 to 2 seconds. */
export const MIN_POLL_INTERVAL_MS = 1_000;
export const MAX_POLL_INTERVAL_MS = 2_000;

export interface WaitForReplayOptions {
  /** Clamped to 1000–2000 ms. Default 1500. */
  pollIntervalMs?: number;
  /** Give up after this long (ms); ReplayTimeoutError. Default 10 minutes. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each status seen (queued, running, ...). */
  onStatus?: (status: ReplayStatus, job: ReplayJob) => void;
}

export function clampPollInterval(requested: number | undefined): number {
  const value = requested ?? 1_500;
  if (!Number.isFinite(value)) return 1_500;
  return Math.min(MAX_POLL_INTERVAL_MS, Math.max(MIN_POLL_INTERVAL_MS, value));
}

/**
 * Polls GET /api/v1/replay/:job_id until the job completes (the result) or fails
 * (ReplayFailedError). `now` and `sleep` are injectable for tests.
 */
export async function waitForReplay(
  jobId: string,
  getJob: (jobId: string, signal?: AbortSignal) => Promise<ReplayJob>,
  options: WaitForReplayOptions = {},
  clock: { now: () => number; sleep: Sleep } = { now: Date.now, sleep: abortableSleep },
): Promise<CompletedReplay> {
  const interval = clampPollInterval(options.pollIntervalMs);
  const timeoutMs = options.timeoutMs ?? 600_000;
  const started = clock.now();
  for (;;) {
    const job = await getJob(jobId, options.signal);
    options.onStatus?.(job.status, job);
    if (job.status === 'completed') return job as CompletedReplay;
    if (job.status === 'failed') throw new ReplayFailedError(jobId, job.error ?? 'unknown error');
    const waited = clock.now() - started;
    if (waited + interval > timeoutMs) throw new ReplayTimeoutError(jobId, job.status, waited);
    await clock.sleep(interval, options.signal);
  }
}

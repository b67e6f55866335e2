import { ReplayFailedError, ReplayTimeoutError } from '../errors';
import type { ReplayJob } from '../types';
import { clampPollInterval, waitForReplay } from './replay.poller';

function fakeClock() {
  let now = 0;
  const sleeps: number[] = [];
  return { sleeps, clock: { now: () => now, sleep: async (ms: number) => void (sleeps.push(ms), (now += ms)) } };
}

function jobs(sequence: Array<Partial<ReplayJob>>) {
  const seen: string[] = [];
  return {
    seen,
    get: async (jobId: string) => {
      seen.push(jobId);
      return { job_id: jobId, status: 'queued', ...sequence.shift() } as ReplayJob;
    },
  };
}

describe('waitForReplay', () => {
  it('polls every 1–2 s until the job completes', async () => {
    const { clock, sleeps } = fakeClock();
    const source = jobs([{ status: 'queued' }, { status: 'running' }, { status: 'completed', source_trace_id: 's', replay_trace_id: 'r', comparison: { source: {} as never } }]);
    const statuses: string[] = [];
    const result = await waitForReplay('job-1', source.get, { onStatus: (status) => statuses.push(status) }, clock);
    expect(result).toMatchObject({ status: 'completed', replay_trace_id: 'r' });
    expect(statuses).toEqual(['queued', 'running', 'completed']);
    expect(sleeps).toEqual([1_500, 1_500]);
    expect(source.seen).toEqual(['job-1', 'job-1', 'job-1']);
  });

  it('keeps the interval within 1–2 s whatever is asked', () => {
    expect(clampPollInterval(10)).toBe(1_000);
    expect(clampPollInterval(60_000)).toBe(2_000);
    expect(clampPollInterval(1_200)).toBe(1_200);
    expect(clampPollInterval(undefined)).toBe(1_500);
    expect(clampPollInterval(Number.NaN)).toBe(1_500);
  });

  it('throws ReplayFailedError with the job error', async () => {
    const { clock } = fakeClock();
    await expect(waitForReplay('job-2', jobs([{ status: 'running' }, { status: 'failed', error: 'source trace has no run steps' }]).get, {}, clock)).rejects.toMatchObject({
      constructor: ReplayFailedError,
      jobId: 'job-2',
      message: 'Replay job-2 failed: source trace has no run steps',
    });
  });

  it('gives up after timeoutMs with the last status', async () => {
    const { clock, sleeps } = fakeClock();
    const forever = async (jobId: string) => ({ job_id: jobId, status: 'running' }) as ReplayJob;
    await expect(waitForReplay('job-3', forever, { timeoutMs: 5_000, pollIntervalMs: 2_000 }, clock)).rejects.toMatchObject({ constructor: ReplayTimeoutError, lastStatus: 'running' });
    expect(sleeps).toEqual([2_000, 2_000]);
  });
});

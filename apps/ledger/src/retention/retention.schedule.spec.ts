import { createLogger } from '@gateway/logging';
import type { PurgeResult } from './retention-purge.usecase';
import { startRetentionSchedule } from './retention.schedule';

const logger = createLogger({ service: 'ledger-test', level: 'silent' });
const result: PurgeResult = { ran: true, steps: 0, shadowResults: 0, traces: 0, outboxEvents: 0 };

describe('startRetentionSchedule', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('runs the purge every interval and never overlaps runs', async () => {
    let release: () => void = () => undefined;
    const run = jest.fn(() => new Promise<PurgeResult>((resolve) => (release = () => resolve(result))));
    const schedule = startRetentionSchedule({ purge: { run }, intervalMs: 1_000, logger });
    await jest.advanceTimersByTimeAsync(999);
    expect(run).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(5_000); // still running: no second run
    expect(run).toHaveBeenCalledTimes(1);
    release();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    release();
    await schedule.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('keeps going after a failed run', async () => {
    const run = jest.fn().mockRejectedValueOnce(new Error('db down')).mockResolvedValue(result);
    const schedule = startRetentionSchedule({ purge: { run }, intervalMs: 100, logger });
    await jest.advanceTimersByTimeAsync(300);
    expect(run).toHaveBeenCalledTimes(3);
    await schedule.stop();
  });

  it('is disabled with interval 0', async () => {
    const run = jest.fn().mockResolvedValue(result);
    const schedule = startRetentionSchedule({ purge: { run }, intervalMs: 0, logger });
    await jest.advanceTimersByTimeAsync(10_000);
    expect(run).not.toHaveBeenCalled();
    await schedule.stop();
  });
});

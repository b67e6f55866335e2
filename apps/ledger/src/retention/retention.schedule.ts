import type { Logger } from '@gateway/logging';
import type { PurgeResult } from './retention-purge.usecase';

export interface RetentionSchedule {
  /** Waits for a run in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs the purge every `intervalMs` (0 disables it) in the background. A run never overlaps the
 * previous one, a failed run is logged and retried at the next tick, and nothing waits on it.
 */
export function startRetentionSchedule(options: { purge: { run(): Promise<PurgeResult> }; intervalMs: number; logger: Logger }): RetentionSchedule {
  if (options.intervalMs <= 0) return { stop: async () => undefined };
  let running: Promise<void> | undefined;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = options.purge
      .run()
      .then(() => undefined)
      .catch((error: unknown) => options.logger.warn({ err: error }, 'retention purge failed; retrying at the next interval'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

import type { Logger } from '@gateway/logging';

export interface PruneTask {
  name: string;
  run(): Promise<number>;
}

/**
 * Periodic clean-up of rows that only matter for a while (expired sessions, throttle failures
 * outside the window, processed event ids). Safe on every replica at once: each task is a
 * plain DELETE of old rows.
 */
export function startPruneJob(tasks: PruneTask[], intervalMs: number, logger: Logger): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = (async () => {
      for (const task of tasks) {
        try {
          const removed = await task.run();
          if (removed > 0) logger.debug({ task: task.name, removed }, 'pruned');
        } catch (error) {
          logger.warn({ err: error, task: task.name }, 'prune task failed; will retry next interval');
        }
      }
    })();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}

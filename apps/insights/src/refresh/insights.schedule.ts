import type { Logger } from '@gateway/logging';
import type { InsightsUseCase } from './insights.usecase';

/** The scheduled run: every interval, refresh each project with traffic in the window. 0 disables it. */
export function startInsightsSchedule(options: { insights: InsightsUseCase; intervalMs: number; logger: Logger }): { stop(): Promise<void> } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = (async () => {
      for (const projectId of await options.insights.activeProjects()) {
        try {
          await options.insights.refresh(projectId);
        } catch (error) {
          options.logger.warn({ err: error, projectId }, 'scheduled insights refresh failed');
        }
      }
    })()
      .catch((error: unknown) => options.logger.warn({ err: error }, 'scheduled insights run failed'))
      .finally(() => {
        running = undefined;
      });
  };
  const timer = options.intervalMs > 0 ? setInterval(tick, options.intervalMs) : undefined;
  timer?.unref();
  return {
    stop: async () => {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

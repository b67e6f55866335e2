/** Waits `ms` (e.g. between readiness off and closing the listener); 0 resolves at once. */
export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/** One stage of a graceful stop, in the order the app runs them. */
export interface ShutdownStep {
  name: string;
  run: () => Promise<unknown> | unknown;
}

export interface ShutdownLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface ShutdownReport {
  totalMs: number;
  /** Milliseconds per step, by name. */
  steps: Record<string, number>;
  failed: string[];
}

/**
 * Runs the stop stages in order (readiness off → stop accepting and drain → consumers → outbox
 * flush → bus → database). A failing stage is logged and the next ones still run: a bus that
 * refuses to drain must not keep the database pool open. Logs one line with the timings.
 */
export async function runShutdown(service: string, steps: ShutdownStep[], logger?: ShutdownLogger): Promise<ShutdownReport> {
  const started = Date.now();
  const report: ShutdownReport = { totalMs: 0, steps: {}, failed: [] };
  for (const step of steps) {
    const stepStarted = Date.now();
    try {
      await step.run();
    } catch (error) {
      report.failed.push(step.name);
      logger?.warn({ err: error, step: step.name }, `${service}: shutdown step failed`);
    }
    report.steps[step.name] = Date.now() - stepStarted;
  }
  report.totalMs = Date.now() - started;
  logger?.info({ shutdown: report }, `${service} stopped`);
  return report;
}

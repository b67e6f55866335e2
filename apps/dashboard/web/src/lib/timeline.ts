import type { Step } from './types';

export interface TimelineRow {
  step: Step;
  /** Offset of the bar from the start of the first step, percent of the whole span. */
  offsetPct: number;
  /** Bar width, percent of the whole span (at least a visible sliver). */
  widthPct: number;
  /** ms from the start of the first step to this step's start. */
  startMs: number;
}

const MIN_WIDTH_PCT = 0.75;

/**
 * Steps laid out on one time axis. A step's `created_at` is when it was recorded, i.e. when it
 * finished; it started `latency_ms` earlier. Bars are placed by start and sized by latency, in
 * the order the steps were recorded.
 */
export function layoutTimeline(steps: Step[]): { rows: TimelineRow[]; spanMs: number } {
  if (steps.length === 0) return { rows: [], spanMs: 0 };
  const timed = steps.map((step) => {
    const end = Date.parse(step.created_at);
    const latency = Math.max(0, step.latency_ms || 0);
    return { step, start: end - latency, end };
  });
  const origin = Math.min(...timed.map((t) => t.start));
  const spanMs = Math.max(1, Math.max(...timed.map((t) => t.end)) - origin);
  const rows = timed.map(({ step, start, end }) => {
    const offsetPct = ((start - origin) / spanMs) * 100;
    const widthPct = Math.max(MIN_WIDTH_PCT, ((end - start) / spanMs) * 100);
    return { step, startMs: start - origin, offsetPct: Math.min(offsetPct, 100 - MIN_WIDTH_PCT), widthPct: Math.min(widthPct, 100 - Math.min(offsetPct, 100 - MIN_WIDTH_PCT)) };
  });
  return { rows, spanMs };
}

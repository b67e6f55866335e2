import { layoutTimeline } from './timeline';
import type { Step } from './types';

const step = (id: number, createdAt: string, latencyMs: number, type: Step['type'] = 'run'): Step => ({ id, type, parent_step_id: null, input: '', output: '', latency_ms: latencyMs, created_at: createdAt });

describe('layoutTimeline', () => {
  it('places each bar at its start (recorded time minus latency) and sizes it by latency', () => {
    const { rows, spanMs } = layoutTimeline([
      step(1, '2026-03-01T12:00:01.000Z', 1000),
      step(2, '2026-03-01T12:00:04.000Z', 2000),
    ]);
    expect(spanMs).toBe(4000);
    expect(rows.map((r) => [r.step.id, r.startMs, r.offsetPct, r.widthPct])).toEqual([
      [1, 0, 0, 25],
      [2, 2000, 50, 50],
    ]);
  });

  it('keeps instantaneous steps visible and inside the axis', () => {
    const { rows } = layoutTimeline([step(1, '2026-03-01T12:00:00.000Z', 500), step(2, '2026-03-01T12:00:00.500Z', 0, 'blocked')]);
    const last = rows[1];
    expect(last.widthPct).toBeGreaterThan(0);
    expect(last.offsetPct + last.widthPct).toBeLessThanOrEqual(100);
  });

  it('is empty without steps', () => {
    expect(layoutTimeline([])).toEqual({ rows: [], spanMs: 0 });
  });
});

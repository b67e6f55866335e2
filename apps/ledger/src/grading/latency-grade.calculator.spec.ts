import { makeStep } from '../summary/step-record.fixture';
import { fineStep, slowStep } from './grading.fixture';
import { assessLatency } from './latency-grade.calculator';

describe('assessLatency', () => {
  it('A: no slow unit', () => {
    expect(assessLatency([fineStep(1), fineStep(2, { latencyMs: 2_000 })]).grade).toBe('A');
    expect(assessLatency([]).grade).toBe('A');
  });

  it('B: exactly one slow unit', () => {
    const result = assessLatency([slowStep(1), fineStep(2)]);
    expect(result.grade).toBe('B');
    expect(result.findings).toEqual(['step 1: mini took 3000 ms > 2000 ms']);
  });

  it('C: two slow units among many', () => {
    expect(assessLatency([slowStep(1), slowStep(2), fineStep(3), fineStep(4), fineStep(5)]).grade).toBe('C');
  });

  it('D: a slow chain (at least half the units slow)', () => {
    expect(assessLatency([slowStep(1), slowStep(2), fineStep(3)]).grade).toBe('D');
    expect(assessLatency([slowStep(1), slowStep(2)]).grade).toBe('D');
  });

  it('F: two or more units above 5× the threshold', () => {
    const result = assessLatency([slowStep(1, 10_001), slowStep(2, 12_000), fineStep(3), fineStep(4), fineStep(5)]);
    expect(result).toMatchObject({ grade: 'F', severelySlowUnits: 2 });
  });

  it('counts tool execution time as its own unit', () => {
    const steps = [makeStep({ id: 1, type: 'tool_call', toolName: 'search', toolLatencyMs: 2_500 }), fineStep(2), fineStep(3)];
    const result = assessLatency(steps);
    expect(result).toMatchObject({ grade: 'B', timedUnits: 4, slowUnits: 1 });
    expect(result.findings).toEqual(['step 1: tool search took 2500 ms > 2000 ms']);
  });

  it('ignores check, log and blocked steps and unmeasured latencies', () => {
    const steps = [
      makeStep({ id: 1, type: 'check', latencyMs: 9_000 }),
      makeStep({ id: 2, type: 'log', latencyMs: 9_000 }),
      makeStep({ id: 3, type: 'blocked', latencyMs: 9_000 }),
      fineStep(4, { latencyMs: Number.NaN }),
    ];
    expect(assessLatency(steps)).toMatchObject({ grade: 'A', timedUnits: 0 });
  });

  it('honours a custom threshold', () => {
    expect(assessLatency([fineStep(1, { latencyMs: 600 })], 500).grade).toBe('B');
  });
});

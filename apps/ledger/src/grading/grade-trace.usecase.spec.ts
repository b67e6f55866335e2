import { DomainError } from '@gateway/errors';
import { summarizeTrace, type StepRecord, type TraceSummary } from '../summary';
import { makeStep, T0 } from '../summary/step-record.fixture';
import { gradeTrace } from './grade-trace.usecase';
import { complexStep, fineStep, REGISTRY, ROUTING_TIERS, slowStep, wastefulStep } from './grading.fixture';
import { GRADING_RULES } from '@gateway/proto';

function grade(steps: StepRecord[], summaryOverrides: Partial<TraceSummary> = {}, slowStepMs?: number) {
  const summary = { ...summarizeTrace({ createdAt: T0, revenue: 0 }, steps, () => 'cloud'), ...summaryOverrides };
  return gradeTrace({ steps, summary, registry: REGISTRY, routingTiers: ROUTING_TIERS, slowStepMs });
}

const rating = (id: number, value: unknown) => makeStep({ id, type: 'log', model: null, costUsd: 0, output: { user_rating: value } });

describe('gradeTrace overall', () => {
  it('A: right models, fast steps', () => {
    const result = grade([fineStep(1), complexStep(2), fineStep(3)]);
    expect(result).toEqual({ grades: { overall: 'A', waste: 'A', latency: 'A' }, optimization_grade: 'A', findings: [] });
  });

  it('A: an empty trace', () => {
    expect(grade([]).optimization_grade).toBe('A');
  });

  it('B: slightly over-engineered (one wasteful step)', () => {
    const result = grade([wastefulStep(1), fineStep(2), complexStep(3)]);
    expect(result.grades).toEqual({ overall: 'B', waste: 'B', latency: 'A' });
    expect(result.optimization_grade).toBe('B');
  });

  it('B: one slow step', () => {
    expect(grade([slowStep(1), fineStep(2), fineStep(3)]).grades).toEqual({ overall: 'B', waste: 'A', latency: 'B' });
  });

  it('C: two sub-optimal steps', () => {
    expect(grade([wastefulStep(1), wastefulStep(2), complexStep(3)]).grades).toEqual({ overall: 'C', waste: 'C', latency: 'A' });
  });

  it('C: waste and latency each slightly off (multiple issues lower one letter)', () => {
    const result = grade([wastefulStep(1), slowStep(2), complexStep(3), fineStep(4)]);
    expect(result.grades).toEqual({ overall: 'C', waste: 'B', latency: 'B' });
    expect(result.findings).toContain('both over-spend and slow steps: overall lowered one letter');
  });

  it('D: significant over-spend', () => {
    expect(grade([wastefulStep(1), wastefulStep(2), fineStep(3)]).grades).toEqual({ overall: 'D', waste: 'D', latency: 'A' });
  });

  it('D: a slow chain', () => {
    expect(grade([slowStep(1), slowStep(2), fineStep(3)]).grades).toEqual({ overall: 'D', waste: 'A', latency: 'D' });
  });

  it('D at worst from combined issues: F is kept for its own rules', () => {
    const steps = [wastefulStep(1), wastefulStep(2), fineStep(3, { latencyMs: 3_000 }), fineStep(4, { latencyMs: 3_000 })];
    expect(grade(steps).grades).toEqual({ overall: 'D', waste: 'D', latency: 'D' });
  });

  it('F: runaway chain (chain_depth above 5)', () => {
    const chain = Array.from({ length: 6 }, (_, index) =>
      fineStep(index + 1, { type: 'tool_call', toolName: `tool${index}`, parentStepId: index === 0 ? null : index }),
    );
    const result = grade(chain);
    expect(result.grades).toEqual({ overall: 'F', waste: 'A', latency: 'A' });
    expect(result.findings).toContain('chain depth 6 > 5: runaway tool chain');
    expect(grade(chain.slice(0, 5)).optimization_grade).toBe('A');
  });

  it('F: likely loop (stall_probability above 0.7)', () => {
    const loop = [1, 2, 3, 4].map((id) => fineStep(id, { input: 'same', output: 'same' }));
    const result = grade(loop);
    expect(result.optimization_grade).toBe('F');
    expect(result.findings.at(-1)).toMatch(/^stall probability 0\.\d+ > 0\.7: likely loop$/);
    expect(grade([fineStep(1)], { stall_probability: 0.7 }).optimization_grade).toBe('A');
  });

  it('F: wrong model for every step', () => {
    const result = grade([wastefulStep(1), wastefulStep(2), wastefulStep(3)]);
    expect(result.grades).toEqual({ overall: 'F', waste: 'F', latency: 'A' });
    expect(result.findings).toContain('wrong model for every step');
  });

  it('F: severely slow steps', () => {
    expect(grade([slowStep(1, 11_000), slowStep(2, 11_000), fineStep(3), fineStep(4), fineStep(5)]).grades).toEqual({
      overall: 'F',
      waste: 'A',
      latency: 'F',
    });
  });

  it('uses a custom slow-step threshold and rejects a bad one', () => {
    expect(grade([fineStep(1, { latencyMs: 600 }), fineStep(2)], {}, 500).grades.latency).toBe('B');
    expect(() => grade([], {}, 0)).toThrow(DomainError);
  });
});

describe('gradeTrace user ratings', () => {
  it('a poor rating lowers the overall grade', () => {
    const result = grade([fineStep(1), rating(2, 1)]);
    expect(result.grades).toEqual({ overall: 'B', waste: 'A', latency: 'A' });
    expect(result.findings[0]).toMatch(/^poor user rating/);
  });

  it('a poor rating does not push a D to F', () => {
    expect(grade([wastefulStep(1), wastefulStep(2), fineStep(3), rating(4, 0)]).optimization_grade).toBe('D');
  });

  it('a great rating can lift latency issues by one letter', () => {
    const result = grade([slowStep(1), fineStep(2), fineStep(3), rating(4, 5)]);
    expect(result.grades).toEqual({ overall: 'A', waste: 'A', latency: 'B' });
  });

  it('a great rating cannot hide waste', () => {
    const result = grade([wastefulStep(1), fineStep(2), complexStep(3), rating(4, 5)]);
    expect(result.grades.overall).toBe('B');
    expect(result.findings).toContain('great user rating does not offset over-spending');
    // with both issues, it lifts the combined penalty back, but never above the waste grade
    expect(grade([wastefulStep(1), slowStep(2), complexStep(3), fineStep(4), rating(5, 0.9)]).grades.overall).toBe('B');
  });

  it('a great rating cannot save an F', () => {
    expect(grade([wastefulStep(1), wastefulStep(2), rating(3, 5)]).optimization_grade).toBe('F');
  });

  it('a middling rating changes nothing, and ratings are averaged', () => {
    expect(grade([slowStep(1), fineStep(2), rating(3, 3)]).optimization_grade).toBe('B');
    // (1 + 0) / 2 = 0.5: middling
    expect(grade([slowStep(1), fineStep(2), rating(3, 5), rating(4, 1)]).optimization_grade).toBe('B');
  });
});

describe('GRADING_RULES', () => {
  it('states the numbers the code uses', () => {
    for (const text of ['2000 ms', '10000 ms', 'above 5 (runaway chain)', 'above\n   0.7', '90%', '400 characters', 'user_rating', 'at most 0.25', 'at least 0.75']) {
      expect(GRADING_RULES).toContain(text);
    }
    for (const letter of ['| A |', '| B |', '| C |', '| D |', '| F |']) {
      expect(GRADING_RULES.split(letter).length - 1).toBe(2); // one row per letter in each table
    }
  });
});

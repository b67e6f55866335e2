import { changedMaterially, insightCandidates, type InsightThresholds, type PatternFigures } from './insight-candidates';

const THRESHOLDS: InsightThresholds = { minComparisons: 2, equivalenceRate: 0.8, latencyP99Ms: 1000, latencyMinSamples: 3, intentSharePct: 50, intentMinSamples: 3 };
const PROJECT = { registered: new Set(['smart', 'fast', 'mid']), intentRoutes: {} };

function figures(overrides: Partial<PatternFigures> = {}): PatternFigures {
  return {
    byIntentModel: [{ intent: 'summarization', model: 'smart', calls: 10, cost: 2, p99LatencyMs: 500 }, { intent: 'general', model: 'fast', calls: 2, cost: 0.01, p99LatencyMs: 100 }],
    byIntent: [{ intent: 'summarization', calls: 10, p95LatencyMs: 400, p99LatencyMs: 500 }, { intent: 'general', calls: 2, p95LatencyMs: 90, p99LatencyMs: 100 }],
    comparisons: [],
    observedHours: 24,
    ...overrides,
  };
}

describe('insightCandidates', () => {
  it('suggests the cheapest equivalent model and projects its savings over 30 days', () => {
    const candidates = insightCandidates(
      figures({
        comparisons: [
          { intent: 'summarization', sourceModel: 'smart', replayModel: 'fast', count: 3, equivalent: 3, sourceCost: 0.3, replayCost: 0.03 },
          { intent: 'summarization', sourceModel: 'smart', replayModel: 'mid', count: 3, equivalent: 3, sourceCost: 0.3, replayCost: 0.15 },
        ],
      }),
      PROJECT,
      THRESHOLDS,
    );
    const migration = candidates.find((c) => c.insightType === 'migration_alert')!;
    expect(migration.patternKey).toBe('migration_alert:summarization:smart:fast');
    expect(migration.data).toMatchObject({ intent: 'summarization', current_model: 'smart', suggested_model: 'fast', savings_pct: 90, current_cost_usd: 2 });
    expect(migration.estimatedSavingsUsd).toBeCloseTo(2 * 0.9 * 30, 8);
  });

  it('needs enough comparisons, equivalence and a registered cheaper model', () => {
    const none = (comparison: PatternFigures['comparisons'][number]) => insightCandidates(figures({ comparisons: [comparison] }), PROJECT, THRESHOLDS).filter((c) => c.insightType === 'migration_alert');
    const base = { intent: 'summarization', sourceModel: 'smart', replayModel: 'fast', count: 3, equivalent: 3, sourceCost: 0.3, replayCost: 0.03 };
    expect(none({ ...base, count: 1, equivalent: 1 })).toEqual([]);
    expect(none({ ...base, equivalent: 2 })).toEqual([]);
    expect(none({ ...base, replayCost: 0.4 })).toEqual([]);
    expect(none({ ...base, replayModel: 'retired' })).toEqual([]);
  });

  it('raises a latency alert over the p99 threshold, slowest model first', () => {
    const [alert] = insightCandidates(
      figures({
        byIntent: [{ intent: 'code', calls: 4, p95LatencyMs: 1500, p99LatencyMs: 2000 }],
        byIntentModel: [{ intent: 'code', model: 'fast', calls: 1, cost: 0, p99LatencyMs: 200 }, { intent: 'code', model: 'smart', calls: 3, cost: 0, p99LatencyMs: 2100 }],
      }),
      PROJECT,
      { ...THRESHOLDS, intentMinSamples: 100 },
    );
    expect(alert).toMatchObject({ insightType: 'latency_alert', patternKey: 'latency_alert:code', estimatedSavingsUsd: 0, figure: 2000 });
    expect(alert.data).toMatchObject({ intent: 'code', p99_latency_ms: 2000, threshold_ms: 1000, sample_count: 4, slowest_model: 'smart' });
  });

  it('flags a dominant intent without a dedicated rule, and not once a rule exists', () => {
    const pattern = insightCandidates(figures(), PROJECT, THRESHOLDS).find((c) => c.insightType === 'intent_pattern')!;
    expect(pattern.data).toMatchObject({ intent: 'summarization', request_count: 10, total_requests: 12, models: ['smart'] });
    expect(pattern.figure).toBeCloseTo(83.3333, 4);
    expect(insightCandidates(figures(), { ...PROJECT, intentRoutes: { summarization: 'fast' } }, THRESHOLDS).some((c) => c.insightType === 'intent_pattern')).toBe(false);
  });
});

describe('changedMaterially', () => {
  it('compares the relative change with the threshold', () => {
    expect(changedMaterially(50, 60, 25)).toBe(false);
    expect(changedMaterially(50, 70, 25)).toBe(true);
    expect(changedMaterially(0, 0, 25)).toBe(false);
    expect(changedMaterially(0, 1, 25)).toBe(true);
  });
});

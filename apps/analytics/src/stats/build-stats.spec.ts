import { buildStats, type StatsSettings } from './build-stats';
import { bucketOf, LATENCY_METRICS } from './latency-sketch';
import type { PeriodRollups, StepRollupSums } from './stats.repository';

const SETTINGS: StatsSettings = { deepLoopThreshold: 2, driftSampleThreshold: 4, driftMinPeriodSamples: 2, driftAlertPct: 20 };
const PERIOD = { label: 'last_24_hours', start: new Date('2026-03-09T15:00:00Z'), end: new Date('2026-03-10T15:42:00Z'), endHour: new Date('2026-03-10T16:00:00Z') };

function row(model: string, infrastructure: string, fields: Partial<StepRollupSums>): StepRollupSums {
  return {
    model, infrastructure, steps: 0, cost: 0, modelCalls: 0, modelLatencyMs: 0, thinkCalls: 0, thinkMs: 0, toolExecs: 0, toolExecMs: 0,
    toolCallSteps: 0, toolCalls: 0, fidelitySamples: 0, fidelitySum: 0, driftSamples: 0, driftOutputChars: 0, driftRefusals: 0, driftLatencyMs: 0, ...fields,
  };
}

function rollups(overrides: Partial<PeriodRollups> = {}): PeriodRollups {
  return {
    steps: [],
    latency: new Map(),
    traces: { traces: 0, revenue: 0, piiTraces: 0, injectionTraces: 0, secretTraces: 0, completedTraces: 0, stallSum: 0, stallAlerts: 0, stallMonitors: 0 },
    chainDepths: [],
    loopInterventions: 0,
    baselines: [],
    ...overrides,
  };
}

describe('buildStats', () => {
  it('is all zeros (fidelity 1, no drift) for an empty period', () => {
    const stats = buildStats(PERIOD, rollups(), SETTINGS);
    expect(stats.period).toEqual({ label: 'last_24_hours', start: '2026-03-09T15:00:00.000Z', end: '2026-03-10T15:42:00.000Z' });
    expect(stats.latency).toEqual({ p50: 0, p95: 0, p99: 0, avgMs: 0 });
    expect(stats.cost).toEqual({ total: 0, byModel: [], byInfrastructure: [] });
    expect(stats.grossMarginPct).toBe(0);
    expect(stats.security?.toolFidelityScore).toBe(1);
    expect(stats.agent?.biasDrift).toEqual([]);
  });

  it('adds costs by model and infrastructure (largest first) and derives the margin', () => {
    const stats = buildStats(
      PERIOD,
      rollups({
        steps: [row('big', 'cloud-b', { cost: 0.3, modelCalls: 2, modelLatencyMs: 300 }), row('small', 'cloud-a', { cost: 0.1, modelCalls: 1, modelLatencyMs: 60 }), row('big', 'cloud-a', { cost: 0.05 }), row('', '', { steps: 3 })],
        traces: { traces: 4, revenue: 1, piiTraces: 1, injectionTraces: 2, secretTraces: 0, completedTraces: 2, stallSum: 1.2, stallAlerts: 1, stallMonitors: 1 },
      }),
      SETTINGS,
    );
    expect(stats.cost?.total).toBeCloseTo(0.45, 10);
    expect(stats.cost?.byModel).toEqual([{ model: 'big', cost: 0.35 }, { model: 'small', cost: 0.1 }]);
    expect(stats.cost?.byInfrastructure).toEqual([{ infrastructure: 'cloud-b', cost: 0.3 }, { infrastructure: 'cloud-a', cost: 0.15 }]);
    expect(stats.grossMargin).toBeCloseTo(0.55, 10);
    expect(stats.grossMarginPct).toBeCloseTo(55, 8);
    expect(stats.latency?.avgMs).toBe(120);
    expect(stats.security).toMatchObject({ totalRequests: 4, piiBlockRate: 25, injectionShadowRate: 50, secretLeakageRate: 0 });
    expect(stats.agent?.stall).toEqual({ avgProbability: 0.6, alertCount: 1, monitorCount: 1, alertRatePct: 25 });
  });

  it('reads percentiles from the sketch and agent figures from the sums', () => {
    const latency = new Map([
      [LATENCY_METRICS.modelCall, [{ bucket: bucketOf(100), samples: 98 }, { bucket: bucketOf(1000), samples: 2 }]],
      [LATENCY_METRICS.toolExecution, [{ bucket: bucketOf(40), samples: 1 }]],
    ]) as PeriodRollups['latency'];
    const stats = buildStats(
      PERIOD,
      rollups({
        latency,
        steps: [row('m', 'x', { thinkCalls: 2, thinkMs: 600, toolExecs: 1, toolExecMs: 200, toolCalls: 3, fidelitySamples: 2, fidelitySum: 1.5 })],
        chainDepths: [{ chainDepth: 0, traces: 2 }, { chainDepth: 3, traces: 1 }, { chainDepth: 1, traces: 1 }],
      }),
      SETTINGS,
    );
    expect(stats.latency?.p50).toBeCloseTo(100, -0.3);
    expect(Math.abs(stats.latency!.p99 - 1000) / 1000).toBeLessThanOrEqual(0.01);
    expect(stats.agent?.mcpLatency).toMatchObject({ avgModelThinkMs: 300, avgToolExecMs: 200, toolCallCount: 3, overheadRatio: 0.25 });
    expect(stats.security?.toolFidelityScore).toBe(0.75);
    expect(stats.agent?.chainDepth).toEqual({ avgToolCycles: 1, maxToolCycles: 3, deepLoopCount: 1 });
  });

  it('reports bias drift only for models past the baseline with enough later answers', () => {
    const stats = buildStats(
      PERIOD,
      rollups({
        steps: [row('m', 'x', { driftSamples: 2, driftOutputChars: 300, driftLatencyMs: 110, driftRefusals: 1 }), row('few', 'x', { driftSamples: 1, driftOutputChars: 10 })],
        baselines: [
          { model: 'm', samples: 4, outputChars: 400, refusals: 0, latencyMs: 200 },
          { model: 'few', samples: 4, outputChars: 40, refusals: 0, latencyMs: 4 },
        ],
      }),
      SETTINGS,
    );
    expect(stats.agent?.biasDrift).toEqual([
      {
        model: 'm',
        sampleCount: 2,
        outputLengthDriftPct: 50,
        refusalRateDriftPct: 50,
        latencyDriftPct: 10,
        drifting: true,
        baseline: { sampleCount: 4, avgOutputChars: 100, refusalRatePct: 0, avgLatencyMs: 50 },
        current: { sampleCount: 2, avgOutputChars: 150, refusalRatePct: 50, avgLatencyMs: 55 },
      },
    ]);
  });
});

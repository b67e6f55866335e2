import type { analytics } from '@gateway/proto';
import { LATENCY_METRICS, quantile } from './latency-sketch';
import type { PeriodRollups } from './stats.repository';
import type { StatsPeriod } from './stats-period';

export interface StatsSettings {
  /** Traces whose chain depth exceeds this count as deep loops. */
  deepLoopThreshold: number;
  /** Bias drift: baseline size (a model's first N answers) and the answers needed in the period. */
  driftSampleThreshold: number;
  driftMinPeriodSamples: number;
  /** A drift beyond this (percent or percentage points) marks the model as drifting. */
  driftAlertPct: number;
}

const usd = (value: number) => Math.round(value * 1e10) / 1e10;
const ratio = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
const pct = (part: number, whole: number) => ratio(part, whole) * 100;
const relativeChangePct = (current: number, baseline: number) => (baseline > 0 ? ((current - baseline) / baseline) * 100 : current > 0 ? 100 : 0);

/**
 * The statistics object from the period's rollups. Definitions (also in the OpenAPI document):
 * - latency: model calls (run and tool_call steps); p50/p95/p99 nearest-rank from the latency
 *   sketch (±1 % relative), avg exact.
 * - cost: every step's cost (only model calls carry one), by model and by infrastructure label.
 * - revenue: of the traces created in the period; gross_margin = revenue − cost.total;
 *   gross_margin_pct = gross_margin / revenue × 100 (0 without revenue).
 * - security: over traces created in the period (total_requests); rates in percent of them;
 *   tool_fidelity_score the mean over scored tool calls (1 when none); loop_interventions the
 *   automatic loop halts of the project's keys in the period.
 * - agent.mcp_latency: model think = model calls inside tool loops; tool exec = reported tool
 *   execution times; overhead_ratio = tool time / (tool time + think time).
 * - agent.chain_depth and agent.stall: over the completed traces created in the period.
 */
export function buildStats(period: StatsPeriod, rollups: PeriodRollups, settings: StatsSettings): analytics.Stats {
  const total = (key: keyof PeriodRollups['steps'][number]) => rollups.steps.reduce((sum, row) => sum + Number(row[key]), 0);
  const sketch = (metric: (typeof LATENCY_METRICS)[keyof typeof LATENCY_METRICS]) => rollups.latency.get(metric) ?? [];

  const byModel = new Map<string, number>();
  const byInfrastructure = new Map<string, number>();
  for (const row of rollups.steps) {
    if (!row.model) continue;
    byModel.set(row.model, (byModel.get(row.model) ?? 0) + row.cost);
    byInfrastructure.set(row.infrastructure, (byInfrastructure.get(row.infrastructure) ?? 0) + row.cost);
  }
  const costTotal = usd(total('cost'));
  const { traces } = rollups;
  const revenue = usd(traces.revenue);
  const grossMargin = usd(revenue - costTotal);

  const completedDepths = rollups.chainDepths.reduce((sum, row) => sum + row.traces, 0);
  const thinkMs = total('thinkMs');
  const toolExecMs = total('toolExecMs');

  return {
    period: { label: period.label, start: period.start.toISOString(), end: period.end.toISOString() },
    latency: {
      p50: quantile(sketch(LATENCY_METRICS.modelCall), 0.5),
      p95: quantile(sketch(LATENCY_METRICS.modelCall), 0.95),
      p99: quantile(sketch(LATENCY_METRICS.modelCall), 0.99),
      avgMs: ratio(total('modelLatencyMs'), total('modelCalls')),
    },
    cost: {
      total: costTotal,
      byModel: sortedCosts(byModel).map(([model, cost]) => ({ model, cost })),
      byInfrastructure: sortedCosts(byInfrastructure).map(([infrastructure, cost]) => ({ infrastructure, cost })),
    },
    revenue,
    grossMargin,
    grossMarginPct: revenue > 0 ? (grossMargin / revenue) * 100 : 0,
    security: {
      totalRequests: traces.traces,
      piiBlockRate: pct(traces.piiTraces, traces.traces),
      injectionShadowRate: pct(traces.injectionTraces, traces.traces),
      toolFidelityScore: total('fidelitySamples') > 0 ? total('fidelitySum') / total('fidelitySamples') : 1,
      loopInterventions: rollups.loopInterventions,
      secretLeakageRate: pct(traces.secretTraces, traces.traces),
    },
    agent: {
      mcpLatency: {
        avgModelThinkMs: ratio(thinkMs, total('thinkCalls')),
        p95ModelThinkMs: quantile(sketch(LATENCY_METRICS.modelThink), 0.95),
        avgToolExecMs: ratio(toolExecMs, total('toolExecs')),
        p95ToolExecMs: quantile(sketch(LATENCY_METRICS.toolExecution), 0.95),
        toolCallCount: total('toolCalls'),
        overheadRatio: ratio(toolExecMs, toolExecMs + thinkMs),
      },
      chainDepth: {
        avgToolCycles: ratio(rollups.chainDepths.reduce((sum, row) => sum + row.chainDepth * row.traces, 0), completedDepths),
        maxToolCycles: rollups.chainDepths.reduce((max, row) => (row.traces > 0 ? Math.max(max, row.chainDepth) : max), 0),
        deepLoopCount: rollups.chainDepths.filter((row) => row.chainDepth > settings.deepLoopThreshold).reduce((sum, row) => sum + row.traces, 0),
      },
      biasDrift: biasDrift(rollups, settings),
      stall: {
        avgProbability: ratio(traces.stallSum, traces.completedTraces),
        alertCount: traces.stallAlerts,
        monitorCount: traces.stallMonitors,
        alertRatePct: pct(traces.stallAlerts, traces.traces),
      },
    },
  };
}

function sortedCosts(costs: Map<string, number>): [string, number][] {
  return [...costs].map(([key, cost]): [string, number] => [key, usd(cost)]).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

function biasDrift(rollups: PeriodRollups, settings: StatsSettings): analytics.BiasDrift[] {
  const reports: analytics.BiasDrift[] = [];
  for (const baseline of rollups.baselines) {
    if (baseline.samples < settings.driftSampleThreshold) continue;
    const rows = rollups.steps.filter((row) => row.model === baseline.model);
    const samples = rows.reduce((sum, row) => sum + row.driftSamples, 0);
    if (samples < Math.max(1, settings.driftMinPeriodSamples)) continue;
    const base = {
      sampleCount: baseline.samples,
      avgOutputChars: baseline.outputChars / baseline.samples,
      refusalRatePct: (baseline.refusals / baseline.samples) * 100,
      avgLatencyMs: baseline.latencyMs / baseline.samples,
    };
    const current = {
      sampleCount: samples,
      avgOutputChars: rows.reduce((sum, row) => sum + row.driftOutputChars, 0) / samples,
      refusalRatePct: (rows.reduce((sum, row) => sum + row.driftRefusals, 0) / samples) * 100,
      avgLatencyMs: rows.reduce((sum, row) => sum + row.driftLatencyMs, 0) / samples,
    };
    const outputLengthDriftPct = relativeChangePct(current.avgOutputChars, base.avgOutputChars);
    const refusalRateDriftPct = current.refusalRatePct - base.refusalRatePct;
    const latencyDriftPct = relativeChangePct(current.avgLatencyMs, base.avgLatencyMs);
    reports.push({
      model: baseline.model,
      sampleCount: samples,
      outputLengthDriftPct,
      refusalRateDriftPct,
      latencyDriftPct,
      drifting: [outputLengthDriftPct, refusalRateDriftPct, latencyDriftPct].some((drift) => Math.abs(drift) > settings.driftAlertPct),
      baseline: base,
      current,
    });
  }
  return reports.sort((a, b) => a.model.localeCompare(b.model));
}

import { chainDepth } from './chain-depth.calculator';
import { percentile } from './percentile.calculator';
import { stallProbability } from './stall-probability.calculator';
import type { StepRecord, TraceSummary } from './summary.types';

/** Label used when a model has no `additional_config.infrastructure`. */
export const UNKNOWN_INFRASTRUCTURE = 'unknown';

/**
 * The trace summary of the spec (Trace → Get response):
 * - total_latency_ms: trace creation → the latest step completion (0 without steps, never < 0).
 * - total_cost: the sum of step costs. Only model calls carry a cost (check, log and blocked steps
 *   spend no tokens), so this is the spec's "sum of token costs across run steps", while still
 *   counting a tool_call step that carries the cost of the model turn that asked for the tools.
 * - latency percentiles: over every step except `log` steps, which are caller-reported events
 *   with no latency of their own and would drag the median to 0.
 * - tool_overhead_ms: sum of the tools' execution time; null when no tool was called.
 * - by_model / by_infrastructure: USD per model identifier / per infrastructure label, for every
 *   step that names a model (a $0 self-hosted model still appears).
 * USD amounts are rounded to 1e-10 to drop floating-point noise from summing many small costs.
 */
export function summarizeTrace(
  trace: { createdAt: Date; revenue: number },
  steps: StepRecord[],
  infrastructureOf: (model: string) => string,
): TraceSummary {
  const totalCost = roundUsd(steps.reduce((sum, step) => sum + safeNumber(step.costUsd), 0));
  const revenue = safeNumber(trace.revenue);
  const lastCompletion = steps.reduce((latest, step) => Math.max(latest, step.completedAt.getTime()), trace.createdAt.getTime());
  const latencies = steps.filter((step) => step.type !== 'log').map((step) => safeNumber(step.latencyMs));

  const byModel: Record<string, number> = {};
  const byInfrastructure: Record<string, number> = {};
  for (const step of steps) {
    if (!step.model) continue;
    const cost = safeNumber(step.costUsd);
    byModel[step.model] = roundUsd((byModel[step.model] ?? 0) + cost);
    const infrastructure = infrastructureOf(step.model) || UNKNOWN_INFRASTRUCTURE;
    byInfrastructure[infrastructure] = roundUsd((byInfrastructure[infrastructure] ?? 0) + cost);
  }

  return {
    total_latency_ms: lastCompletion - trace.createdAt.getTime(),
    total_cost: totalCost,
    revenue,
    gross_margin: roundUsd(revenue - totalCost),
    latency_p50: percentile(latencies, 50),
    latency_p95: percentile(latencies, 95),
    latency_p99: percentile(latencies, 99),
    step_count: steps.length,
    chain_depth: chainDepth(steps),
    tool_overhead_ms: toolOverheadMs(steps),
    stall_probability: stallProbability(steps),
    by_model: byModel,
    by_infrastructure: byInfrastructure,
  };
}

/**
 * A tool was called when there is a tool_call step or any step reports tool time. Tool rounds
 * whose execution time was never reported count as 0 ms rather than turning the total to null.
 */
export function toolOverheadMs(steps: StepRecord[]): number | null {
  const toolSteps = steps.filter((step) => step.type === 'tool_call' || step.toolLatencyMs !== null);
  if (toolSteps.length === 0) return null;
  return toolSteps.reduce((sum, step) => sum + safeNumber(step.toolLatencyMs ?? 0), 0);
}

function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}

function safeNumber(value: number): number {
  return Number.isFinite(value) ? value : 0;
}

import type { ledger } from '@gateway/proto';

/** One side of a comparison (spec: Replay job and result). */
export interface ComparisonSide {
  total_cost: number;
  optimization_grade: string | null;
  total_latency_ms: number;
  models_used: string[];
  grades: { overall: string; waste: string; latency: string } | null;
}

export function comparisonSide(detail: ledger.TraceDetail): ComparisonSide {
  const summary = detail.summary;
  const grades = summary?.grades;
  return {
    total_cost: summary?.totalCost ?? 0,
    optimization_grade: summary?.optimizationGrade || null,
    total_latency_ms: summary?.totalLatencyMs ?? 0,
    models_used: Object.keys(summary?.byModel ?? {}).sort(),
    grades: grades && grades.overall ? { overall: grades.overall, waste: grades.waste, latency: grades.latency } : null,
  };
}

export interface ReplayOutcome {
  /** The model forced on the replay (compare_models entry), null for a single replay. */
  model: string | null;
  replayTraceId: string;
  detail: ledger.TraceDetail;
  skipped: { source_step_id: number; model: string; estimated_cost: number }[];
}

/**
 * Single replay: {source, replay}. compare_models: {source, replays: [{model, ...side}]}, in the
 * order the models were listed. Steps left out by max_cost are listed per replay.
 */
export function buildComparison(source: ledger.TraceDetail, outcomes: ReplayOutcome[], compared: boolean): Record<string, unknown> {
  const sourceSide = comparisonSide(source);
  if (!compared) {
    const [only] = outcomes;
    return { source: sourceSide, replay: { ...comparisonSide(only.detail), skipped_steps: only.skipped } };
  }
  return {
    source: sourceSide,
    replays: outcomes.map((outcome) => ({ model: outcome.model, replay_trace_id: outcome.replayTraceId, ...comparisonSide(outcome.detail), skipped_steps: outcome.skipped })),
  };
}

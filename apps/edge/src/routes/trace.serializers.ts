import type { ledger } from '@gateway/proto';

/** Wire shapes of traces and steps (spec field names). */
export const traceJson = (t: ledger.Trace) => ({
  id: t.id,
  status: t.status,
  created_at: t.createdAt,
  metadata: t.metadata ?? {},
  revenue: t.revenue ?? null,
});

export const stepJson = (s: ledger.Step) => ({
  id: s.id,
  type: s.type,
  parent_step_id: s.parentStepId ?? null,
  input: s.input,
  output: s.output ?? null,
  latency_ms: s.latencyMs,
  ...(s.type === 'run' || s.type === 'tool_call' ? { model: s.model, cost: s.cost, prompt_tokens: s.promptTokens, completion_tokens: s.completionTokens } : {}),
  ...(s.type === 'blocked' ? { reason: s.blockedReason } : {}),
  ...(s.type === 'tool_call' ? { tool_calls: s.toolCalls, tool_name: s.toolName, tool_latency_ms: s.toolLatencyMs ?? null } : {}),
  ...(s.error ? { error: s.error } : {}),
  created_at: s.createdAt,
});

export const traceDetailJson = (d: ledger.TraceDetail) => ({
  ...traceJson(d.trace!),
  summary: {
    total_latency_ms: d.summary?.totalLatencyMs ?? 0,
    total_cost: d.summary?.totalCost ?? 0,
    revenue: d.summary?.revenue ?? 0,
    gross_margin: d.summary?.grossMargin ?? 0,
    latency_p50: d.summary?.latencyP50 ?? 0,
    latency_p95: d.summary?.latencyP95 ?? 0,
    latency_p99: d.summary?.latencyP99 ?? 0,
    optimization_grade: d.summary?.optimizationGrade || null,
    grades: d.summary?.grades ?? null,
    step_count: d.summary?.stepCount ?? 0,
    chain_depth: d.summary?.chainDepth ?? 0,
    tool_overhead_ms: d.summary?.toolOverheadMs ?? null,
    stall_probability: d.summary?.stallProbability ?? 0,
    by_model: d.summary?.byModel ?? {},
    by_infrastructure: d.summary?.byInfrastructure ?? {},
  },
  security: {
    pii_detected: d.security?.piiDetected ?? false,
    injection_attempt: d.security?.injectionAttempt ?? false,
    secret_leaked: d.security?.secretLeaked ?? false,
    tool_fidelity_score: d.security?.toolFidelityScore ?? 1,
    shadow_score: d.security?.shadowScore ?? null,
  },
  routing_decision: d.routingDecision ?? null,
  steps: d.steps.map(stepJson),
});

/** PATCH /traces/:id/complete: the sealed trace with its grades and cost summary. */
export const traceCompletedJson = (d: ledger.TraceDetail) => ({
  ...traceJson(d.trace!),
  completed_at: d.trace?.completedAt ?? null,
  optimization_grade: d.summary?.optimizationGrade ?? null,
  grades: d.summary?.grades ?? null,
  total_cost: d.summary?.totalCost ?? 0,
  summary: {
    total_cost: d.summary?.totalCost ?? 0,
    revenue: d.summary?.revenue ?? 0,
    gross_margin: d.summary?.grossMargin ?? 0,
    by_model: d.summary?.byModel ?? {},
    by_infrastructure: d.summary?.byInfrastructure ?? {},
  },
});

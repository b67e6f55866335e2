import type { ledger } from '@gateway/proto';
import type { ShadowResult as ShadowRow, Step as StepRow } from './generated/prisma/client';
import { isStallFlagged } from './summary';
import type { TraceView } from './traces/trace-view';
import type { TraceHeader } from './traces/trace.repository';

/** Rows and views of the ledger → its gRPC contract (gateway.ledger.v1). */
export function toTrace(row: TraceHeader): ledger.Trace {
  return {
    id: row.id,
    projectId: Number(row.projectId),
    status: row.status,
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    revenue: row.revenue ?? undefined,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString(),
  };
}

export function toStep(row: StepRow): ledger.Step {
  return {
    id: Number(row.id),
    traceId: row.traceId,
    type: row.type,
    parentStepId: row.parentStepId === null ? undefined : Number(row.parentStepId),
    input: row.input,
    output: row.output ?? undefined,
    model: row.model,
    tier: row.tier,
    cost: row.cost,
    latencyMs: row.latencyMs,
    promptTokens: row.promptTokens,
    completionTokens: row.completionTokens,
    blockedReason: row.blockedReason,
    toolCalls: (row.toolCalls as unknown as ledger.ToolCall[]) ?? [],
    toolName: row.toolName,
    toolLatencyMs: row.toolLatencyMs ?? undefined,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    conversationJson: row.conversationJson ?? '',
    offeredTools: (row.offeredTools as Record<string, unknown> | null) ?? undefined,
    infrastructure: row.infrastructure,
    cachedTokens: row.cachedTokens,
    toolFidelityScore: row.toolFidelityScore ?? undefined,
    piiDetected: row.piiDetected,
    injectionAttempt: row.injectionAttempt,
    secretLeaked: row.secretLeaked,
    riskScore: row.riskScore,
    startedAt: row.startedAt?.toISOString() ?? '',
    retentionUntil: row.retentionUntil.toISOString(),
  };
}

export function toTraceDetail(view: TraceView): ledger.TraceDetail {
  const { summary, security, grades } = view;
  return {
    trace: toTrace(view.trace),
    summary: {
      totalLatencyMs: summary.total_latency_ms,
      totalCost: summary.total_cost,
      revenue: summary.revenue,
      grossMargin: summary.gross_margin,
      latencyP50: summary.latency_p50,
      latencyP95: summary.latency_p95,
      latencyP99: summary.latency_p99,
      optimizationGrade: grades?.overall ?? '',
      grades: grades ?? undefined,
      stepCount: summary.step_count,
      chainDepth: summary.chain_depth,
      toolOverheadMs: summary.tool_overhead_ms ?? undefined,
      stallProbability: summary.stall_probability,
      byModel: summary.by_model ?? {},
      byInfrastructure: summary.by_infrastructure ?? {},
      gradeFindings: view.findings,
      stallFlagged: isStallFlagged(summary.stall_probability),
    },
    security: {
      piiDetected: security.piiDetected,
      injectionAttempt: security.injectionAttempt,
      secretLeaked: security.secretLeaked,
      toolFidelityScore: security.toolFidelityScore,
      shadowScore: security.shadowScore ?? undefined,
    },
    routingDecision: view.routingDecision ?? undefined,
    steps: view.steps.map(toStep),
  };
}

export function toShadowResult(row: ShadowRow): ledger.ShadowResult {
  return {
    id: Number(row.id),
    traceId: row.traceId,
    stepId: Number(row.stepId),
    shadowModel: row.shadowModel,
    score: row.score,
    shadowCost: row.shadowCost,
    shadowLatencyMs: row.shadowLatencyMs,
    createdAt: row.createdAt.toISOString(),
  };
}

import type { CallContext, ServiceHandlers } from '@gateway/grpc';
import { DomainError } from '@gateway/errors';
import type { ledger } from '@gateway/proto';
import type { Step as StepRow, Trace as TraceRow } from './generated/prisma/client';
import type { RecordStepUseCase } from './steps/record-step.usecase';
import type { TracesUseCase } from './traces/traces.usecase';

/** The project a call may act on: an API key's own project, or the one a service names. */
function projectOf(ctx: CallContext, requested: number): number {
  if (ctx.principal.kind === 'api_key') {
    if (requested && requested !== ctx.principal.projectId) throw new DomainError('NOT_FOUND', 'Not found');
    return ctx.principal.projectId;
  }
  if (!requested) throw new DomainError('BAD_REQUEST', 'project_id is required');
  return requested;
}

export function toTrace(row: TraceRow): ledger.Trace {
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
  };
}

export function ledgerHandlers(useCases: { traces: TracesUseCase; recordStep: RecordStepUseCase }): Partial<ServiceHandlers<typeof ledger.LedgerServiceService>> {
  const { traces, recordStep } = useCases;
  return {
    createTrace: async (req, ctx) =>
      toTrace(await traces.create(projectOf(ctx, req.projectId), { metadata: req.metadata, revenue: req.revenue, status: req.status, sourceTraceId: req.sourceTraceId })),
    getTrace: async (req, ctx) => {
      const detail = await traces.get(projectOf(ctx, req.projectId), req.traceId);
      const { summary } = detail;
      const lastRun = [...detail.steps].reverse().find((s) => s.type === 'run' && s.model);
      return {
        trace: toTrace(detail.trace),
        summary: {
          totalLatencyMs: summary.total_latency_ms,
          totalCost: summary.total_cost,
          revenue: summary.revenue,
          grossMargin: summary.gross_margin,
          latencyP50: summary.latency_p50,
          latencyP95: summary.latency_p95,
          latencyP99: summary.latency_p99,
          optimizationGrade: detail.trace.optimizationGrade ?? '',
          grades: undefined,
          stepCount: summary.step_count,
          chainDepth: summary.chain_depth,
          toolOverheadMs: summary.tool_overhead_ms ?? undefined,
          stallProbability: summary.stall_probability,
          byModel: summary.by_model,
          byInfrastructure: summary.by_infrastructure,
        },
        security: { ...detail.security, shadowScore: detail.security.shadowScore ?? undefined },
        routingDecision: lastRun ? { tier: lastRun.tier, model: lastRun.model } : undefined,
        steps: detail.steps.map(toStep),
      };
    },
    listTraces: async (req, ctx) => {
      const page = await traces.list(projectOf(ctx, req.projectId), { page: req.page, perPage: req.perPage, status: req.status || undefined });
      return { traces: page.traces.map(toTrace), page: page.page, perPage: page.perPage, total: page.total, totalPages: page.totalPages };
    },
    recordStep: async (req, ctx) =>
      toStep(
        await recordStep.execute(projectOf(ctx, req.projectId), {
          ...req,
          parentStepId: req.parentStepId,
          toolCalls: req.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments ?? {} })),
          toolLatencyMs: req.toolLatencyMs,
          toolFidelityScore: req.toolFidelityScore,
        }),
      ),
  };
}

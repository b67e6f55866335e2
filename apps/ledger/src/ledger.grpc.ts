import { answerEach, projectOfCall, type CallContext, type ServiceHandlers } from '@gateway/grpc';
import { DomainError } from '@gateway/errors';
import type { common, ledger } from '@gateway/proto';
import { toShadowResult, toStep, toTrace, toTraceDetail } from './ledger.mappers';
import type { DeleteProjectDataUseCase } from './projects/delete-project-data.usecase';
import type { RecordShadowResultUseCase } from './shadow/record-shadow-result.usecase';
import type { GetStepUseCase } from './steps/get-step.usecase';
import { traceNotOwned, type RecordStepUseCase } from './steps/record-step.usecase';
import type { CompleteTraceUseCase } from './traces/complete-trace.usecase';
import type { TracesUseCase } from './traces/traces.usecase';

/** Internal-only methods: an API key of an internal team may not call them. */
export const LEDGER_SERVICE_ONLY_METHODS: ReadonlySet<string> = new Set(['/gateway.ledger.v1.LedgerService/DeleteProjectData']);

/** The project a call may act on (the shared rule); a step on a trace of another key's project is a foreign trace. */
const projectOf = (ctx: CallContext, requested: number, actor: common.Actor | undefined, notOwned?: () => DomainError): number =>
  projectOfCall(ctx, requested, { actor, notOwned });

export interface LedgerUseCases {
  traces: TracesUseCase;
  completeTrace: CompleteTraceUseCase;
  recordStep: RecordStepUseCase;
  getStep: GetStepUseCase;
  recordShadowResult: RecordShadowResultUseCase;
  deleteProjectData: DeleteProjectDataUseCase;
}

type UnaryHandlers = Omit<ServiceHandlers<typeof ledger.LedgerServiceService>, 'recordSteps' | 'getTraceHeaders'>;

/**
 * Thin adapter: proto in, one use case, proto out. The batch methods answer each item through
 * its unary handler (same authorization, validation and errors; the items meet in the
 * repositories' group commit).
 */
export function ledgerHandlers(useCases: LedgerUseCases): ServiceHandlers<typeof ledger.LedgerServiceService> {
  const unary = unaryHandlers(useCases);
  return {
    ...unary,
    recordSteps: async (req, ctx) => ({ results: (await answerEach(req.steps, ctx, unary.recordStep)).map(({ value, error }) => ({ step: value, error })) }),
    getTraceHeaders: async (req, ctx) => ({ results: (await answerEach(req.refs, ctx, unary.getTraceHeader)).map(({ value, error }) => ({ trace: value, error })) }),
  };
}

function unaryHandlers(useCases: LedgerUseCases): UnaryHandlers {
  const { traces, completeTrace, recordStep, getStep, recordShadowResult, deleteProjectData } = useCases;
  return {
    createTrace: async (req, ctx) =>
      toTrace(await traces.create(projectOf(ctx, req.projectId, req.actor), { metadata: req.metadata, revenue: req.revenue, status: req.status, sourceTraceId: req.sourceTraceId })),
    getTrace: async (req, ctx) => toTraceDetail(await traces.get(projectOf(ctx, req.projectId, req.actor), req.traceId)),
    getTraceHeader: async (req, ctx) => toTrace(await traces.header(projectOf(ctx, req.projectId, req.actor), req.traceId)),
    listTraces: async (req, ctx) => {
      const page = await traces.list(projectOf(ctx, req.projectId, req.actor), { page: req.page, perPage: req.perPage, status: req.status || undefined });
      return { traces: page.traces.map(toTrace), page: page.page, perPage: page.perPage, total: page.total, totalPages: page.totalPages };
    },
    completeTrace: async (req, ctx) => toTraceDetail(await completeTrace.execute(projectOf(ctx, req.projectId, req.actor), req.traceId)),
    recordStep: async (req, ctx) =>
      toStep(
        await recordStep.execute(projectOf(ctx, req.projectId, req.actor, traceNotOwned), {
          traceId: req.traceId,
          type: req.type,
          parentStepId: req.parentStepId,
          input: req.input,
          output: req.output,
          model: req.model,
          tier: req.tier,
          infrastructure: req.infrastructure,
          cost: req.cost,
          latencyMs: req.latencyMs,
          promptTokens: req.promptTokens,
          completionTokens: req.completionTokens,
          cachedTokens: req.cachedTokens,
          blockedReason: req.blockedReason,
          toolCalls: req.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments ?? {} })),
          toolName: req.toolName,
          toolLatencyMs: req.toolLatencyMs,
          piiDetected: req.piiDetected,
          injectionAttempt: req.injectionAttempt,
          secretLeaked: req.secretLeaked,
          riskScore: req.riskScore,
          toolFidelityScore: req.toolFidelityScore,
          error: req.error,
          idempotencyKey: req.idempotencyKey,
          startedAt: req.startedAt,
          offeredTools: req.offeredTools,
          conversationJson: req.conversationJson,
          retentionDays: req.retentionDays,
        }),
      ),
    getStep: async (req, ctx) => toStep(await getStep.execute(projectOf(ctx, req.projectId, req.actor), req.stepId, req.traceId || undefined)),
    recordShadowResult: async (req, ctx) =>
      toShadowResult(
        await recordShadowResult.execute(projectOf(ctx, req.projectId, req.actor, traceNotOwned), {
          traceId: req.traceId,
          stepId: req.stepId,
          shadowModel: req.shadowModel,
          score: req.score,
          shadowCost: req.shadowCost,
          shadowLatencyMs: req.shadowLatencyMs,
        }),
      ),
    deleteProjectData: async (req, ctx) => {
      if (ctx.principal.kind !== 'service') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
      if (!req.projectId) throw new DomainError('BAD_REQUEST', 'project_id is required');
      const deleted = await deleteProjectData.execute(req.projectId);
      return { tracesDeleted: deleted.tracesDeleted, stepsDeleted: deleted.stepsDeleted };
    },
  };
}

import { DomainError } from '@gateway/errors';
import type { CallContext, ServiceHandlers } from '@gateway/grpc';
import type { replay } from '@gateway/proto';
import type { GetReplayJobUseCase } from './jobs/get-replay-job.usecase';
import type { RequestReplayUseCase } from './jobs/request-replay.usecase';

/** An API key acts on its own project only; a service names the project (edge: the key's). */
function projectOf(ctx: CallContext, requested: number): number {
  if (ctx.principal.kind === 'api_key') {
    if (requested && requested !== ctx.principal.projectId) throw new DomainError('NOT_FOUND', 'Not found');
    return ctx.principal.projectId;
  }
  if (!requested || requested < 1) throw new DomainError('BAD_REQUEST', 'project_id is required');
  return requested;
}

/** Thin adapter: proto in, one use case, proto out. */
export function replayHandlers(useCases: { request: RequestReplayUseCase; get: GetReplayJobUseCase }): ServiceHandlers<typeof replay.ReplayServiceService> {
  return {
    requestReplay: async (req, ctx) => {
      const o = req.overrides;
      const answer = await useCases.request.execute(projectOf(ctx, req.projectId), req.actor, req.traceId, {
        forceModel: o?.forceModel,
        compareModels: o?.compareModels ?? [],
        forceModels: o?.forceModels ?? [],
        maxCost: o?.maxCost,
      });
      return answer.kind === 'cached'
        ? { jobId: answer.jobId, status: 'completed', cached: true, result: answer.result, error: '' }
        : { jobId: answer.jobId, status: answer.status, cached: false, result: undefined, error: '' };
    },
    getReplayJob: async (req, ctx) => {
      const job = await useCases.get.execute(projectOf(ctx, req.projectId), req.jobId);
      return { jobId: job.jobId, status: job.status, cached: false, result: job.status === 'completed' ? job.result : undefined, error: job.error ?? '' };
    },
  };
}

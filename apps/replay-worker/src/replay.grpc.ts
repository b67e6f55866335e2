import { projectOfCall, type ServiceHandlers } from '@gateway/grpc';
import type { replay } from '@gateway/proto';
import type { GetReplayJobUseCase } from './jobs/get-replay-job.usecase';
import type { RequestReplayUseCase } from './jobs/request-replay.usecase';

/** Thin adapter: proto in, one use case, proto out. */
export function replayHandlers(useCases: { request: RequestReplayUseCase; get: GetReplayJobUseCase }): ServiceHandlers<typeof replay.ReplayServiceService> {
  return {
    requestReplay: async (req, ctx) => {
      const o = req.overrides;
      const answer = await useCases.request.execute(projectOfCall(ctx, req.projectId), req.actor, req.traceId, {
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
      const job = await useCases.get.execute(projectOfCall(ctx, req.projectId), req.jobId);
      return { jobId: job.jobId, status: job.status, cached: false, result: job.status === 'completed' ? job.result : undefined, error: job.error ?? '' };
    },
  };
}

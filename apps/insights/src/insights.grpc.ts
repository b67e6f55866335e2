import { DomainError } from '@gateway/errors';
import { projectOfCall, type ServiceHandlers } from '@gateway/grpc';
import type { insights } from '@gateway/proto';
import type { InsightsUseCase } from './refresh/insights.usecase';

/** Thin adapter: proto in, one use case, proto out. */
export function insightsHandlers(useCase: InsightsUseCase): ServiceHandlers<typeof insights.InsightsServiceService> {
  return {
    listInsights: async (req, ctx) => ({ insights: await useCase.list(projectOfCall(ctx, req.projectId)) }),
    refreshInsights: async (req, ctx) => ({ computed: await useCase.refresh(projectOfCall(ctx, req.projectId)) }),
    dismissInsight: async (req, ctx) => {
      if (!req.insightId || req.insightId < 1) throw new DomainError('NOT_FOUND', 'Not found');
      return useCase.dismiss(projectOfCall(ctx, req.projectId), req.insightId);
    },
  };
}

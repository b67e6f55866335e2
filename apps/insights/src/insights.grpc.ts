import { DomainError } from '@gateway/errors';
import type { CallContext, ServiceHandlers } from '@gateway/grpc';
import type { insights } from '@gateway/proto';
import type { InsightsUseCase } from './refresh/insights.usecase';

/** An API key acts on its own project only; a service (edge, after the session check) names it. */
function projectOf(ctx: CallContext, requested: number): number {
  if (ctx.principal.kind === 'api_key') {
    if (requested && requested !== ctx.principal.projectId) throw new DomainError('NOT_FOUND', 'Not found');
    return ctx.principal.projectId;
  }
  if (!requested || requested < 1) throw new DomainError('BAD_REQUEST', 'project_id is required');
  return requested;
}

/** Thin adapter: proto in, one use case, proto out. */
export function insightsHandlers(useCase: InsightsUseCase): ServiceHandlers<typeof insights.InsightsServiceService> {
  return {
    listInsights: async (req, ctx) => ({ insights: await useCase.list(projectOf(ctx, req.projectId)) }),
    refreshInsights: async (req, ctx) => ({ computed: await useCase.refresh(projectOf(ctx, req.projectId)) }),
    dismissInsight: async (req, ctx) => {
      if (!req.insightId || req.insightId < 1) throw new DomainError('NOT_FOUND', 'Not found');
      return useCase.dismiss(projectOf(ctx, req.projectId), req.insightId);
    },
  };
}

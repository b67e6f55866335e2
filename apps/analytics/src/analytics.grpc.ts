import { DomainError } from '@gateway/errors';
import type { CallContext, ServiceHandlers } from '@gateway/grpc';
import type { analytics } from '@gateway/proto';
import type { GetStatsUseCase } from './stats/get-stats.usecase';

/** An API key reads its own project only (another one is indistinguishable from a missing one). */
function projectOf(ctx: CallContext, requested: number): number {
  if (ctx.principal.kind === 'api_key') {
    if (requested && requested !== ctx.principal.projectId) throw new DomainError('NOT_FOUND', 'Not found');
    return ctx.principal.projectId;
  }
  if (!requested || requested < 1) throw new DomainError('BAD_REQUEST', 'project_id is required');
  return requested;
}

/** Thin adapter: proto in, one use case, proto out. */
export function analyticsHandlers(getStats: GetStatsUseCase): ServiceHandlers<typeof analytics.AnalyticsServiceService> {
  return {
    getStats: async (req, ctx) =>
      getStats.execute(projectOf(ctx, req.projectId), { windowHours: req.windowHours, startDate: req.startDate || undefined, endDate: req.endDate || undefined }),
  };
}

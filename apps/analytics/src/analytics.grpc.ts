import { projectOfCall, type ServiceHandlers } from '@gateway/grpc';
import type { analytics } from '@gateway/proto';
import type { GetStatsUseCase } from './stats/get-stats.usecase';

/** Thin adapter: proto in, one use case, proto out. */
export function analyticsHandlers(getStats: GetStatsUseCase): ServiceHandlers<typeof analytics.AnalyticsServiceService> {
  return {
    getStats: async (req, ctx) =>
      getStats.execute(projectOfCall(ctx, req.projectId), { windowHours: req.windowHours, startDate: req.startDate || undefined, endDate: req.endDate || undefined }),
  };
}

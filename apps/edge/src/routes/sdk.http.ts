import { Router, type RequestHandler } from 'express';
import type { EdgeEnv } from '../env';

/**
 * GET /api/v1/sdk/config: what client libraries read at start-up. The spec leaves the shape open;
 * these are the capability flags and limits a client needs to behave (see OpenAPI).
 */
export function sdkRoutes(env: EdgeEnv, access: RequestHandler[]): Router {
  const router = Router();
  router.get('/api/v1/sdk/config', ...access, (req, res) => {
    res.json({
      version: env.GATEWAY_VERSION,
      project_id: req.key!.projectId,
      features: { streaming: true, tool_calls: true, mcp_tools: true, simulate: true, replay: true, offline_testing: false },
      limits: {
        requests_per_hour: env.RATE_LIMIT_PER_HOUR,
        loop_guard: { max_requests: env.LOOP_GUARD_MAX_REQUESTS, window_ms: env.LOOP_GUARD_WINDOW_MS },
        hourly_limit_usd: req.key!.hourlyLimit,
        trace_page_size_max: 100,
      },
    });
  });
  return router;
}

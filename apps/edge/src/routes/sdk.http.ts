import { Router, type RequestHandler } from 'express';
import type { ProjectPolicyCache } from '@gateway/grpc';
import type { EdgeEnv } from '../env';
import { settingsOf } from '../execution/project-policy';
import { handle } from './async-handler';

/**
 * For client libraries and the private-network agent (API key):
 *   GET /api/v1/sdk/config: capability flags and limits, read at start-up (the spec leaves the
 *     shape open; see OpenAPI);
 *   GET /api/v1/sdk/policy: the project's guardrail rules, risk threshold and routing tiers, which
 *     the agent applies inside the consumer's network. Authenticated but not metered: an agent
 *     refreshes it every ~30 s per key and that must not eat the key's hourly request budget.
 */
export function sdkRoutes(env: EdgeEnv, access: RequestHandler[], authenticate: RequestHandler, policies: Pick<ProjectPolicyCache, 'get'>): Router {
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

  router.get('/api/v1/sdk/policy', authenticate, handle(async (req, res) => {
    const settings = settingsOf(await policies.get(req.key!.projectId));
    const rules = settings.policy_rules ?? {};
    const tiers = settings.routing_tiers ?? {};
    res.json({
      project_id: req.key!.projectId,
      risk_threshold: typeof settings.risk_threshold === 'number' ? settings.risk_threshold : 0.7,
      routing_tiers: { simple: tiers.simple ?? null, complex: tiers.complex ?? null, secure: tiers.secure ?? null },
      policy_rules: { blocked_terms: rules.blocked_terms ?? [], blocked_patterns: rules.blocked_patterns ?? [], blocked_topics: rules.blocked_topics ?? [] },
    });
  }));
  return router;
}

import { Router, type Request, type Response } from 'express';
import type { Logger } from '@gateway/logging';
import type { Counter } from 'prom-client';
import type { GatewayForwarder } from '../forwarding/gateway.forwarder';
import type { PolicySource } from '../policy/policy.source';
import type { BlockResponder } from '../screening/block.responder';
import { screenRequest } from '../screening/screen-request.usecase';
import { SCREENED_ROUTES, type ScreenedEndpoint } from '../screening/screened-endpoints';

export interface ScreeningDependencies {
  policies: PolicySource;
  forwarder: GatewayForwarder;
  blocks: BlockResponder;
  logger: Logger;
  outcomes: Counter<'endpoint' | 'outcome'>;
}

function rawBody(req: Request): Buffer | undefined {
  return Buffer.isBuffer(req.body) ? req.body : undefined;
}

/** The payload whose texts are screened: the JSON body, or the query of the stream endpoint. */
function payloadOf(endpoint: ScreenedEndpoint, req: Request): { ok: true; payload: unknown } | { ok: false } {
  if (endpoint === 'stream') return { ok: true, payload: req.query };
  const body = rawBody(req);
  if (!body || body.length === 0) return { ok: true, payload: {} };
  try {
    return { ok: true, payload: JSON.parse(body.toString('utf8')) };
  } catch {
    return { ok: false };
  }
}

/**
 * Screened endpoints: the caller's key fetches the project's policy, the policy is applied
 * here, and only requests it allows are forwarded. A blocked request's content never leaves.
 */
export function screenedRoutes(deps: ScreeningDependencies): Router {
  const router = Router();
  for (const route of SCREENED_ROUTES) {
    const handler = async (req: Request, res: Response) => {
      const authorization = req.headers.authorization;
      if (!authorization || !/^Bearer\s+\S+/i.test(authorization)) {
        deps.outcomes.inc({ endpoint: route.endpoint, outcome: 'unauthenticated' });
        res.status(401).json({ error: 'Unauthorized' });
        return;
      }
      const parsed = payloadOf(route.endpoint, req);
      if (!parsed.ok) {
        res.status(400).json({ error: 'Malformed JSON body' });
        return;
      }
      const lookup = await deps.policies.get(authorization);
      if (lookup.kind === 'refused') {
        deps.outcomes.inc({ endpoint: route.endpoint, outcome: 'key_refused' });
        res.status(lookup.status).json(lookup.body ?? { error: 'Unauthorized' });
        return;
      }
      if (lookup.kind === 'unavailable') {
        deps.outcomes.inc({ endpoint: route.endpoint, outcome: 'policy_unavailable' });
        deps.logger.warn({ endpoint: route.endpoint, reason: lookup.reason }, 'no project policy: request held back');
        res.status(503).json({ error: lookup.reason });
        return;
      }
      let decision;
      try {
        decision = screenRequest(route.endpoint, parsed.payload, lookup.policy);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        res.status(400).json({ error: 'Request body is nested too deeply' });
        return;
      }
      if (decision.action === 'forward') {
        deps.outcomes.inc({ endpoint: route.endpoint, outcome: 'forwarded' });
        await deps.forwarder.forward(req, res, rawBody(req));
        return;
      }
      deps.outcomes.inc({ endpoint: route.endpoint, outcome: 'blocked' });
      // Rule ids and the project only: logs must not carry the content either.
      deps.logger.info({ endpoint: route.endpoint, projectId: lookup.policy.source.projectId, rules: decision.ruleIds, riskScore: decision.riskScore }, 'request blocked in the private network');
      const answer = await deps.blocks.answer(route.endpoint, parsed.payload, decision, authorization);
      res.status(answer.status).json(answer.body);
    };
    const wrapped = (req: Request, res: Response, next: (error?: unknown) => void) => void handler(req, res).catch(next);
    if (route.method === 'GET') router.get(route.path, wrapped);
    else router.post(route.path, wrapped);
  }
  return router;
}

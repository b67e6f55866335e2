import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@gateway/logging';
import type { ServiceMetrics } from '@gateway/telemetry';
import { Counter } from 'prom-client';
import type { AgentEnv } from './env';
import type { GatewayForwarder } from './forwarding/gateway.forwarder';
import type { PolicySource } from './policy/policy.source';
import { screenedRoutes } from './routes/screened.http';
import type { BlockResponder } from './screening/block.responder';

export interface AgentDependencies {
  policies: PolicySource;
  forwarder: GatewayForwarder;
  blocks: BlockResponder;
}

/**
 * The agent's HTTP surface: the gateway's API shape at a private address. `/up` is the agent's
 * own health; screened endpoints pass the local policy first; everything else is relayed as is.
 */
export function createAgentApp(env: AgentEnv, deps: AgentDependencies, logger: Logger, metrics: ServiceMetrics): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  const outcomes = new Counter({
    name: 'agent_screened_requests_total',
    help: 'Screened requests by endpoint and outcome (forwarded, blocked, policy_unavailable, key_refused, unauthenticated)',
    labelNames: ['endpoint', 'outcome'] as const,
    registers: [metrics.registry],
  });

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      metrics.requests.inc({ method: req.method, status: String(res.statusCode) });
      metrics.duration.observe({ method: req.method }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  });

  app.get('/up', (_req, res) => {
    res.json({ status: 'ok', version: env.AGENT_VERSION });
  });

  // Bodies stay raw: forwarded byte for byte; screened routes parse their own copy.
  app.use(express.raw({ type: () => true, limit: env.AGENT_BODY_LIMIT }));
  app.use(screenedRoutes({ ...deps, logger, outcomes }));
  app.use((req, res, next) => void deps.forwarder.forward(req, res, Buffer.isBuffer(req.body) ? req.body : undefined).catch(next));

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { type?: string; status?: number }).type === 'entity.too.large' ? 413 : 500;
    if (status === 500) logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(status).json({ error: status === 413 ? 'Request body too large' : 'Internal server error' });
  });
  return app;
}

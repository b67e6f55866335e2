import express, { type Express } from 'express';
import type { ProjectPolicyCache } from '@gateway/grpc';
import { errorHandler, notFoundHandler } from '@gateway/http';
import type { Logger } from '@gateway/logging';
import { extractTraceContext, getTracer, inSpan, SpanKind, startRequest, type ServiceMetrics } from '@gateway/telemetry';
import type { ApiKeyAuthenticator } from './auth/api-key.middleware';
import type { EdgeClients } from './clients';
import type { EdgeEnv } from './env';
import type { ExecutionPipeline } from './execution/execution.usecase';
import { buildOpenApiDocument } from './openapi/openapi.document';
import type { ProtectionGuard } from './protection';
import { apiKeyAccess } from './routes/api-key-access';
import { auditRoutes } from './routes/audit.http';
import { executionRoutes } from './routes/executions.http';
import { insightRoutes } from './routes/insights.http';
import { sdkRoutes } from './routes/sdk.http';
import { keyRoutes } from './routes/keys.http';
import { memberRoutes } from './routes/members.http';
import { modelRoutes } from './routes/models.http';
import { organizationRoutes } from './routes/organization.http';
import { projectRoutes } from './routes/projects.http';
import { replayRoutes } from './routes/replay.http';
import { sessionRoutes } from './routes/session.http';
import { statsRoutes } from './routes/stats.http';
import { traceRoutes } from './routes/traces.http';

export interface EdgeDependencies {
  clients: EdgeClients;
  keys: ApiKeyAuthenticator;
  guard: ProtectionGuard;
  pipeline: ExecutionPipeline;
  policies: ProjectPolicyCache;
}

/** The public REST API: authentication, validation and mapping onto the gRPC services. */
export function createEdgeApp(env: EdgeEnv, deps: EdgeDependencies, logger: Logger, metrics: ServiceMetrics): Express {
  const { clients } = deps;
  const app = express();
  const tracer = getTracer('edge');
  app.disable('x-powered-by');
  app.set('trust proxy', env.EDGE_TRUST_PROXY.split(',').map((entry) => entry.trim()));

  // One SERVER span per request, continuing an incoming traceparent.
  app.use((req, res, next) => {
    const request = startRequest(metrics, req.method);
    const route = `${req.method} ${req.path}`;
    void inSpan(tracer, `${req.method} ${req.path}`, SpanKind.SERVER, extractTraceContext(req.headers as Record<string, string>), () =>
      new Promise<void>((resolve) => {
        res.on('finish', () => {
          // 5xx are ours; 4xx are the caller's and only counted by status.
          request.finish(String(res.statusCode), res.statusCode >= 500 ? String(res.statusCode) : undefined);
          resolve();
        });
        res.on('close', () => {
          // A client that hung up before the end (SSE) is not a server error.
          request.finish(res.writableFinished ? String(res.statusCode) : 'aborted');
          resolve();
        });
        next();
      }),
      { 'http.request.method': req.method, 'url.path': route },
    );
  });
  app.use(express.json({ limit: env.JSON_BODY_LIMIT }));

  app.get('/up', (_req, res) => {
    res.json({ status: 'ok', version: env.GATEWAY_VERSION });
  });
  const openApi = buildOpenApiDocument(env.GATEWAY_VERSION);
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });

  app.use(sessionRoutes(clients, env));
  app.use(projectRoutes(clients));
  app.use(keyRoutes(clients));
  app.use(modelRoutes(clients));
  app.use(memberRoutes(clients));
  app.use(auditRoutes(clients));
  app.use(organizationRoutes(clients));
  app.use(insightRoutes(clients));
  const access = apiKeyAccess(deps.keys, deps.guard);
  app.use(traceRoutes(clients, access));
  app.use(statsRoutes(clients, access));
  app.use(replayRoutes(clients, access));
  app.use(executionRoutes(deps.pipeline, access, logger));
  app.use(sdkRoutes(env, access, deps.keys.middleware(), deps.policies));
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, type Logger } from '@gateway/logging';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { createEdgeApp } from './app';
import { createEdgeClients } from './clients';
import type { EdgeEnv } from './env';

export interface RunningEdge {
  port: number;
  opsPort: number;
  stop(): Promise<void>;
}

export async function startEdge(env: EdgeEnv, overrides: { logger?: Logger; embedded?: boolean } = {}): Promise<RunningEdge> {
  initTelemetry({ service: 'edge' });
  const logger = overrides.logger ?? createLogger({ service: 'edge', level: env.LOG_LEVEL });
  const clients = createEdgeClients(env);
  const metrics = createServiceMetrics('edge', !overrides.embedded);
  const { app } = createEdgeApp(env, clients, logger, metrics);
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(env.EDGE_PORT, env.EDGE_HOST, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  server.keepAliveTimeout = 65_000;
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.EDGE_OPS_PORT, registry: metrics.registry, isReady: () => true, version: env.GATEWAY_VERSION });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, opsPort: ops.port }, 'edge listening');
  return {
    port,
    opsPort: ops.port,
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await ops.close();
      clients.close();
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { edgeEnvSchema as envSchema } from './env';
export { startEdge as start };

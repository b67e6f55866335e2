import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { createLogger, type Logger } from '@gateway/logging';
import { createServiceMetrics, startOpsServer } from '@gateway/telemetry';
import type { DashboardEnv } from './env';
import { createDashboardApp } from './server/dashboard.app';
import { EdgeProxy } from './server/edge.proxy';
import { loadStaticAssets } from './server/static-assets';

export interface RunningDashboard {
  port: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface DashboardOverrides {
  logger?: Logger;
  embedded?: boolean;
}

/**
 * The web console: serves the built single-page app and relays the public API to the edge on
 * the same origin, so the browser holds only the edge's HttpOnly session cookie.
 */
export async function startDashboard(env: DashboardEnv, overrides: DashboardOverrides = {}): Promise<RunningDashboard> {
  const logger = overrides.logger ?? createLogger({ service: 'dashboard', level: env.LOG_LEVEL });
  const metrics = createServiceMetrics('dashboard', !overrides.embedded);
  // The bundle (dist/apps/dashboard/{main,service}.js) sits beside the built console (web/).
  const assets = loadStaticAssets(resolve(env.DASHBOARD_WEB_DIR ?? join(__dirname, 'web')));
  const proxy = new EdgeProxy({ edgeUrl: env.EDGE_URL, headersTimeoutMs: env.DASHBOARD_UPSTREAM_TIMEOUT_MS }, logger);
  const app = createDashboardApp({ assets, proxy, trustProxy: env.DASHBOARD_TRUST_PROXY }, logger, metrics);

  const server: Server = await new Promise((resolveServer, reject) => {
    const listening = app.listen(env.DASHBOARD_PORT, env.DASHBOARD_HOST, (error?: Error) => (error ? reject(error) : resolveServer(listening)));
  });
  server.keepAliveTimeout = 65_000;
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.DASHBOARD_OPS_PORT, registry: metrics.registry, isReady: () => proxy.edgeUp(), version: env.GATEWAY_VERSION });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, opsPort: ops.port, edge: env.EDGE_URL, assets: assets.size }, 'dashboard listening');
  return {
    port,
    opsPort: ops.port,
    stop: async () => {
      ops.setDraining();
      await new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeIdleConnections();
      });
      await ops.close();
      proxy.close();
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { dashboardEnvSchema as envSchema } from './env';
export { startDashboard as start };

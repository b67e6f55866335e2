import { controlPlaneKeyVerifier, createServiceClient, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { controlplane, router } from '@gateway/proto';
import type { AppEnv } from './env';
import { routerHandlers } from './router.grpc';

export async function startRouter(env: AppEnv, overrides: { logger?: Logger; embedded?: boolean } = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'router', level: env.LOG_LEVEL });
  // Project settings and registry come from control-plane (per-call for now; caching with
  // project.changed invalidation belongs to the router issue).
  const controlPlane = createServiceClient(controlplane.ControlPlaneServiceService, { address: env.CONTROL_PLANE_ADDRESS, internalToken: env.GATEWAY_INTERNAL_TOKEN, deadlineMs: 3_000 });
  return startGrpcApp({
    name: 'router',
    logger,
    host: env.ROUTER_HOST,
    port: env.ROUTER_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.ROUTER_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN),
    embedded: overrides.embedded,
    register: (server) => server.add(router.RouterServiceService, routerHandlers(controlPlane)),
    onStop: async () => controlPlane.close(),
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startRouter as start };

import { JetStreamEventBus, type EventBus } from '@gateway/bus';
import { controlPlaneKeyVerifier, createProjectPolicyCache, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { router } from '@gateway/proto';
import type { AppEnv } from './env';
import { routerHandlers } from './router.grpc';

export interface RouterOverrides {
  logger?: Logger;
  /** Shared process (the embedded launcher): skip process-wide default metrics. */
  embedded?: boolean;
  /** The embedded launcher's in-process bus; JetStream (NATS_URL) otherwise. */
  bus?: EventBus;
}

export async function startRouter(env: AppEnv, overrides: RouterOverrides = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'router', level: env.LOG_LEVEL });
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'router' }));
  // Project settings and registry from control-plane, cached per project; project.changed
  // (settings, status or any model edit) drops the entry on every replica.
  const policies = createProjectPolicyCache(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, env.ROUTER_POLICY_CACHE_MS);
  const invalidation = await policies.cache.listen(bus);
  const release = async () => {
    await invalidation.stop();
    policies.close();
    if (!overrides.bus) await bus.close();
  };
  try {
    return await startGrpcApp({
      name: 'router',
      logger,
      host: env.ROUTER_HOST,
      port: env.ROUTER_PORT,
      opsHost: env.OPS_HOST,
      opsPort: env.ROUTER_OPS_PORT,
      internalToken: env.GATEWAY_INTERNAL_TOKEN,
      verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, bus),
      embedded: overrides.embedded,
      drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
      register: (server) => server.add(router.RouterServiceService, routerHandlers(policies.cache)),
      onStop: release,
    });
  } catch (error) {
    await release();
    throw error;
  }
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startRouter as start };

import { JetStreamEventBus, type EventBus } from '@gateway/bus';
import { controlPlaneKeyVerifier, createProjectPolicyCache, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { guardrailDecisionCounter, RunCheckUseCase } from '@gateway/guardrail';
import { guardrail } from '@gateway/proto';
import type { AppEnv } from './env';
import { guardrailHandlers } from './guardrail.grpc';

export interface GuardrailOverrides {
  logger?: Logger;
  /** Shared process (the embedded launcher passes its in-process bus here). */
  bus?: EventBus;
  embedded?: boolean;
}

/**
 * The guardrail holds no data of its own: a check's policy comes with the request or from
 * control-plane (project settings, cached; project.changed on the bus drops the cache entry).
 */
export async function startGuardrail(env: AppEnv, overrides: GuardrailOverrides = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'guardrail', level: env.LOG_LEVEL });
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'guardrail' }));
  const policies = createProjectPolicyCache(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, env.GUARDRAIL_POLICY_CACHE_TTL_MS);
  try {
    const invalidation = await policies.cache.listen(bus);
    const checks = new RunCheckUseCase(async (projectId) => (await policies.cache.get(projectId)).project?.settings);
    return await startGrpcApp({
      name: 'guardrail',
      logger,
      host: env.GUARDRAIL_HOST,
      port: env.GUARDRAIL_PORT,
      opsHost: env.OPS_HOST,
      opsPort: env.GUARDRAIL_OPS_PORT,
      internalToken: env.GATEWAY_INTERNAL_TOKEN,
      verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, bus),
      embedded: overrides.embedded,
      drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
      register: (server, metrics) => server.add(guardrail.GuardrailServiceService, guardrailHandlers(checks, guardrailDecisionCounter(metrics.registry))),
      onStop: async () => {
        await invalidation.stop();
        policies.close();
        if (!overrides.bus) await bus.close();
      },
    });
  } catch (error) {
    policies.close();
    if (!overrides.bus) await bus.close();
    throw error;
  }
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startGuardrail as start };

import { controlPlaneKeyVerifier, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { guardrail } from '@gateway/proto';
import type { AppEnv } from './env';

export async function startGuardrail(env: AppEnv, overrides: { logger?: Logger; embedded?: boolean } = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'guardrail', level: env.LOG_LEVEL });
  return startGrpcApp({
    name: 'guardrail',
    logger,
    host: env.GUARDRAIL_HOST,
    port: env.GUARDRAIL_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.GUARDRAIL_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN),
    embedded: overrides.embedded,
    // The service's methods land with its own issue; until then they answer UNIMPLEMENTED.
    register: (server) => server.add(guardrail.GuardrailServiceService, {}),
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startGuardrail as start };

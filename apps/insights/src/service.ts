import { controlPlaneKeyVerifier, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { insights } from '@gateway/proto';
import type { AppEnv } from './env';

export async function startInsights(env: AppEnv, overrides: { logger?: Logger; embedded?: boolean } = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'insights', level: env.LOG_LEVEL });
  return startGrpcApp({
    name: 'insights',
    logger,
    host: env.INSIGHTS_HOST,
    port: env.INSIGHTS_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.INSIGHTS_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN),
    embedded: overrides.embedded,
    // The service's methods land with its own issue; until then they answer UNIMPLEMENTED.
    register: (server) => server.add(insights.InsightsServiceService, {}),
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startInsights as start };

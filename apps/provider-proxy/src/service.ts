import { controlPlaneKeyVerifier, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { providerproxy } from '@gateway/proto';
import type { AppEnv } from './env';

export async function startProviderProxy(env: AppEnv, overrides: { logger?: Logger; embedded?: boolean } = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'provider-proxy', level: env.LOG_LEVEL });
  return startGrpcApp({
    name: 'provider-proxy',
    logger,
    host: env.PROVIDER_PROXY_HOST,
    port: env.PROVIDER_PROXY_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.PROVIDER_PROXY_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN),
    embedded: overrides.embedded,
    // The service's methods land with its own issue; until then they answer UNIMPLEMENTED.
    register: (server) => server.add(providerproxy.ProviderProxyServiceService, {}),
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startProviderProxy as start };

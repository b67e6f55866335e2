import { JetStreamEventBus, type EventBus } from '@gateway/bus';
import { controlPlaneKeyVerifier, createServiceClient, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { controlplane, EVENT_STREAM, providerproxy } from '@gateway/proto';
import { RunCompletionUseCase } from './completion/run-completion.usecase';
import { ModelCredentialsCache } from './credentials/model-credentials.cache';
import type { AppEnv } from './env';
import { providerProxyHandlers } from './provider-proxy.grpc';
import { createProviderGateway } from './providers';

export interface ProviderProxyOverrides {
  logger?: Logger;
  /** Shared process (the embedded launcher): skip process-wide default metrics. */
  embedded?: boolean;
  /** The embedded launcher's in-process bus; JetStream (NATS_URL) otherwise. */
  bus?: EventBus;
}

export async function startProviderProxy(env: AppEnv, overrides: ProviderProxyOverrides = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'provider-proxy', level: env.LOG_LEVEL });
  const bus = overrides.bus ?? (await JetStreamEventBus.connect({ servers: env.NATS_URL, stream: EVENT_STREAM, subjects: ['gateway.v1.>'], logger, name: 'provider-proxy' }));
  const controlPlane = createServiceClient(controlplane.ControlPlaneServiceService, { address: env.CONTROL_PLANE_ADDRESS, internalToken: env.GATEWAY_INTERNAL_TOKEN, deadlineMs: 3_000 });
  // Decrypted keys live only in this cache and in outgoing request headers; never in logs.
  const credentials = new ModelCredentialsCache(controlPlane, env.PROVIDER_PROXY_CREDENTIALS_CACHE_MS);
  const invalidation = await credentials.listen(bus);
  const gateway = createProviderGateway({
    timeoutMs: env.PROVIDER_PROXY_ATTEMPT_TIMEOUT_MS,
    maxRetries: env.PROVIDER_PROXY_MAX_RETRIES,
    backoffBaseMs: env.PROVIDER_PROXY_BACKOFF_BASE_MS,
    breaker: { failureThreshold: env.PROVIDER_PROXY_BREAKER_FAILURES, openMs: env.PROVIDER_PROXY_BREAKER_OPEN_MS },
    allowedHosts: env.PROVIDER_PROXY_ALLOWED_HOSTS.length > 0 ? env.PROVIDER_PROXY_ALLOWED_HOSTS : undefined,
    logger: { warn: (obj, msg) => logger.warn(obj, msg) },
  });
  const completions = new RunCompletionUseCase(credentials, gateway, { warn: (obj, msg) => logger.warn(obj, msg) });

  const release = async () => {
    await invalidation.stop();
    controlPlane.close();
    if (!overrides.bus) await bus.close();
  };
  try {
    return await startGrpcApp({
      name: 'provider-proxy',
      logger,
      host: env.PROVIDER_PROXY_HOST,
      port: env.PROVIDER_PROXY_PORT,
      opsHost: env.OPS_HOST,
      opsPort: env.PROVIDER_PROXY_OPS_PORT,
      internalToken: env.GATEWAY_INTERNAL_TOKEN,
      verifyApiKey: controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, bus),
      embedded: overrides.embedded,
      register: (server) => server.add(providerproxy.ProviderProxyServiceService, providerProxyHandlers(completions)),
      onStop: release,
    });
  } catch (error) {
    await release();
    throw error;
  }
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startProviderProxy as start };

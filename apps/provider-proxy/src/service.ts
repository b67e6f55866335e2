import { Histogram } from 'prom-client';
import { JetStreamEventBus, type EventBus } from '@gateway/bus';
import { isDomainError } from '@gateway/errors';
import { controlPlaneKeyVerifier, createServiceClient, startGrpcApp, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { controlplane, providerproxy } from '@gateway/proto';
import { getTracer, LATENCY_BUCKETS, SpanKind, SpanStatusCode } from '@gateway/telemetry';
import { RunCompletionUseCase } from './completion/run-completion.usecase';
import { ModelCredentialsCache } from './credentials/model-credentials.cache';
import type { AppEnv } from './env';
import { providerProxyHandlers } from './provider-proxy.grpc';
import { createProviderGateway, type ModelTarget, type ProviderGateway } from './providers';

export interface ProviderProxyOverrides {
  logger?: Logger;
  /** Shared process (the embedded launcher): skip process-wide default metrics. */
  embedded?: boolean;
  /** The embedded launcher's in-process bus; JetStream (NATS_URL) otherwise. */
  bus?: EventBus;
}

export async function startProviderProxy(env: AppEnv, overrides: ProviderProxyOverrides = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'provider-proxy', level: env.LOG_LEVEL });
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'provider-proxy' }));
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
      drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
      register: (server, metrics) => {
        const upstreamLatency = new Histogram({
          name: 'gateway_provider_request_duration_seconds',
          help: 'Model provider calls (retries and fallbacks included) in seconds, by provider, model that answered (or the primary when none did), outcome and mode',
          labelNames: ['provider', 'model', 'outcome', 'mode'] as const,
          buckets: LATENCY_BUCKETS,
          registers: [metrics.registry],
        });
        const completions = new RunCompletionUseCase(credentials, measured(gateway, upstreamLatency), { warn: (obj, msg) => logger.warn(obj, msg) });
        server.add(providerproxy.ProviderProxyServiceService, providerProxyHandlers(completions));
      },
      onStop: release,
    });
  } catch (error) {
    await release();
    throw error;
  }
}

/**
 * The provider gateway with each call's latency observed per provider, model and outcome, and a
 * CLIENT span per call (retries and fallbacks inside it) in the trace of the gRPC call.
 */
function measured(gateway: ProviderGateway, latency: Histogram<'provider' | 'model' | 'outcome' | 'mode'>): ProviderGateway {
  const tracer = getTracer('provider-proxy');
  const outcomeOf = (error: unknown, signal: AbortSignal | undefined) => (signal?.aborted ? 'cancelled' : isDomainError(error) ? error.code.toLowerCase() : 'error');
  const begin = (path: ModelTarget[], mode: string) => {
    const started = process.hrtime.bigint();
    const span = tracer.startSpan(`provider ${mode}`, { kind: SpanKind.CLIENT, attributes: { 'gen_ai.system': path[0]?.provider ?? 'unknown', 'gen_ai.request.model': path[0]?.identifier ?? 'unknown' } });
    return (modelUsed: string | undefined, outcome: string) => {
      const target = path.find((candidate) => candidate.identifier === modelUsed) ?? path[0];
      const labels = { provider: target?.provider ?? 'unknown', model: target?.identifier ?? 'unknown', outcome, mode };
      latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      span.setAttributes({ 'gen_ai.response.model': labels.model, 'gateway.outcome': outcome });
      if (outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    };
  };
  return {
    complete: async (path, req) => {
      const end = begin(path, 'complete');
      try {
        const result = await gateway.complete(path, req);
        end(result.modelUsed, 'ok');
        return result;
      } catch (error) {
        end(undefined, outcomeOf(error, req.signal));
        throw error;
      }
    },
    stream: async function* (path, req) {
      const end = begin(path, 'stream');
      let modelUsed: string | undefined;
      // A stream the caller stopped reading before `done` counts as cancelled.
      let outcome = 'cancelled';
      try {
        for await (const event of gateway.stream(path, req)) {
          if (event.type === 'done') {
            modelUsed = event.modelUsed;
            outcome = 'ok';
          }
          yield event;
        }
      } catch (error) {
        outcome = outcomeOf(error, req.signal);
        throw error;
      } finally {
        end(modelUsed, outcome);
      }
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startProviderProxy as start };

import { JetStreamEventBus, type EventBus, type Subscription } from '@gateway/bus';
import { controlPlaneKeyVerifier, createProjectPolicyCache, createServiceClient, startGrpcApp, type Principal, type RunningGrpcApp } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { ledger, providerproxy, replay, Subjects } from '@gateway/proto';
import type { AppEnv } from './env';
import { GetReplayJobUseCase } from './jobs/get-replay-job.usecase';
import { MemoryReplayStore } from './jobs/memory-replay.store';
import { RedisReplayStore } from './jobs/redis-replay.store';
import { replayJobHandler } from './jobs/replay-job.handler';
import type { ReplayStore } from './jobs/replay.store';
import { RequestReplayUseCase } from './jobs/request-replay.usecase';
import { replayHandlers } from './replay.grpc';
import { RunReplayUseCase } from './replay/run-replay.usecase';

export interface ServiceOverrides {
  logger?: Logger;
  /** The embedded default: its in-process bus, and job records in memory (no Redis there). */
  bus?: EventBus;
  embedded?: boolean;
  store?: ReplayStore;
  verifyApiKey?: (rawKey: string) => Promise<Principal>;
}

export async function startReplayWorker(env: AppEnv, overrides: ServiceOverrides = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'replay-worker', level: env.LOG_LEVEL });
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'replay-worker' }));
  const store = overrides.store ?? (overrides.bus || overrides.embedded ? new MemoryReplayStore() : await RedisReplayStore.connect(env.REDIS_URL, env.REPLAY_REDIS_PREFIX));
  const controlPlane = createProjectPolicyCache(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN);
  const subscriptions: Subscription[] = [await controlPlane.cache.listen(bus)];
  const common = { internalToken: env.GATEWAY_INTERNAL_TOKEN };
  const ledgerClient = createServiceClient(ledger.LedgerServiceService, { address: env.LEDGER_ADDRESS, ...common, deadlineMs: 10_000 });
  // A model call is not retried by the client: provider-proxy owns retries and fallbacks.
  const providerClient = createServiceClient(providerproxy.ProviderProxyServiceService, { address: env.PROVIDER_PROXY_ADDRESS, ...common, deadlineMs: env.REPLAY_MODEL_CALL_DEADLINE_MS, retries: 0 });

  const run = new RunReplayUseCase({ ledger: ledgerClient, provider: providerClient, policies: controlPlane.cache, modelCallDeadlineMs: env.REPLAY_MODEL_CALL_DEADLINE_MS });
  let stopping = false;
  const handler = replayJobHandler({
    stopping: () => stopping,
    store,
    run,
    logger,
    settings: { ttlMs: env.REPLAY_TTL_MS, leaseMs: env.REPLAY_LEASE_MS, waitBudgetMs: Math.floor(env.REPLAY_ACK_WAIT_MS * 0.8), maxAttempts: env.REPLAY_MAX_ATTEMPTS },
  });
  for (let index = 0; index < env.REPLAY_WORKER_CONCURRENCY; index += 1) {
    subscriptions.push(await bus.subscribe({ durable: env.REPLAY_WORKER_DURABLE, subject: Subjects.replayRequested, maxDeliver: 200, ackWaitMs: env.REPLAY_ACK_WAIT_MS, retryDelayMs: 1_000 }, handler));
  }
  const useCases = {
    request: new RequestReplayUseCase(store, bus, ledgerClient, controlPlane.cache, { ttlMs: env.REPLAY_TTL_MS, maxCompareModels: env.REPLAY_MAX_COMPARE_MODELS }),
    get: new GetReplayJobUseCase(store),
  };

  return startGrpcApp({
    name: 'replay-worker',
    logger,
    host: env.REPLAY_WORKER_HOST,
    port: env.REPLAY_WORKER_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.REPLAY_WORKER_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: overrides.verifyApiKey ?? controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, bus),
    embedded: overrides.embedded,
    register: (server) => server.add(replay.ReplayServiceService, replayHandlers(useCases)),
    isReady: () => bus.isHealthy() && store.isHealthy(),
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    onStop: async () => {
      stopping = true;
      for (const subscription of subscriptions) await subscription.stop();
      ledgerClient.close();
      providerClient.close();
      controlPlane.close();
      if (!overrides.bus) await bus.close();
      await store.close();
    },
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startReplayWorker as start };

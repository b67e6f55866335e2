import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Counter } from 'prom-client';
import { JetStreamEventBus, type EventBus, type Subscription } from '@gateway/bus';
import { pause, runShutdown } from '@gateway/config';
import { ProjectPolicyCache, VerifiedKeyCache } from '@gateway/grpc';
import { guardrailDecisionCounter } from '@gateway/guardrail';
import { trackHttpServer } from '@gateway/http';
import { createLogger, type Logger } from '@gateway/logging';
import { events, Subjects } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { createEdgeApp } from './app';
import { ApiKeyAuthenticator } from './auth/api-key.middleware';
import { KeyUsageReporter, PerimeterReporter } from './auth/key-activity.reporters';
import { createEdgeClients } from './clients';
import type { EdgeEnv } from './env';
import { ExecutionPipeline } from './execution/execution.usecase';
import { InProcessGuardrail } from './execution/in-process-guardrail';
import { StepRecorder } from './execution/step-recorder';
import { createMemoryProtectionStore, createRedisProtectionStore, DEFAULT_LIMITS, PROTECTION_REDIS_OPTIONS, ProtectionGuard, type ProtectionLimits, type ProtectionStore } from './protection';

export interface RunningEdge {
  port: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface EdgeOverrides {
  logger?: Logger;
  embedded?: boolean;
  /** The embedded launcher's in-process bus; otherwise NATS. */
  bus?: EventBus;
}

function limitsOf(env: EdgeEnv): ProtectionLimits {
  return {
    ...DEFAULT_LIMITS,
    rateLimitPerHour: env.RATE_LIMIT_PER_HOUR,
    rateWindowMs: env.RATE_LIMIT_WINDOW_MS,
    loopMaxRequests: env.LOOP_GUARD_MAX_REQUESTS,
    loopWindowMs: env.LOOP_GUARD_WINDOW_MS,
    spendWindowMs: env.SPEND_WINDOW_MS,
  };
}

function createProtectionStore(env: EdgeEnv, logger: Logger): { store: ProtectionStore; close(): Promise<void> } {
  if (env.PROTECTION_STORE === 'memory') return { store: createMemoryProtectionStore({ limits: limitsOf(env) }), close: async () => undefined };
  const redis = new Redis(env.REDIS_URL, { ...PROTECTION_REDIS_OPTIONS, lazyConnect: false });
  // Connection loss is expected to be transient: the store answers 503 meanwhile and ioredis reconnects.
  redis.on('error', (error: Error) => logger.warn({ err: error.message }, 'redis connection problem; metered requests answer 503 until it recovers'));
  return { store: createRedisProtectionStore(redis, { limits: limitsOf(env) }), close: async () => void redis.disconnect() };
}

export async function startEdge(env: EdgeEnv, overrides: EdgeOverrides = {}): Promise<RunningEdge> {
  initTelemetry({ service: 'edge' });
  const logger = overrides.logger ?? createLogger({ service: 'edge', level: env.LOG_LEVEL });
  const clients = createEdgeClients(env);
  const metrics = createServiceMetrics('edge', !overrides.embedded);
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'edge' }));
  const protection = createProtectionStore(env, logger);

  const keyCache = new VerifiedKeyCache(clients.controlPlane, env.KEY_CACHE_MAX_MS);
  const policies = new ProjectPolicyCache(clients.controlPlane);
  const guard = new ProtectionGuard(
    protection.store,
    async ({ keyId, status, resetAtMs }, caller) => {
      await clients.controlPlane.recordKeyTrip({ keyId, status, resetAtMs, ip: caller.ip, userAgent: caller.userAgent });
    },
    logger,
  );
  const usage = new KeyUsageReporter(clients, logger, env.KEY_USAGE_FLUSH_MS);
  const keys = new ApiKeyAuthenticator(keyCache, new PerimeterReporter(clients, logger, env.PERIMETER_AUDIT_INTERVAL_MS), usage);
  const spend = new Counter({ name: 'gateway_spend_usd_total', help: 'Model spend recorded (settled), USD, by project and model', labelNames: ['project_id', 'model'] as const, registers: [metrics.registry] });
  const steps = new StepRecorder(clients, logger, undefined, (projectId, step) => {
    if (step.cost > 0) spend.inc({ project_id: String(projectId), model: step.model }, step.cost);
  });
  const guardrail = new InProcessGuardrail(guardrailDecisionCounter(metrics.registry));
  const pipeline = new ExecutionPipeline({ clients, policies, guardrail, guard, steps, logger, reserveCompletionTokens: env.SPEND_RESERVE_COMPLETION_TOKENS });

  const subscriptions: Subscription[] = [...(await keyCache.listen(bus)), await policies.listen(bus)];
  // An admin reset of a key clears its trips and spend window on every replica.
  subscriptions.push(await bus.broadcast(Subjects.keyChanged, async (message) => guard.onKeyChanged(events.KeyChanged.decode(message.data))));

  const app = createEdgeApp(env, { clients, keys, guard, pipeline, policies }, logger, metrics);
  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(env.EDGE_PORT, env.EDGE_HOST, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  server.keepAliveTimeout = 65_000;
  const http = trackHttpServer(server);
  const ops = await startOpsServer({
    host: env.OPS_HOST,
    port: env.EDGE_OPS_PORT,
    registry: metrics.registry,
    isReady: async () => bus.isHealthy() && (await guard.isHealthy()),
    version: env.GATEWAY_VERSION,
  });
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, opsPort: ops.port, protection: env.PROTECTION_STORE }, 'edge listening');
  let stopping: Promise<unknown> | undefined;
  return {
    port,
    opsPort: ops.port,
    stop: async () => {
      stopping ??= runShutdown(
        'edge',
        [
          // Load balancers see /readyz 503 first and stop sending new connections.
          { name: 'not_ready', run: async () => { ops.setDraining(); await pause(env.SHUTDOWN_DRAIN_DELAY_MS); } },
          // In-flight requests and SSE streams finish (Connection: close), then the listener closes.
          { name: 'http_drain', run: () => http.drain(env.SHUTDOWN_GRACE_MS) },
          { name: 'subscriptions', run: async () => { for (const subscription of subscriptions) await subscription.stop(); } },
          { name: 'key_usage', run: () => usage.stop() },
          { name: 'protection', run: () => protection.close() },
          { name: 'bus', run: () => (overrides.bus ? undefined : bus.close()) },
          { name: 'clients', run: () => clients.close() },
          { name: 'ops', run: () => ops.close() },
        ],
        logger,
      );
      await stopping;
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { edgeEnvSchema as envSchema } from './env';
export { startEdge as start };

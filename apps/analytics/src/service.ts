import { join } from 'node:path';
import { GATEWAY_SUBJECTS, JetStreamEventBus, type EventBus, type Subscription } from '@gateway/bus';
import { runShutdown } from '@gateway/config';
import { runMigrations } from '@gateway/db';
import { createProjectDeletionCheck, GrpcServer, grpcShutdownSteps, projectDeletedHandler, type Principal } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { analytics, Subjects } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { analyticsHandlers } from './analytics.grpc';
import { createAnalyticsDb } from './database';
import type { AnalyticsEnv } from './env';
import { IngestEventUseCase } from './ingest/ingest-event.usecase';
import { ledgerEventsHandler } from './ingest/ledger-events.handler';
import { DeleteProjectDataUseCase } from './projects/delete-project-data.usecase';
import { GetStatsUseCase } from './stats/get-stats.usecase';
import { StatsRepository } from './stats/stats.repository';

export interface RunningService {
  grpcPort: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface ServiceOverrides {
  bus?: EventBus;
  logger?: Logger;
  migrationsDir?: string;
  verifyApiKey?: (rawKey: string) => Promise<Principal>;
}

export async function startAnalytics(env: AnalyticsEnv, overrides: ServiceOverrides = {}): Promise<RunningService> {
  initTelemetry({ service: 'analytics' });
  const logger = overrides.logger ?? createLogger({ service: 'analytics', level: env.LOG_LEVEL });
  await runMigrations({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, migrationsDir: overrides.migrationsDir ?? join(__dirname, 'prisma/migrations'), logger });
  const db = createAnalyticsDb({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, poolMax: env.DATABASE_POOL_MAX });
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'analytics' }));
  const ingest = new IngestEventUseCase(db, {
    schema: env.DATABASE_SCHEMA,
    driftSampleThreshold: env.ANALYTICS_DRIFT_SAMPLE_THRESHOLD,
    stallMonitorThreshold: env.ANALYTICS_STALL_MONITOR_THRESHOLD,
    orphanDeliveries: env.ANALYTICS_ORPHAN_DELIVERIES,
  });
  const subscriptions: Subscription[] = [
    await bus.subscribe({ durable: env.ANALYTICS_DURABLE, subject: GATEWAY_SUBJECTS, maxDeliver: 20, ackWaitMs: 30_000, retryDelayMs: 500 }, ledgerEventsHandler(ingest)),
  ];
  // Project deletions on their own durable: a large delete or a control-plane outage (retried
  // every 5 s) does not hold up the statistics.
  const controlPlane = createProjectDeletionCheck(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN);
  const deleteData = new DeleteProjectDataUseCase(db, { schema: env.DATABASE_SCHEMA });
  subscriptions.push(
    await bus.subscribe(
      { durable: `${env.ANALYTICS_DURABLE}-project-deleted`, subject: Subjects.projectChanged, maxDeliver: 20, ackWaitMs: 120_000, retryDelayMs: 5_000 },
      projectDeletedHandler('analytics', { deleteData, check: controlPlane.check, logger }),
    ),
  );

  const metrics = createServiceMetrics('analytics', !overrides.bus);
  const getStats = new GetStatsUseCase(new StatsRepository(db, env.DATABASE_SCHEMA), {
    deepLoopThreshold: env.ANALYTICS_DEEP_LOOP_THRESHOLD,
    driftSampleThreshold: env.ANALYTICS_DRIFT_SAMPLE_THRESHOLD,
    driftMinPeriodSamples: env.ANALYTICS_DRIFT_MIN_SAMPLES,
    driftAlertPct: env.ANALYTICS_DRIFT_ALERT_PCT,
  });
  const server = new GrpcServer({ name: 'analytics', logger, internalToken: env.GATEWAY_INTERNAL_TOKEN, metrics, verifyApiKey: overrides.verifyApiKey }).add(analytics.AnalyticsServiceService, analyticsHandlers(getStats));
  const grpcPort = await server.listen(env.ANALYTICS_HOST, env.ANALYTICS_PORT);
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.ANALYTICS_OPS_PORT, registry: metrics.registry, isReady: () => bus.isHealthy() });
  logger.info({ grpcPort, opsPort: ops.port }, 'analytics listening');
  let stopping: Promise<unknown> | undefined;
  return {
    grpcPort,
    opsPort: ops.port,
    stop: async () => {
      // Readiness off, gRPC drain, consumers ack/nak in-flight events, then bus, pool; /readyz 503 throughout.
      stopping ??= runShutdown(
        'analytics',
        grpcShutdownSteps({
          ops,
          server,
          drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
          graceMs: env.SHUTDOWN_GRACE_MS,
          then: [
            // In-flight deliveries finish and are acked (or nacked on failure) before the bus closes.
            { name: 'consumers', run: async () => {
              for (const subscription of subscriptions) await subscription.stop();
            } },
            { name: 'clients', run: () => controlPlane.close() },
            { name: 'bus', run: () => (overrides.bus ? undefined : bus.close()) },
            { name: 'database', run: () => db.$disconnect() },
          ],
        }),
        logger,
      );
      await stopping;
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { analyticsEnvSchema as envSchema } from './env';
export { startAnalytics as start };

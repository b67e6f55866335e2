import { join } from 'node:path';
import { GATEWAY_SUBJECTS, JetStreamEventBus, type EventBus, type Subscription } from '@gateway/bus';
import { runMigrations } from '@gateway/db';
import {
  controlPlaneKeyVerifier,
  createProjectPolicyCache,
  createServiceClient,
  ProjectDeletionCheck,
  projectDeletedHandler,
  startGrpcApp,
  type Principal,
  type RunningGrpcApp,
} from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { insights, ledger, Subjects } from '@gateway/proto';
import { createInsightsDb } from './database';
import type { AppEnv } from './env';
import { insightsEventsHandler } from './ingest/insights-events.handler';
import { InsightsIngestUseCase } from './ingest/insights-ingest.usecase';
import { insightsHandlers } from './insights.grpc';
import { DeleteProjectDataUseCase } from './projects/delete-project-data.usecase';
import { startInsightsSchedule } from './refresh/insights.schedule';
import { InsightsUseCase } from './refresh/insights.usecase';

export interface ServiceOverrides {
  logger?: Logger;
  bus?: EventBus;
  embedded?: boolean;
  migrationsDir?: string;
  verifyApiKey?: (rawKey: string) => Promise<Principal>;
}

export async function startInsights(env: AppEnv, overrides: ServiceOverrides = {}): Promise<RunningGrpcApp> {
  const logger = overrides.logger ?? createLogger({ service: 'insights', level: env.LOG_LEVEL });
  await runMigrations({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, migrationsDir: overrides.migrationsDir ?? join(__dirname, 'prisma/migrations'), logger });
  const db = createInsightsDb({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, poolMax: env.DATABASE_POOL_MAX });
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'insights' }));
  const controlPlane = createProjectPolicyCache(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN);
  const ledgerClient = createServiceClient(ledger.LedgerServiceService, { address: env.LEDGER_ADDRESS, internalToken: env.GATEWAY_INTERNAL_TOKEN, deadlineMs: 10_000 });
  const subscriptions: Subscription[] = [await controlPlane.cache.listen(bus)];

  const ingest = new InsightsIngestUseCase(db, ledgerClient, { schema: env.DATABASE_SCHEMA, minSimilarity: env.INSIGHTS_MIN_SIMILARITY });
  subscriptions.push(await bus.subscribe({ durable: env.INSIGHTS_DURABLE, subject: GATEWAY_SUBJECTS, maxDeliver: 20, ackWaitMs: 30_000, retryDelayMs: 1_000 }, insightsEventsHandler(ingest)));
  // Project deletions on their own durable: a large delete or a control-plane outage (retried
  // every 5 s) does not hold up the other events.
  subscriptions.push(
    await bus.subscribe(
      { durable: `${env.INSIGHTS_DURABLE}-project-deleted`, subject: Subjects.projectChanged, maxDeliver: 20, ackWaitMs: 120_000, retryDelayMs: 5_000 },
      projectDeletedHandler('insights', {
        deleteData: new DeleteProjectDataUseCase(db, { schema: env.DATABASE_SCHEMA }),
        check: new ProjectDeletionCheck(controlPlane.cache),
        logger,
      }),
    ),
  );
  const useCase = new InsightsUseCase(db, controlPlane.cache, {
    schema: env.DATABASE_SCHEMA,
    windowHours: env.INSIGHTS_WINDOW_HOURS,
    materialChangePct: env.INSIGHTS_MATERIAL_CHANGE_PCT,
    minComparisons: env.INSIGHTS_MIN_COMPARISONS,
    equivalenceRate: env.INSIGHTS_EQUIVALENCE_RATE,
    latencyP99Ms: env.INSIGHTS_LATENCY_P99_MS,
    latencyMinSamples: env.INSIGHTS_LATENCY_MIN_SAMPLES,
    intentSharePct: env.INSIGHTS_INTENT_SHARE_PCT,
    intentMinSamples: env.INSIGHTS_INTENT_MIN_SAMPLES,
  });
  const schedule = startInsightsSchedule({ insights: useCase, intervalMs: env.INSIGHTS_REFRESH_INTERVAL_MS, logger });

  return startGrpcApp({
    name: 'insights',
    logger,
    host: env.INSIGHTS_HOST,
    port: env.INSIGHTS_PORT,
    opsHost: env.OPS_HOST,
    opsPort: env.INSIGHTS_OPS_PORT,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    verifyApiKey: overrides.verifyApiKey ?? controlPlaneKeyVerifier(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, bus),
    embedded: overrides.embedded,
    register: (server) => server.add(insights.InsightsServiceService, insightsHandlers(useCase)),
    isReady: () => bus.isHealthy(),
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
    onStop: async () => {
      await schedule.stop();
      for (const subscription of subscriptions) await subscription.stop();
      ledgerClient.close();
      controlPlane.close();
      if (!overrides.bus) await bus.close();
      await db.$disconnect();
    },
  });
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { envSchema } from './env';
export { startInsights as start };

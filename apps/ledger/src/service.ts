import { join } from 'node:path';
import { JetStreamEventBus, type EventBus, type Subscription } from '@gateway/bus';
import { poolOutboxStore, runMigrations, startOutboxRelay } from '@gateway/db';
import { runShutdown } from '@gateway/config';
import { createProjectPolicyCache, GrpcServer, grpcShutdownSteps, type Principal, type ProjectPolicyCache } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { ledger, Subjects } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { createLedgerDatabase } from './database';
import type { LedgerEnv } from './env';
import { ControlPlaneGradingPolicySource } from './grading';
import { LEDGER_SERVICE_ONLY_METHODS, ledgerHandlers } from './ledger.grpc';
import { ledgerTables } from './ledger-tables';
import { DeleteProjectDataUseCase } from './projects/delete-project-data.usecase';
import { ControlPlaneProjectDirectory } from './projects/project-directory';
import { projectDeletedHandler } from './projects/project-deleted.handler';
import { RetentionPurgeUseCase } from './retention/retention-purge.usecase';
import { startRetentionSchedule } from './retention/retention.schedule';
import { RecordShadowResultUseCase } from './shadow/record-shadow-result.usecase';
import { GetStepUseCase } from './steps/get-step.usecase';
import { StepRepository } from './steps/step.repository';
import { RecordStepUseCase } from './steps/record-step.usecase';
import { CompleteTraceUseCase } from './traces/complete-trace.usecase';
import { TraceRepository } from './traces/trace.repository';
import { TracesUseCase } from './traces/traces.usecase';

export interface RunningService {
  grpcPort: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface ServiceOverrides {
  bus?: EventBus;
  logger?: Logger;
  migrationsDir?: string;
  /** Verifies API keys of internal teams (a control-plane client in production). */
  verifyApiKey?: (rawKey: string) => Promise<Principal>;
  /** Project policies (registry, routing tiers) for grading; a control-plane client by default. */
  policies?: Pick<ProjectPolicyCache, 'get' | 'invalidate' | 'listen'>;
}

export async function startLedger(env: LedgerEnv, overrides: ServiceOverrides = {}): Promise<RunningService> {
  initTelemetry({ service: 'ledger' });
  const logger = overrides.logger ?? createLogger({ service: 'ledger', level: env.LOG_LEVEL });
  await runMigrations({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, migrationsDir: overrides.migrationsDir ?? join(__dirname, 'prisma/migrations'), logger });
  const database = createLedgerDatabase({
    url: env.DATABASE_URL,
    schema: env.DATABASE_SCHEMA,
    poolMax: env.DATABASE_POOL_MAX,
    // The message and code only: pg attaches the connection (and its settings) to the error.
    onPoolError: (error) => logger.warn({ code: (error as { code?: string }).code, reason: error.message }, 'database connection error'),
  });
  const { db, sql } = database;
  const tables = ledgerTables(env.DATABASE_SCHEMA);
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'ledger' }));
  // A commit nudges the relay; one drain (two statements) carries the events of every call
  // committed within OUTBOX_NUDGE_DELAY_MS.
  const relay = env.LEDGER_OUTBOX_PAUSED
    ? undefined
    : startOutboxRelay({ store: poolOutboxStore(sql.pool, env.DATABASE_SCHEMA), bus, logger, pollMs: env.OUTBOX_POLL_MS, nudgeDelayMs: env.OUTBOX_NUDGE_DELAY_MS });
  const nudge = () => relay?.nudge();

  const controlPlane = overrides.policies ? undefined : createProjectPolicyCache(env.CONTROL_PLANE_ADDRESS, env.GATEWAY_INTERNAL_TOKEN, env.LEDGER_POLICY_CACHE_MS);
  const policies = overrides.policies ?? controlPlane!.cache;
  const subscriptions: Subscription[] = [await policies.listen(bus)];
  const gradingPolicies = new ControlPlaneGradingPolicySource(policies);

  const repository = new TraceRepository(tables, sql);
  const traces = new TracesUseCase(db, repository, nudge, env.LEDGER_DEFAULT_RETENTION_DAYS, gradingPolicies);
  const deleteProjectData = new DeleteProjectDataUseCase(db, tables, env.LEDGER_RETENTION_BATCH_SIZE);
  const useCases = {
    traces,
    completeTrace: new CompleteTraceUseCase(db, traces, repository, gradingPolicies, nudge),
    recordStep: new RecordStepUseCase(db, new StepRepository(sql, tables), repository, gradingPolicies, nudge, { logger, defaultRetentionDays: env.LEDGER_DEFAULT_RETENTION_DAYS }),
    getStep: new GetStepUseCase(db),
    recordShadowResult: new RecordShadowResultUseCase(db, traces, repository),
    deleteProjectData,
  };

  subscriptions.push(
    await bus.subscribe(
      { durable: `${env.LEDGER_DURABLE}-project-deleted`, subject: Subjects.projectChanged, maxDeliver: 20, ackWaitMs: 120_000, retryDelayMs: 5_000 },
      projectDeletedHandler({ deleteData: deleteProjectData, directory: new ControlPlaneProjectDirectory(policies), logger }),
    ),
  );
  const retention = startRetentionSchedule({
    purge: new RetentionPurgeUseCase(db, tables, { batchSize: env.LEDGER_RETENTION_BATCH_SIZE, outboxRetentionHours: env.LEDGER_OUTBOX_RETENTION_HOURS }, logger),
    intervalMs: env.LEDGER_RETENTION_INTERVAL_MS,
    logger,
  });

  const metrics = createServiceMetrics('ledger', !overrides.bus);
  const server = new GrpcServer({
    name: 'ledger',
    logger,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    metrics,
    verifyApiKey: overrides.verifyApiKey,
    serviceOnlyMethods: LEDGER_SERVICE_ONLY_METHODS,
  }).add(ledger.LedgerServiceService, ledgerHandlers(useCases));
  const grpcPort = await server.listen(env.LEDGER_HOST, env.LEDGER_PORT);
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.LEDGER_OPS_PORT, registry: metrics.registry, isReady: () => bus.isHealthy() });
  logger.info({ grpcPort, opsPort: ops.port }, 'ledger listening');
  let stopping: Promise<unknown> | undefined;
  const steps = grpcShutdownSteps({
    ops,
    server,
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    graceMs: env.SHUTDOWN_GRACE_MS,
    then: [
      { name: 'jobs', run: () => retention.stop() },
      // In-flight deliveries finish and are acked (or nacked on failure) before the bus closes.
      { name: 'consumers', run: async () => {
        for (const subscription of subscriptions) await subscription.stop();
      } },
      // Every step committed by a drained call has its event published: nothing waits for a restart.
      { name: 'outbox', run: () => relay?.stop() },
      { name: 'clients', run: () => controlPlane?.close() },
      { name: 'bus', run: () => (overrides.bus ? undefined : bus.close()) },
      { name: 'database', run: () => database.close() },
    ],
  });
  return {
    grpcPort,
    opsPort: ops.port,
    stop: async () => {
      stopping ??= runShutdown('ledger', steps, logger);
      await stopping;
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { ledgerEnvSchema as envSchema } from './env';
export { startLedger as start };

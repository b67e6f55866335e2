import { join } from 'node:path';
import { JetStreamEventBus, type EventBus } from '@gateway/bus';
import { prismaOutboxStore, runMigrations, startOutboxRelay, type TransactionalClient } from '@gateway/db';
import { GrpcServer, type Principal } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { EVENT_STREAM, ledger } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { createLedgerDb } from './database';
import type { LedgerEnv } from './env';
import { ledgerHandlers } from './ledger.grpc';
import { RecordStepUseCase } from './steps/record-step.usecase';
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
}

export async function startLedger(env: LedgerEnv, overrides: ServiceOverrides = {}): Promise<RunningService> {
  initTelemetry({ service: 'ledger' });
  const logger = overrides.logger ?? createLogger({ service: 'ledger', level: env.LOG_LEVEL });
  await runMigrations({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, migrationsDir: overrides.migrationsDir ?? join(__dirname, 'prisma/migrations'), logger });
  const db = createLedgerDb({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, poolMax: env.DATABASE_POOL_MAX });
  const bus = overrides.bus ?? (await JetStreamEventBus.connect({ servers: env.NATS_URL, stream: EVENT_STREAM, subjects: ['gateway.v1.>'], logger, name: 'ledger' }));
  const relay = env.LEDGER_OUTBOX_PAUSED ? undefined : startOutboxRelay({ store: prismaOutboxStore(db as unknown as TransactionalClient, env.DATABASE_SCHEMA), bus, logger, pollMs: env.OUTBOX_POLL_MS });
  const nudge = () => relay?.nudge();

  const traces = new TracesUseCase(db, nudge);
  const recordStep = new RecordStepUseCase(db, traces, nudge);
  const metrics = createServiceMetrics('ledger', !overrides.bus);
  const server = new GrpcServer({ name: 'ledger', logger, internalToken: env.GATEWAY_INTERNAL_TOKEN, metrics, verifyApiKey: overrides.verifyApiKey }).add(
    ledger.LedgerServiceService,
    ledgerHandlers({ traces, recordStep }),
  );
  const grpcPort = await server.listen(env.LEDGER_HOST, env.LEDGER_PORT);
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.LEDGER_OPS_PORT, registry: metrics.registry, isReady: () => bus.isHealthy() });
  logger.info({ grpcPort, opsPort: ops.port }, 'ledger listening');
  return {
    grpcPort,
    opsPort: ops.port,
    stop: async () => {
      await server.shutdown();
      await ops.close();
      await relay?.flush();
      await relay?.stop();
      if (!overrides.bus) await bus.close();
      await db.$disconnect();
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { ledgerEnvSchema as envSchema } from './env';
export { startLedger as start };

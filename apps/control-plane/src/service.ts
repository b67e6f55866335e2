import { join } from 'node:path';
import type { EventBus } from '@gateway/bus';
import { JetStreamEventBus } from '@gateway/bus';
import { prismaOutboxStore, runMigrations, startOutboxRelay, type TransactionalClient } from '@gateway/db';
import { DomainError } from '@gateway/errors';
import { GrpcServer } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { controlplane, EVENT_STREAM } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { controlPlaneHandlers } from './control-plane.grpc';
import { createControlPlaneDb } from './database';
import type { ControlPlaneEnv } from './env';
import { SessionsUseCase } from './identity/sessions.usecase';
import { ApiKeysUseCase } from './keys/api-keys.usecase';
import { ModelsUseCase } from './models/models.usecase';
import { SecretBox } from './models/secret-box';
import { ProjectsUseCase } from './projects/projects.usecase';

export interface RunningService {
  grpcPort: number;
  opsPort: number;
  stop(): Promise<void>;
}

export interface ServiceOverrides {
  bus?: EventBus;
  logger?: Logger;
  /** Where prisma/migrations lives (the bundle sits elsewhere than the sources). */
  migrationsDir?: string;
}

export async function startControlPlane(env: ControlPlaneEnv, overrides: ServiceOverrides = {}): Promise<RunningService> {
  initTelemetry({ service: 'control-plane' });
  const logger = overrides.logger ?? createLogger({ service: 'control-plane', level: env.LOG_LEVEL });
  const migrationsDir = overrides.migrationsDir ?? join(__dirname, 'prisma/migrations');
  await runMigrations({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, migrationsDir, logger });
  const db = createControlPlaneDb({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, poolMax: env.DATABASE_POOL_MAX });
  const bus = overrides.bus ?? (await JetStreamEventBus.connect({ servers: env.NATS_URL, stream: EVENT_STREAM, subjects: ['gateway.v1.>'], logger, name: 'control-plane' }));
  const relay = startOutboxRelay({ store: prismaOutboxStore(db as unknown as TransactionalClient, env.DATABASE_SCHEMA), bus, logger, pollMs: 200 });

  const secrets = new SecretBox(env.GATEWAY_ENCRYPTION_KEYS);
  const sessions = new SessionsUseCase(db, env.SESSION_TTL_HOURS);
  const projects = new ProjectsUseCase(db);
  const models = new ModelsUseCase(db, projects, secrets);
  const keys = new ApiKeysUseCase(db, projects);

  if (env.GATEWAY_BOOTSTRAP_EMAIL && env.GATEWAY_BOOTSTRAP_PASSWORD) {
    const result = await sessions.bootstrap(env.GATEWAY_BOOTSTRAP_EMAIL, env.GATEWAY_BOOTSTRAP_PASSWORD, 'Default organization');
    if (result.created) logger.info({ email: result.user.email }, 'bootstrap owner created');
  }

  const metrics = createServiceMetrics('control-plane', !overrides.bus);
  const server = new GrpcServer({
    name: 'control-plane',
    logger,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    metrics,
    verifyApiKey: async (rawKey) => {
      const principal = await keys.verify(rawKey);
      if (principal.status !== 'active') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
      return { kind: 'api_key', keyId: principal.keyId, projectId: principal.projectId, organizationId: principal.organizationId };
    },
  }).add(controlplane.ControlPlaneServiceService, controlPlaneHandlers({ sessions, projects, models, keys, keyCacheTtlMs: env.KEY_CACHE_TTL_MS }));
  const grpcPort = await server.listen(env.CONTROL_PLANE_HOST, env.CONTROL_PLANE_PORT);
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.CONTROL_PLANE_OPS_PORT, registry: metrics.registry, isReady: () => bus.isHealthy() });
  logger.info({ grpcPort, opsPort: ops.port }, 'control-plane listening');

  return {
    grpcPort,
    opsPort: ops.port,
    stop: async () => {
      await server.shutdown();
      await ops.close();
      await relay.flush();
      await relay.stop();
      if (!overrides.bus) await bus.close();
      await db.$disconnect();
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { controlPlaneEnvSchema as envSchema } from './env';
export { startControlPlane as start };

import { join } from 'node:path';
import type { EventBus } from '@gateway/bus';
import { JetStreamEventBus } from '@gateway/bus';
import { poolOutboxStore, runMigrations, startOutboxRelay } from '@gateway/db';
import { runShutdown } from '@gateway/config';
import { DomainError } from '@gateway/errors';
import { GrpcServer, grpcShutdownSteps } from '@gateway/grpc';
import { createLogger, type Logger } from '@gateway/logging';
import { controlplane, Subjects } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, startOpsServer } from '@gateway/telemetry';
import { AuditUseCase } from './audit/audit.usecase';
import { controlPlaneHandlers, SERVICE_ONLY_METHODS } from './control-plane.grpc';
import { createControlPlaneDatabase } from './database';
import type { ControlPlaneEnv } from './env';
import { AuthThrottle } from './identity/auth-throttle';
import { InvitesUseCase } from './identity/invites.usecase';
import { MfaUseCase } from './identity/mfa.usecase';
import { SessionsUseCase } from './identity/sessions.usecase';
import { ApiKeysUseCase } from './keys/api-keys.usecase';
import { startPruneJob } from './maintenance/prune.job';
import { ModelsUseCase } from './models/models.usecase';
import { SecretBox } from './models/secret-box';
import { BlockedIpsUseCase } from './organization/blocked-ips.usecase';
import { ProjectsUseCase } from './projects/projects.usecase';
import { RecordSpendUseCase } from './spend/record-spend.usecase';
import { stepRecordedHandler } from './spend/step-recorded.handler';

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
  const database = createControlPlaneDatabase({
    url: env.DATABASE_URL,
    schema: env.DATABASE_SCHEMA,
    poolMax: env.DATABASE_POOL_MAX,
    onPoolError: (error) => logger.warn({ err: error }, 'database connection error'),
  });
  const { db, pool } = database;
  const bus = overrides.bus ?? (await JetStreamEventBus.connectGateway({ servers: env.NATS_URL, logger, name: 'control-plane' }));
  // Polls five times a second: on the pool, not through Prisma.
  const relay = startOutboxRelay({ store: poolOutboxStore(pool, env.DATABASE_SCHEMA), bus, logger, pollMs: 200 });

  const secrets = new SecretBox(env.GATEWAY_ENCRYPTION_KEYS);
  const throttle = new AuthThrottle(db, { maxPerAccount: env.LOGIN_MAX_FAILURES_PER_ACCOUNT, maxPerIp: env.LOGIN_MAX_FAILURES_PER_IP, windowSeconds: env.LOGIN_THROTTLE_WINDOW_SECONDS });
  const sessions = new SessionsUseCase(db, env.SESSION_TTL_HOURS, throttle, secrets);
  const mfa = new MfaUseCase(db, sessions, throttle, secrets, env.MFA_ISSUER);
  const invites = new InvitesUseCase(db, secrets, logger, { inviteTtlHours: env.INVITE_TTL_HOURS, emailVerificationTtlHours: env.EMAIL_VERIFICATION_TTL_HOURS });
  const projects = new ProjectsUseCase(db);
  const models = new ModelsUseCase(db, projects, secrets);
  const keys = new ApiKeysUseCase(db, projects, env.DATABASE_SCHEMA);
  const audit = new AuditUseCase(db, { perIpPerMinute: env.PERIMETER_AUDIT_PER_IP_PER_MINUTE });
  const blockedIps = new BlockedIpsUseCase(db);
  const spend = new RecordSpendUseCase(db, pool, env.DATABASE_SCHEMA);

  if (env.GATEWAY_BOOTSTRAP_EMAIL && env.GATEWAY_BOOTSTRAP_PASSWORD) {
    try {
      const result = await sessions.bootstrap(env.GATEWAY_BOOTSTRAP_EMAIL, env.GATEWAY_BOOTSTRAP_PASSWORD, 'Default organization');
      if (result.created) logger.info({ email: result.user.email }, 'bootstrap owner created');
    } catch (error) {
      // Another owner bootstrapped this database first: the setting is a convenience, not a reason to stop.
      if (!(error instanceof DomainError && error.code === 'CONFLICT')) throw error;
      logger.warn('GATEWAY_BOOTSTRAP_EMAIL ignored: an organization already exists (use CreateOrganization for more)');
    }
  }

  // total_monthly_spend: every recorded step's cost, once per event id.
  const spendSubscription = await bus.subscribeBatch(
    { durable: env.CONTROL_PLANE_SPEND_DURABLE, subject: Subjects.stepRecorded, maxDeliver: 20, ackWaitMs: 30_000, maxBatch: env.CONTROL_PLANE_SPEND_BATCH_MAX, maxWaitMs: env.CONTROL_PLANE_SPEND_BATCH_WAIT_MS },
    stepRecordedHandler(spend),
  );
  const prune = startPruneJob(
    [
      { name: 'sessions', run: () => sessions.pruneSessions() },
      { name: 'auth_failures', run: () => throttle.prune() },
      { name: 'processed_events', run: () => spend.prune(7) },
    ],
    env.MAINTENANCE_INTERVAL_MS,
    logger,
  );

  const metrics = createServiceMetrics('control-plane', !overrides.bus);
  const server = new GrpcServer({
    name: 'control-plane',
    logger,
    internalToken: env.GATEWAY_INTERNAL_TOKEN,
    metrics,
    serviceOnlyMethods: SERVICE_ONLY_METHODS,
    verifyApiKey: async (rawKey) => {
      const principal = await keys.verify(rawKey);
      if (principal.status !== 'active') throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
      return { kind: 'api_key', keyId: principal.keyId, projectId: principal.projectId, organizationId: principal.organizationId };
    },
  }).add(controlplane.ControlPlaneServiceService, controlPlaneHandlers({ sessions, mfa, invites, projects, models, keys, audit, blockedIps, keyCacheTtlMs: env.KEY_CACHE_TTL_MS }));
  const grpcPort = await server.listen(env.CONTROL_PLANE_HOST, env.CONTROL_PLANE_PORT);
  const ops = await startOpsServer({ host: env.OPS_HOST, port: env.CONTROL_PLANE_OPS_PORT, registry: metrics.registry, isReady: () => bus.isHealthy() });
  logger.info({ grpcPort, opsPort: ops.port }, 'control-plane listening');

  let stopping: Promise<unknown> | undefined;
  const steps = grpcShutdownSteps({
    ops,
    server,
    drainDelayMs: env.SHUTDOWN_DRAIN_DELAY_MS,
    graceMs: env.SHUTDOWN_GRACE_MS,
    then: [
      // In-flight spend events finish and are acked; the rest stay for the next replica.
      { name: 'consumers', run: () => spendSubscription.stop() },
      { name: 'jobs', run: () => prune.stop() },
      // Audit and change events committed by the drained calls are published before the bus closes.
      { name: 'outbox', run: () => relay.stop() },
      { name: 'bus', run: () => (overrides.bus ? undefined : bus.close()) },
      { name: 'database', run: () => database.close() },
    ],
  });
  return {
    grpcPort,
    opsPort: ops.port,
    stop: async () => {
      stopping ??= runShutdown('control-plane', steps, logger);
      await stopping;
    },
  };
}

// Uniform entry for the embedded launcher (it loads every app's bundle into one process).
export { controlPlaneEnvSchema as envSchema } from './env';
export { startControlPlane as start };

import { z } from 'zod';
import { baseEnvShape, env, secret } from '@gateway/config';

export const ledgerEnvSchema = z.object({
  ...baseEnvShape,
  LEDGER_HOST: z.string().default('127.0.0.1'),
  LEDGER_PORT: env.port(50052),
  LEDGER_OPS_PORT: env.port(9102),
  DATABASE_URL: secret(z.string().url(), 'DATABASE_URL'),
  DATABASE_SCHEMA: z.string().default('public'),
  DATABASE_POOL_MAX: env.int(10, 1),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** How often the outbox relay polls for committed, unpublished events (ms). */
  OUTBOX_POLL_MS: env.int(200, 10),
  /** How long after a commit the relay drains (ms), so one drain publishes the events of many calls. */
  OUTBOX_NUDGE_DELAY_MS: env.int(5, 0),
  /**
   * Test hook for the crash-safety test: commit writes but never publish (simulates a process
   * that dies between commit and publish). Never set in production.
   */
  LEDGER_OUTBOX_PAUSED: env.bool(false),
  /** Prefix of the ledger's durable consumers (project.changed → project data deletion). */
  LEDGER_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only').default('ledger'),
  /** How long control-plane's project policy (registry, routing tiers) is cached for grading (ms). */
  LEDGER_POLICY_CACHE_MS: env.int(60_000, 0),
  /** Retention purge: how often it runs (ms; 0 disables it), rows per statement. */
  LEDGER_RETENTION_INTERVAL_MS: env.int(3_600_000, 0),
  LEDGER_RETENTION_BATCH_SIZE: env.int(500, 1),
  /** Days a trace (and a step whose model has no data_retention_days) is kept. */
  LEDGER_DEFAULT_RETENTION_DAYS: env.int(30, 1),
  /** Published outbox events are kept this long (hours), then purged. */
  LEDGER_OUTBOX_RETENTION_HOURS: env.int(168, 1),
});

export type LedgerEnv = z.infer<typeof ledgerEnvSchema>;

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
  /**
   * Test hook for the crash-safety test: commit writes but never publish (simulates a process
   * that dies between commit and publish). Never set in production.
   */
  LEDGER_OUTBOX_PAUSED: env.bool(false),
});

export type LedgerEnv = z.infer<typeof ledgerEnvSchema>;

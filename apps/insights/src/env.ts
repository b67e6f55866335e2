import { z } from 'zod';
import { baseEnvShape, env, secret } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  INSIGHTS_HOST: z.string().default('127.0.0.1'),
  INSIGHTS_PORT: env.port(50057),
  INSIGHTS_OPS_PORT: env.port(9107),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  LEDGER_ADDRESS: z.string().default('127.0.0.1:50052'),
  DATABASE_URL: secret(z.string().url(), 'DATABASE_URL'),
  DATABASE_SCHEMA: z.string().default('public'),
  DATABASE_POOL_MAX: env.int(5, 1),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Durable consumer name; replicas share it and split the work. */
  INSIGHTS_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only').default('insights'),
  /** The scheduled run (ms; 0 disables it). */
  INSIGHTS_REFRESH_INTERVAL_MS: env.int(3_600_000, 0),
  /** The traffic an insight is computed from: the last N hours. */
  INSIGHTS_WINDOW_HOURS: env.int(168, 1),
  /** migration_alert: replay comparisons needed, share judged equivalent (0..1), answer similarity for equivalence (0..1). */
  INSIGHTS_MIN_COMPARISONS: env.int(3, 1),
  INSIGHTS_EQUIVALENCE_RATE: z.coerce.number().min(0).max(1).default(0.8),
  INSIGHTS_MIN_SIMILARITY: z.coerce.number().min(0).max(1).default(0.8),
  /** latency_alert: p99 threshold (ms) and model calls needed. */
  INSIGHTS_LATENCY_P99_MS: env.number(10_000, 0),
  INSIGHTS_LATENCY_MIN_SAMPLES: env.int(20, 1),
  /** intent_pattern: share of the project's model calls (percent) and calls needed. */
  INSIGHTS_INTENT_SHARE_PCT: z.coerce.number().min(0).max(100).default(50),
  INSIGHTS_INTENT_MIN_SAMPLES: env.int(20, 1),
  /** A dismissed pattern comes back when its figure changed by at least this percent. */
  INSIGHTS_MATERIAL_CHANGE_PCT: env.number(25, 0),
});

export type AppEnv = z.infer<typeof envSchema>;

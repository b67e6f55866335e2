import { z } from 'zod';
import { baseEnvShape, env, secret } from '@gateway/config';

export const analyticsEnvSchema = z.object({
  ...baseEnvShape,
  ANALYTICS_HOST: z.string().default('127.0.0.1'),
  ANALYTICS_PORT: env.port(50056),
  ANALYTICS_OPS_PORT: env.port(9106),
  DATABASE_URL: secret(z.string().url(), 'DATABASE_URL'),
  DATABASE_SCHEMA: z.string().default('public'),
  DATABASE_POOL_MAX: env.int(10, 1),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Durable consumer name; replicas share it and split the work. */
  ANALYTICS_DURABLE: z.string().default('analytics'),
});

export type AnalyticsEnv = z.infer<typeof analyticsEnvSchema>;

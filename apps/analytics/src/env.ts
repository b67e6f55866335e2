import { z } from 'zod';
import { baseEnvShape, env, secret } from '@gateway/config';

export const analyticsEnvSchema = z.object({
  ...baseEnvShape,
  ANALYTICS_HOST: z.string().default('127.0.0.1'),
  ANALYTICS_PORT: env.port(50056),
  ANALYTICS_OPS_PORT: env.port(9106),
  /** Confirms a project deletion before analytics deletes the project's data. */
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  DATABASE_URL: secret(z.string().url(), 'DATABASE_URL'),
  DATABASE_SCHEMA: z.string().default('public'),
  DATABASE_POOL_MAX: env.int(10, 1),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Durable consumer name; replicas share it and split the work. */
  ANALYTICS_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only').default('analytics'),
  /** agent.chain_depth.deep_loop_count: traces whose chain depth exceeds this (spec grade F: above 5). */
  ANALYTICS_DEEP_LOOP_THRESHOLD: env.int(5, 0),
  /** agent.bias_drift: a model's first N answers are its baseline. */
  ANALYTICS_DRIFT_SAMPLE_THRESHOLD: env.int(50, 1),
  /** agent.bias_drift: answers after the baseline needed in the period before a model is reported. */
  ANALYTICS_DRIFT_MIN_SAMPLES: env.int(20, 1),
  /** agent.bias_drift: |drift| above this (percent, or percentage points for refusals) sets `drifting`. */
  ANALYTICS_DRIFT_ALERT_PCT: env.number(20, 0),
  /** agent.stall.monitor_count: stall probabilities above this and at most 0.7 (applies to traces completed after a change). */
  ANALYTICS_STALL_MONITOR_THRESHOLD: z.coerce.number().min(0).max(0.7).default(0.3),
  /** Deliveries of a step whose trace.created has not arrived before it is counted against a placeholder trace. */
  ANALYTICS_ORPHAN_DELIVERIES: env.int(3, 1),
});

export type AnalyticsEnv = z.infer<typeof analyticsEnvSchema>;

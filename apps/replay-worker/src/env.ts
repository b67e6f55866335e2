import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  REPLAY_WORKER_HOST: z.string().default('127.0.0.1'),
  REPLAY_WORKER_PORT: env.port(50058),
  REPLAY_WORKER_OPS_PORT: env.port(9108),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  LEDGER_ADDRESS: z.string().default('127.0.0.1:50052'),
  PROVIDER_PROXY_ADDRESS: z.string().default('127.0.0.1:50055'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Job status records and the 1-hour result cache (the embedded default keeps them in memory). */
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key, so several deployments (or test stacks) can share one Redis. */
  REPLAY_REDIS_PREFIX: z.string().regex(/^[A-Za-z0-9:_-]*$/, 'letters, digits, :, - and _ only').default('replay'),
  /** Durable consumer of gateway.v1.replay.requested; every worker shares it (a work queue). */
  REPLAY_WORKER_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only').default('replay-worker'),
  /** Jobs one process runs at once (one subscription each). */
  REPLAY_WORKER_CONCURRENCY: env.int(2, 1),
  /** Unacknowledged job messages are redelivered after this (ms): how soon a crashed worker's job restarts. */
  REPLAY_ACK_WAIT_MS: env.int(60_000, 1_000),
  /** A running job's lease in Redis (ms), renewed every third of it; a dead worker's lease lapses after it. */
  REPLAY_LEASE_MS: env.int(15_000, 500),
  /** Status records and cached results live this long (spec: 1 hour). */
  REPLAY_TTL_MS: env.int(3_600_000, 1_000),
  /** Attempts at running one job before it is marked failed (transient errors only). */
  REPLAY_MAX_ATTEMPTS: env.int(3, 1),
  /** At most this many models in compare_models. */
  REPLAY_MAX_COMPARE_MODELS: env.int(5, 1),
  /** Deadline of one model call (ms). */
  REPLAY_MODEL_CALL_DEADLINE_MS: env.int(120_000, 1_000),
});

export type AppEnv = z.infer<typeof envSchema>;

import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  PROVIDER_PROXY_HOST: z.string().default('127.0.0.1'),
  PROVIDER_PROXY_PORT: env.port(50055),
  PROVIDER_PROXY_OPS_PORT: env.port(9105),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Per upstream attempt, ms: until the response, or between two chunks of a stream. */
  PROVIDER_PROXY_ATTEMPT_TIMEOUT_MS: env.int(30_000, 1),
  /** Retries per model after its first attempt (429, 5xx, timeouts, connection errors). */
  PROVIDER_PROXY_MAX_RETRIES: env.int(2, 0),
  /** First backoff delay, ms; doubles per retry, with jitter. */
  PROVIDER_PROXY_BACKOFF_BASE_MS: env.int(250, 0),
  /** Consecutive outage failures of one endpoint that open its circuit. */
  PROVIDER_PROXY_BREAKER_FAILURES: env.int(5, 1),
  /** How long an open circuit refuses calls before one probe is let through, ms. */
  PROVIDER_PROXY_BREAKER_OPEN_MS: env.int(30_000, 1),
  /** Comma-separated hosts (exact or `*.suffix`) models may be called on; empty = any. */
  PROVIDER_PROXY_ALLOWED_HOSTS: env.list(),
  /**
   * How long resolved model definitions and decrypted keys stay in memory, ms (0 = ask
   * control-plane on every call). project.changed drops a project's entries at once.
   */
  PROVIDER_PROXY_CREDENTIALS_CACHE_MS: env.int(30_000, 0),
});

export type AppEnv = z.infer<typeof envSchema>;

import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const edgeEnvSchema = z.object({
  ...baseEnvShape,
  EDGE_HOST: z.string().default('127.0.0.1'),
  EDGE_PORT: env.port(8080),
  EDGE_OPS_PORT: env.port(9100),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  LEDGER_ADDRESS: z.string().default('127.0.0.1:50052'),
  PROVIDER_PROXY_ADDRESS: z.string().default('127.0.0.1:50055'),
  ANALYTICS_ADDRESS: z.string().default('127.0.0.1:50056'),
  INSIGHTS_ADDRESS: z.string().default('127.0.0.1:50057'),
  REPLAY_WORKER_ADDRESS: z.string().default('127.0.0.1:50058'),
  /** Mark the session cookie Secure (behind TLS in production). */
  SESSION_COOKIE_SECURE: env.bool(false),
  SESSION_COOKIE_SAMESITE: z.enum(['Strict', 'Lax', 'None']).default('Lax'),
  /** Upper bound on caching a verified API key (ms); key.changed events drop entries sooner. */
  KEY_CACHE_MAX_MS: env.int(30_000),
  GRPC_DEADLINE_MS: env.int(15_000, 100),
  /**
   * Ledger calls of executions (trace check, step write) out at once before further ones wait and
   * share one batch call. Fewer: bigger batches, less CPU per execution under load, a little
   * queueing; a lone request never waits.
   */
  LEDGER_BATCH_IN_FLIGHT: env.int(2, 1),
  JSON_BODY_LIMIT: z.string().default('1mb'),
  GATEWAY_VERSION: z.string().default('0.1.0'),
  /**
   * Which proxies' X-Forwarded-For edge believes for the caller's address (IP block list, audit,
   * per-IP login throttling): express "trust proxy" values, e.g. `loopback`, `loopback, uniquelocal`
   * (private networks: compose, Kubernetes) or CIDRs. Never trust a header a client can set itself.
   */
  EDGE_TRUST_PROXY: z.string().min(1).default('loopback'),
  /** key.changed / project.changed broadcasts (cache invalidation across replicas). */
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /**
   * Where the protection counters live: `redis` (production; shared by every replica) or
   * `memory` (the embedded single-process default only).
   */
  PROTECTION_STORE: z.enum(['redis', 'memory']).default('redis'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Protection limits (spec defaults). Scaled windows are for tests and load rehearsals. */
  RATE_LIMIT_PER_HOUR: env.int(1_000, 1),
  RATE_LIMIT_WINDOW_MS: env.int(3_600_000, 1_000),
  LOOP_GUARD_MAX_REQUESTS: env.int(50, 1),
  LOOP_GUARD_WINDOW_MS: env.int(10_000, 100),
  SPEND_WINDOW_MS: env.int(3_600_000, 1_000),
  /** Upper bound of a model call's completion used to reserve spend before the call (tokens). */
  SPEND_RESERVE_COMPLETION_TOKENS: env.int(512, 1),
  /** last_used of keys is reported to control-plane in batches this often (ms). */
  KEY_USAGE_FLUSH_MS: env.int(5_000, 100),
  /** A perimeter_block audit per (cause, key, ip) at most this often (ms), so floods do not flood the audit log. */
  PERIMETER_AUDIT_INTERVAL_MS: env.int(10_000, 0),
  /** Deadline of one model call through provider-proxy (ms), retries and fallbacks included. */
  MODEL_CALL_DEADLINE_MS: env.int(120_000, 1_000),
});

export type EdgeEnv = z.infer<typeof edgeEnvSchema>;

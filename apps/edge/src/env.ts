import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const edgeEnvSchema = z.object({
  ...baseEnvShape,
  EDGE_HOST: z.string().default('127.0.0.1'),
  EDGE_PORT: env.port(8080),
  EDGE_OPS_PORT: env.port(9100),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  LEDGER_ADDRESS: z.string().default('127.0.0.1:50052'),
  GUARDRAIL_ADDRESS: z.string().default('127.0.0.1:50053'),
  ROUTER_ADDRESS: z.string().default('127.0.0.1:50054'),
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
  JSON_BODY_LIMIT: z.string().default('1mb'),
  GATEWAY_VERSION: z.string().default('0.1.0'),
});

export type EdgeEnv = z.infer<typeof edgeEnvSchema>;

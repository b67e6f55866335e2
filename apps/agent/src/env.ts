import { z } from 'zod';
import { env } from '@gateway/config';

/**
 * The agent runs in the consumer's network: it knows the gateway's public address and nothing
 * else (no internal service credential; it acts with each caller's API key).
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: env.logLevel(),
  OPS_HOST: z.string().default('127.0.0.1'),
  AGENT_HOST: z.string().default('127.0.0.1'),
  AGENT_PORT: env.port(8085),
  AGENT_OPS_PORT: env.port(9110),
  /** The hosted gateway's base address, e.g. https://gateway.example.com. */
  AGENT_GATEWAY_URL: z.string().url('must be the gateway base URL, e.g. https://gateway.example.com').refine((value) => /^https?:\/\//.test(value), 'must be an http(s) URL'),
  /** How long a project's policy is applied before it is fetched again (ms). */
  AGENT_POLICY_TTL_MS: env.int(30_000, 0),
  /** While the gateway cannot be asked, the last policy is still applied up to this age (ms). */
  AGENT_POLICY_MAX_STALE_MS: env.int(600_000, 0),
  /** Until the gateway's response headers arrive (ms); a model call may take up to 120 s there. */
  AGENT_UPSTREAM_TIMEOUT_MS: env.int(130_000, 1_000),
  AGENT_BODY_LIMIT: z.string().default('1mb'),
  AGENT_VERSION: z.string().default('0.1.0'),
});

export type AgentEnv = z.infer<typeof envSchema>;

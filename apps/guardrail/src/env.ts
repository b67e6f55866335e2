import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  GUARDRAIL_HOST: z.string().default('127.0.0.1'),
  GUARDRAIL_PORT: env.port(50053),
  GUARDRAIL_OPS_PORT: env.port(9103),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Upper bound on how long a project's policy is reused; project.changed drops it at once. */
  GUARDRAIL_POLICY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
});

export type AppEnv = z.infer<typeof envSchema>;

import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  ROUTER_HOST: z.string().default('127.0.0.1'),
  ROUTER_PORT: env.port(50054),
  ROUTER_OPS_PORT: env.port(9104),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /**
   * How long a project's settings and registry are reused, ms. project.changed drops them at
   * once; the TTL only bounds staleness when an event is missed.
   */
  ROUTER_POLICY_CACHE_MS: env.int(60_000, 0),
});

export type AppEnv = z.infer<typeof envSchema>;

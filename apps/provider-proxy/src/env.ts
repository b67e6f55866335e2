import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  PROVIDER_PROXY_HOST: z.string().default('127.0.0.1'),
  PROVIDER_PROXY_PORT: env.port(50055),
  PROVIDER_PROXY_OPS_PORT: env.port(9105),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
});

export type AppEnv = z.infer<typeof envSchema>;

import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  ROUTER_HOST: z.string().default('127.0.0.1'),
  ROUTER_PORT: env.port(50054),
  ROUTER_OPS_PORT: env.port(9104),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
});

export type AppEnv = z.infer<typeof envSchema>;

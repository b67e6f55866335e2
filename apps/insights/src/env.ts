import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  INSIGHTS_HOST: z.string().default('127.0.0.1'),
  INSIGHTS_PORT: env.port(50057),
  INSIGHTS_OPS_PORT: env.port(9107),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
});

export type AppEnv = z.infer<typeof envSchema>;

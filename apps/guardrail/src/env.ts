import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  GUARDRAIL_HOST: z.string().default('127.0.0.1'),
  GUARDRAIL_PORT: env.port(50053),
  GUARDRAIL_OPS_PORT: env.port(9103),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
});

export type AppEnv = z.infer<typeof envSchema>;

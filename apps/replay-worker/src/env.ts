import { z } from 'zod';
import { baseEnvShape, env } from '@gateway/config';

export const envSchema = z.object({
  ...baseEnvShape,
  REPLAY_WORKER_HOST: z.string().default('127.0.0.1'),
  REPLAY_WORKER_PORT: env.port(50058),
  REPLAY_WORKER_OPS_PORT: env.port(9108),
  CONTROL_PLANE_ADDRESS: z.string().default('127.0.0.1:50051'),
});

export type AppEnv = z.infer<typeof envSchema>;

import { z } from 'zod';
import { baseEnvShape, env, secret } from '@gateway/config';

export const controlPlaneEnvSchema = z.object({
  ...baseEnvShape,
  CONTROL_PLANE_HOST: z.string().default('127.0.0.1'),
  CONTROL_PLANE_PORT: env.port(50051),
  CONTROL_PLANE_OPS_PORT: env.port(9101),
  DATABASE_URL: secret(z.string().url(), 'DATABASE_URL'),
  DATABASE_SCHEMA: z.string().default('public'),
  DATABASE_POOL_MAX: env.int(10, 1),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /** Sessions live this long (hours) unless revoked. */
  SESSION_TTL_HOURS: env.number(12, 0.001),
  /** How long edge may cache a verified API key (ms); key.changed events invalidate sooner. */
  KEY_CACHE_TTL_MS: env.int(30_000),
  /** `id:base64(32 bytes)[,id:base64...]`: the first encrypts model api_keys, all decrypt. */
  GATEWAY_ENCRYPTION_KEYS: secret(z.string().min(1), 'GATEWAY_ENCRYPTION_KEYS'),
  GATEWAY_BOOTSTRAP_EMAIL: z.string().email().optional(),
  GATEWAY_BOOTSTRAP_PASSWORD: secret(z.string().min(8).optional(), 'GATEWAY_BOOTSTRAP_PASSWORD'),
});

export type ControlPlaneEnv = z.infer<typeof controlPlaneEnvSchema>;

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
  /** Login throttling: failed attempts (password or MFA code) allowed per account / per IP within the window. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: env.int(5, 1),
  LOGIN_MAX_FAILURES_PER_IP: env.int(20, 1),
  LOGIN_THROTTLE_WINDOW_SECONDS: env.int(900, 1),
  /** Issuer shown by authenticator apps for TOTP. */
  MFA_ISSUER: z.string().min(1).max(64).default('Governed AI Gateway'),
  INVITE_TTL_HOURS: env.number(72, 0.001),
  EMAIL_VERIFICATION_TTL_HOURS: env.number(48, 0.001),
  /** Durable consumer of step.recorded that keeps total_monthly_spend (one per deployment). */
  CONTROL_PLANE_SPEND_DURABLE: z.string().regex(/^[A-Za-z0-9_-]+$/).default('control-plane-spend'),
  /** Most step.recorded events applied in one statement. */
  CONTROL_PLANE_SPEND_BATCH_MAX: env.int(500, 1),
  /** How long an event may wait for its batch to fill (ms): the spend is that much later, for far fewer statements. */
  CONTROL_PLANE_SPEND_BATCH_WAIT_MS: env.int(100),
  /** perimeter_block rows stored per client IP and minute (per replica); beyond that they are only counted. */
  PERIMETER_AUDIT_PER_IP_PER_MINUTE: env.int(60, 1),
  /** How often expired sessions, old throttle rows and processed event ids are pruned (ms). */
  MAINTENANCE_INTERVAL_MS: env.int(3_600_000, 1_000),
  /** How long edge may cache a verified API key (ms); key.changed events invalidate sooner. */
  KEY_CACHE_TTL_MS: env.int(30_000),
  /** `id:base64(32 bytes)[,id:base64...]`: the first encrypts model api_keys, all decrypt. */
  GATEWAY_ENCRYPTION_KEYS: secret(z.string().min(1), 'GATEWAY_ENCRYPTION_KEYS'),
  GATEWAY_BOOTSTRAP_EMAIL: z.string().email().optional(),
  GATEWAY_BOOTSTRAP_PASSWORD: secret(z.string().min(8).optional(), 'GATEWAY_BOOTSTRAP_PASSWORD'),
});

export type ControlPlaneEnv = z.infer<typeof controlPlaneEnvSchema>;

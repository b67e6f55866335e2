import { z } from 'zod';
import { env } from '@gateway/config';

/**
 * The dashboard server holds no credential of its own: it serves the web console and relays
 * `/api/*` and `/up` to the edge with the caller's session cookie (same origin, so the HttpOnly
 * cookie set by the edge works in the browser).
 */
export const dashboardEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: env.logLevel(),
  OPS_HOST: z.string().default('127.0.0.1'),
  DASHBOARD_HOST: z.string().default('127.0.0.1'),
  DASHBOARD_PORT: env.port(3000),
  DASHBOARD_OPS_PORT: env.port(9111),
  /** The edge's base address (the public REST API). */
  EDGE_URL: z
    .string()
    .default('http://127.0.0.1:8080')
    .refine((value) => /^https?:\/\/[^/]+\/?$/.test(value), 'must be the edge base URL without a path, e.g. http://127.0.0.1:8080'),
  /** The built web console; by default the `web/` folder beside the bundle. */
  DASHBOARD_WEB_DIR: z.string().optional(),
  /**
   * Proxies in front of the dashboard whose X-Forwarded-For is believed (express `trust proxy`:
   * `loopback`, a CIDR list, a hop count). Unset: the client is the connecting address.
   */
  DASHBOARD_TRUST_PROXY: z.string().optional(),
  /** Until the edge's response headers arrive (ms). */
  DASHBOARD_UPSTREAM_TIMEOUT_MS: env.int(130_000, 1_000),
  GATEWAY_VERSION: z.string().default('0.1.0'),
});

export type DashboardEnv = z.infer<typeof dashboardEnvSchema>;

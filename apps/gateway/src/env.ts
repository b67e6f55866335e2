import { z } from 'zod';
import { env } from '@gateway/config';

export const gatewayEnvSchema = z.object({
  /** Where the embedded gateway keeps its database and bootstrap file. */
  GATEWAY_DATA_DIR: z.string().default('.gateway-data'),
  EDGE_HOST: z.string().default('127.0.0.1'),
  EDGE_PORT: env.port(8080),
  MOCK_PROVIDER_PORT: env.port(8090),
  GATEWAY_BOOTSTRAP_EMAIL: z.string().email().default('owner@gateway.local'),
  GATEWAY_BOOTSTRAP_PASSWORD: z.string().min(8).optional(),
  LOG_LEVEL: env.logLevel().default('warn'),
});

export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;

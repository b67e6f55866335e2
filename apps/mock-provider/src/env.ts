import { z } from 'zod';
import { env, loadEnv, secret } from '@gateway/config';

export const mockProviderEnvSchema = z
  .object({
    LOG_LEVEL: env.logLevel(),
    MOCK_PROVIDER_PORT: env.port(8090),
    MOCK_PROVIDER_HOST: z.string().default('127.0.0.1'),
    /** Delay before every answer, ms; a request can override it with x-mock-latency-ms. */
    MOCK_LATENCY_MS: env.int(0),
    /** Entries kept in the request log (GET /__mock/requests). */
    MOCK_REQUEST_LOG_LIMIT: env.int(1000),
    /** SigV4 key pair the Bedrock routes accept; both or neither (default: the built-in test pair). */
    MOCK_AWS_ACCESS_KEY_ID: z.string().optional(),
    MOCK_AWS_SECRET_ACCESS_KEY: secret(z.string().optional(), 'MOCK_AWS_SECRET_ACCESS_KEY'),
  })
  .refine((value) => (value.MOCK_AWS_ACCESS_KEY_ID === undefined) === (value.MOCK_AWS_SECRET_ACCESS_KEY === undefined), {
    message: 'MOCK_AWS_ACCESS_KEY_ID and MOCK_AWS_SECRET_ACCESS_KEY must be set together',
    path: ['MOCK_AWS_ACCESS_KEY_ID'],
  });

export type MockProviderEnv = z.infer<typeof mockProviderEnvSchema>;

/** The only reader of process.env in this app. Throws a ConfigError naming bad variables. */
export function loadMockProviderEnv(source: Record<string, string | undefined> = process.env): MockProviderEnv {
  return loadEnv(mockProviderEnvSchema, source);
}

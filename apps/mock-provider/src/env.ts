import { z } from 'zod';

// Empty strings mean "unset", so `MOCK_LATENCY_MS=` falls back to the default.
const optional = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema.optional());

const envSchema = z
  .object({
    MOCK_PROVIDER_PORT: optional(z.coerce.number().int().min(0).max(65_535)).default(8090),
    MOCK_PROVIDER_HOST: optional(z.string()).default('127.0.0.1'),
    /** Delay before every answer, ms. */
    MOCK_LATENCY_MS: optional(z.coerce.number().int().min(0)).default(0),
    MOCK_REQUEST_LOG_LIMIT: optional(z.coerce.number().int().min(0)).default(1000),
    /** SigV4 key pair the Bedrock routes accept; both or neither (default: the built-in test pair). */
    MOCK_AWS_ACCESS_KEY_ID: optional(z.string()),
    MOCK_AWS_SECRET_ACCESS_KEY: optional(z.string()),
  })
  .refine((env) => (env.MOCK_AWS_ACCESS_KEY_ID === undefined) === (env.MOCK_AWS_SECRET_ACCESS_KEY === undefined), {
    message: 'MOCK_AWS_ACCESS_KEY_ID and MOCK_AWS_SECRET_ACCESS_KEY must be set together',
  });

export type MockProviderEnv = z.infer<typeof envSchema>;

/** Secrets are never part of an error message: only the failing variable names are. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): MockProviderEnv {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`Invalid mock-provider environment: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`).join('; ')}`);
  }
  return parsed.data;
}

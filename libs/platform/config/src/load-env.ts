import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly issues: string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Environment variables whose values must never be logged (filled by `secret()`). */
const secretNames = new Set<string>();

/** Marks a variable as secret so logs and dumps redact it. */
export function secret<T extends z.ZodType>(schema: T, name: string): T {
  secretNames.add(name);
  return schema;
}

export function isSecretSetting(name: string): boolean {
  return secretNames.has(name);
}

/**
 * Parses the environment once with the app's zod schema. Empty strings count as unset (so
 * `FOO=` in a compose file falls back to the default). A bad value throws a ConfigError that
 * names every offending variable; `main.ts` prints it and exits 1.
 */
export function loadEnv<S extends z.ZodObject>(schema: S, source: Record<string, string | undefined>): z.infer<S> {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value.trim() !== '') cleaned[key] = value;
  }
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  return result.data;
}

/** Common field builders so every app spells ports, booleans and lists the same way. */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65_535).default(fallback),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  number: (fallback: number, min = 0) => z.coerce.number().min(min).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true' || value === '1' || value === 'yes'),
  list: () =>
    z
      .string()
      .default('')
      .transform((value) => value.split(',').map((item) => item.trim()).filter(Boolean)),
  url: () => z.string().url(),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/** The settings every process shares: identity, logging and the internal service credential. */
export const baseEnvShape = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: env.logLevel(),
  GATEWAY_INTERNAL_TOKEN: secret(z.string().min(16, 'must be at least 16 characters'), 'GATEWAY_INTERNAL_TOKEN'),
  OPS_HOST: z.string().default('127.0.0.1'),
  /**
   * Graceful stop (ms): how long /readyz answers 503 before the server stops accepting, so load
   * balancers notice first (0 when a Kubernetes preStop hook already waits) ...
   */
  SHUTDOWN_DRAIN_DELAY_MS: env.int(0),
  /** ... and how long in-flight requests and streams may take before they are cancelled. */
  SHUTDOWN_GRACE_MS: env.int(10_000),
};

export function runOrExit(start: () => Promise<unknown>): void {
  start().catch((error: unknown) => {
    // stderr directly: the logger may not exist yet when configuration fails.
    process.stderr.write(`${error instanceof ConfigError ? error.message : (error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  });
}

/**
 * SIGTERM/SIGINT: run the app's drain (stop accepting, finish in-flight work, flush outboxes,
 * ack or nack messages), then exit. A second signal exits at once; so does a drain that outlives
 * `timeoutMs` (keep it under the orchestrator's grace period, 30 s in Kubernetes by default).
 */
export function onShutdown(stop: () => Promise<void>, timeoutMs = 25_000): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    process.stderr.write(`${signal} received, draining\n`);
    const timer = setTimeout(() => {
      process.stderr.write(`drain did not finish within ${timeoutMs} ms; exiting\n`);
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

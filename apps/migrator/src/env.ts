import { z } from 'zod';
import { env, secret } from '@gateway/config';

/** The data-owning apps; each has its own database and `prisma/migrations`. */
export const MIGRATABLE_APPS = ['control-plane', 'ledger', 'analytics', 'insights'] as const;
export type MigratableApp = (typeof MIGRATABLE_APPS)[number];

export const migratorEnvSchema = z.object({
  LOG_LEVEL: env.logLevel(),
  /** Whose migrations to apply: the bundle of this app carries them in `prisma/migrations`. */
  MIGRATE_APP: z.enum(MIGRATABLE_APPS),
  DATABASE_URL: secret(z.string().url(), 'DATABASE_URL'),
  DATABASE_SCHEMA: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and _ only').default('public'),
  /** Overrides where the migrations are read from (default: `dist/apps/<MIGRATE_APP>/prisma/migrations`). */
  MIGRATIONS_DIR: z.string().optional(),
});

export type MigratorEnv = z.infer<typeof migratorEnvSchema>;

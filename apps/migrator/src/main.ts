import { existsSync } from 'node:fs';
import { loadEnv, runOrExit } from '@gateway/config';
import { runMigrations } from '@gateway/db';
import { createLogger } from '@gateway/logging';
import { migratorEnvSchema } from './env';
import { migrateDatabase } from './migrate-database.usecase';

// One-shot: exits 0 once the database is up to date, 1 (via runOrExit) on a bad setting or a failed migration.
runOrExit(async () => {
  const env = loadEnv(migratorEnvSchema, process.env);
  const logger = createLogger({ service: 'migrator', level: env.LOG_LEVEL });
  await migrateDatabase(env, { runMigrations, directoryExists: existsSync, logger, bundleDir: __dirname });
});

import { join } from 'node:path';
import type { MigrateOptions, MigrationResult } from '@gateway/db';
import type { Logger } from '@gateway/logging';
import type { MigratorEnv } from './env';

export interface MigrateDatabaseDeps {
  runMigrations: (options: MigrateOptions) => Promise<MigrationResult>;
  directoryExists: (path: string) => boolean;
  logger: Logger;
  /** Directory of the migrator's bundle (`dist/apps/migrator`); the apps' bundles are its siblings. */
  bundleDir: string;
}

/** Every app bundle carries its migrations next to its main.js (tools/build/bundle.mjs copies them). */
export function migrationsDirFor(env: Pick<MigratorEnv, 'MIGRATE_APP' | 'MIGRATIONS_DIR'>, bundleDir: string): string {
  return env.MIGRATIONS_DIR ?? join(bundleDir, '..', env.MIGRATE_APP, 'prisma/migrations');
}

/**
 * Applies one database's pending migrations (the Helm pre-install/pre-upgrade Job and the
 * compose one-shot run this). A missing migrations directory is an error rather than "nothing
 * to do": it means the image was built without the app's bundle, and the app would then start
 * against a schema that is not there.
 */
export async function migrateDatabase(env: MigratorEnv, deps: MigrateDatabaseDeps): Promise<MigrationResult> {
  const migrationsDir = migrationsDirFor(env, deps.bundleDir);
  if (!deps.directoryExists(migrationsDir)) {
    throw new Error(`no migrations for ${env.MIGRATE_APP} at ${migrationsDir} (is the app bundled in this image?)`);
  }
  const result = await deps.runMigrations({ url: env.DATABASE_URL, schema: env.DATABASE_SCHEMA, migrationsDir, logger: deps.logger });
  deps.logger.info({ app: env.MIGRATE_APP, schema: env.DATABASE_SCHEMA, applied: result.applied, alreadyApplied: result.alreadyApplied.length }, 'migrations up to date');
  return result;
}

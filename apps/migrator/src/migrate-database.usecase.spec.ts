import { join } from 'node:path';
import type { MigrateOptions, MigrationResult } from '@gateway/db';
import { createLogger } from '@gateway/logging';
import type { MigratorEnv } from './env';
import { migrateDatabase, migrationsDirFor } from './migrate-database.usecase';

const BUNDLE_DIR = '/app/dist/apps/migrator';
const env: MigratorEnv = {
  LOG_LEVEL: 'info',
  MIGRATE_APP: 'ledger',
  DATABASE_URL: 'postgresql://gateway:s3cret-pw@db:5432/gateway_ledger',
  DATABASE_SCHEMA: 'public',
};

function harness(existing: string[], result: MigrationResult = { applied: ['20260101000000_init'], alreadyApplied: [] }) {
  const lines: string[] = [];
  const calls: MigrateOptions[] = [];
  const logger = createLogger({ service: 'migrator', destination: { write: (line: string) => void lines.push(line) } });
  const deps = {
    runMigrations: async (options: MigrateOptions) => {
      calls.push(options);
      return result;
    },
    directoryExists: (path: string) => existing.includes(path),
    logger,
    bundleDir: BUNDLE_DIR,
  };
  return { deps, calls, lines };
}

describe('migrationsDirFor', () => {
  it('points at the sibling bundle of the app', () => {
    expect(migrationsDirFor({ MIGRATE_APP: 'control-plane' }, BUNDLE_DIR)).toBe(join('/app/dist/apps/control-plane/prisma/migrations'));
  });

  it('prefers MIGRATIONS_DIR when set', () => {
    expect(migrationsDirFor({ MIGRATE_APP: 'control-plane', MIGRATIONS_DIR: '/srv/migrations' }, BUNDLE_DIR)).toBe('/srv/migrations');
  });
});

describe('migrateDatabase', () => {
  it('runs the app migrations against the configured database and schema', async () => {
    const { deps, calls } = harness(['/app/dist/apps/ledger/prisma/migrations']);
    await expect(migrateDatabase({ ...env, DATABASE_SCHEMA: 'tenant_a' }, deps)).resolves.toEqual({ applied: ['20260101000000_init'], alreadyApplied: [] });
    expect(calls).toEqual([{ url: env.DATABASE_URL, schema: 'tenant_a', migrationsDir: '/app/dist/apps/ledger/prisma/migrations', logger: deps.logger }]);
  });

  it('refuses to run when the app bundle carries no migrations', async () => {
    const { deps, calls } = harness([]);
    await expect(migrateDatabase(env, deps)).rejects.toThrow('no migrations for ledger at /app/dist/apps/ledger/prisma/migrations');
    expect(calls).toEqual([]);
  });

  it('propagates a failed migration', async () => {
    const { deps } = harness(['/app/dist/apps/ledger/prisma/migrations']);
    deps.runMigrations = async () => {
      throw new Error('migration 20260101000000_init failed: syntax error');
    };
    await expect(migrateDatabase(env, deps)).rejects.toThrow('20260101000000_init failed');
  });

  it('logs what it applied but never the database URL', async () => {
    const { deps, lines } = harness(['/app/dist/apps/ledger/prisma/migrations'], { applied: ['20260202000000_two'], alreadyApplied: ['20260101000000_init'] });
    await migrateDatabase(env, deps);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged).toEqual([expect.objectContaining({ app: 'ledger', schema: 'public', applied: ['20260202000000_two'], alreadyApplied: 1, msg: 'migrations up to date' })]);
    expect(lines.join('\n')).not.toContain('s3cret-pw');
  });
});

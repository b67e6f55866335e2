import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Logger } from '@gateway/logging';

export interface MigrateOptions {
  url: string;
  /** PostgreSQL schema the service owns (`public` for a dedicated database). */
  schema: string;
  /** `prisma/migrations` of the service: `<timestamp>_<name>/migration.sql`. */
  migrationsDir: string;
  logger?: Logger;
}

export interface MigrationResult {
  applied: string[];
  alreadyApplied: string[];
}

/** Prisma's own bookkeeping table, so `prisma migrate deploy` sees the same history. */
const PRISMA_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"              VARCHAR(64) NOT NULL,
  "finished_at"           TIMESTAMPTZ,
  "migration_name"        VARCHAR(255) NOT NULL,
  "logs"                  TEXT,
  "rolled_back_at"        TIMESTAMPTZ,
  "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export function listMigrations(migrationsDir: string): { name: string; sql: string; checksum: string }[] {
  if (!existsSync(migrationsDir)) return [];
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(migrationsDir, entry.name, 'migration.sql')))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(migrationsDir, name, 'migration.sql'), 'utf8');
      // Prisma records the SHA-256 of the file's bytes.
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    });
}

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new Error(`invalid schema name: ${name}`);
  return `"${name}"`;
}

/**
 * Applies pending migrations in order, each in its own transaction, recording them in
 * `_prisma_migrations`. An advisory lock keeps concurrent replicas (or a Helm hook and a
 * replica) from applying the same migration twice. An applied migration whose file changed
 * stops the run: landed migrations are append-only.
 */
export async function runMigrations(options: MigrateOptions): Promise<MigrationResult> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const schema = quoteIdent(options.schema);
  const result: MigrationResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`SET search_path TO ${schema}`);
    const lockKey = createHash('sha256').update(`migrations:${options.schema}`).digest().readInt32BE(0);
    await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
    try {
      await client.query(PRISMA_MIGRATIONS_TABLE);
      const { rows } = await client.query<{ migration_name: string; checksum: string }>(
        'SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
      );
      const applied = new Map(rows.map((row) => [row.migration_name, row.checksum]));
      for (const migration of listMigrations(options.migrationsDir)) {
        const previous = applied.get(migration.name);
        if (previous !== undefined) {
          if (previous !== migration.checksum) throw new Error(`migration ${migration.name} was modified after it was applied`);
          result.alreadyApplied.push(migration.name);
          continue;
        }
        const id = randomUUID();
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query(
            'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count) VALUES ($1, $2, $3, now(), now(), 1)',
            [id, migration.checksum, migration.name],
          );
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
        }
        options.logger?.info({ migration: migration.name, schema: options.schema }, 'migration applied');
        result.applied.push(migration.name);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [lockKey]);
    }
  } finally {
    await client.end();
  }
  return result;
}

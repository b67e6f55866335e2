import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { diffSchemaAgainstDatabase, ensureDatabase, runMigrations } from '@gateway/db';

const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

/** Applies an app's migrations to a fresh schema and diffs its Prisma schema against it. */
export async function schemaDifferences(appDir: string, schema: string): Promise<string[]> {
  const url = await ensureDatabase(ADMIN_URL, 'gw_it_schema_check');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
  await runMigrations({ url, schema, migrationsDir: join(appDir, 'prisma/migrations') });
  return diffSchemaAgainstDatabase(readFileSync(join(appDir, 'prisma/schema.prisma'), 'utf8'), url, schema);
}

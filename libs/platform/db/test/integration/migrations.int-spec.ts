import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { diffSchemaAgainstDatabase, ensureDatabase, runMigrations } from '../../src';

const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

const SCHEMA = `model Thing {\n  id BigInt @id @default(autoincrement())\n  name String\n  note String? @map("note_text")\n  @@map("things")\n}`;

describe('migration runner and schema check', () => {
  let url: string;
  const schema = `mig_${Date.now()}`;
  beforeAll(async () => {
    url = await ensureDatabase(ADMIN_URL, 'gw_it_migrations');
  });
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('applies pending migrations once, records them like Prisma, and refuses an edited one', async () => {
    const dir = migrationsDir({ '20260101000000_init': 'CREATE TABLE things (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL);' });
    await expect(runMigrations({ url, schema, migrationsDir: dir })).resolves.toEqual({ applied: ['20260101000000_init'], alreadyApplied: [] });
    await expect(runMigrations({ url, schema, migrationsDir: dir })).resolves.toEqual({ applied: [], alreadyApplied: ['20260101000000_init'] });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT migration_name, length(checksum) AS len, finished_at IS NOT NULL AS done FROM "${schema}"._prisma_migrations`);
    await client.end();
    expect(rows).toEqual([{ migration_name: '20260101000000_init', len: 64, done: true }]);

    writeFileSync(join(dir, '20260101000000_init', 'migration.sql'), 'CREATE TABLE things (id BIGSERIAL PRIMARY KEY);');
    await expect(runMigrations({ url, schema, migrationsDir: dir })).rejects.toThrow(/was modified/);
  });

  it('reports a column the schema has but the database lacks, and a type mismatch', async () => {
    const differences = await diffSchemaAgainstDatabase(SCHEMA, url, schema);
    expect(differences).toContain('column things.note_text is missing');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`ALTER TABLE "${schema}".things ADD COLUMN note_text INTEGER`);
    await client.end();
    expect(await diffSchemaAgainstDatabase(SCHEMA, url, schema)).toEqual(['column things.note_text is int4, schema says text']);
  });
});

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ensureDatabase } from '@gateway/db';
import { MIGRATABLE_APPS } from '../../src/env';

// Runs the real bundle (`nx run migrator:integration` bundles it first) the way the Helm Job and
// the compose one-shot do, against the real PostgreSQL.
const ROOT = join(__dirname, '../../../..');
const BUNDLE = join(ROOT, 'dist/apps/migrator');
const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
// Inside the repository so the bundle's external packages resolve from node_modules.
const IMAGE = join(ROOT, 'tmp', `migrator-it-${randomBytes(4).toString('hex')}`);

let url: string;

function run(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(IMAGE, 'dist/apps/migrator/main.js')], { env: { PATH: process.env.PATH ?? '', ...env }, cwd: IMAGE });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

function fixture(app: string, migrations: Record<string, string>): void {
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(join(IMAGE, 'dist/apps', app, 'prisma/migrations', name), { recursive: true });
    writeFileSync(join(IMAGE, 'dist/apps', app, 'prisma/migrations', name, 'migration.sql'), sql);
  }
}

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const freshSchema = () => `migrator_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  if (!existsSync(join(BUNDLE, 'main.js'))) throw new Error('dist/apps/migrator/main.js is missing: run `npx nx run migrator:bundle`');
  // The image layout: every app bundle under dist/apps, the migrator beside them.
  cpSync(BUNDLE, join(IMAGE, 'dist/apps/migrator'), { recursive: true });
  fixture('ledger', {
    '20260101000000_init': 'CREATE TABLE "trace" ("id" TEXT PRIMARY KEY);',
    '20260102000000_add_name': 'ALTER TABLE "trace" ADD COLUMN "name" TEXT;',
  });
  fixture('insights', { '20260101000000_broken': 'CREATE TABLE "insight" ("id" TEXT PRIMARY KEY, oops);' });
  url = await ensureDatabase(ADMIN_URL, 'gw_it_migrator');
});

afterAll(() => rmSync(IMAGE, { recursive: true, force: true }));

describe('migrator bundle', () => {
  it('applies the app migrations found beside its bundle, exits 0, and is idempotent', async () => {
    const schema = freshSchema();
    const first = await run({ MIGRATE_APP: 'ledger', DATABASE_URL: url, DATABASE_SCHEMA: schema });
    expect(first).toMatchObject({ code: 0 });
    expect(first.stdout).toContain('migrations up to date');
    const second = await run({ MIGRATE_APP: 'ledger', DATABASE_URL: url, DATABASE_SCHEMA: schema });
    expect(second.code).toBe(0);

    const recorded = await query<{ migration_name: string }>(`SELECT migration_name FROM "${schema}"."_prisma_migrations" ORDER BY migration_name`);
    expect(recorded.map((row) => row.migration_name)).toEqual(['20260101000000_init', '20260102000000_add_name']);
    const columns = await query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_schema = '${schema}' AND table_name = 'trace' ORDER BY column_name`);
    expect(columns.map((row) => row.column_name)).toEqual(['id', 'name']);
  });

  it.each(MIGRATABLE_APPS)('applies the real %s migrations (MIGRATIONS_DIR) in order', async (app) => {
    const schema = freshSchema();
    const dir = join(ROOT, 'apps', app, 'prisma/migrations');
    const result = await run({ MIGRATE_APP: app, DATABASE_URL: url, DATABASE_SCHEMA: schema, MIGRATIONS_DIR: dir });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const expected = readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
    expect(expected.length).toBeGreaterThan(0);
    const recorded = await query<{ migration_name: string }>(`SELECT migration_name FROM "${schema}"."_prisma_migrations" ORDER BY migration_name`);
    expect(recorded.map((row) => row.migration_name)).toEqual(expected);
  });

  it('exits 1 when the app bundle carries no migrations', async () => {
    const result = await run({ MIGRATE_APP: 'analytics', DATABASE_URL: url, DATABASE_SCHEMA: freshSchema() });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no migrations for analytics');
  });

  it('exits 1 on a failed migration and records nothing for it', async () => {
    const schema = freshSchema();
    const result = await run({ MIGRATE_APP: 'insights', DATABASE_URL: url, DATABASE_SCHEMA: schema });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('migration 20260101000000_broken failed');
    await expect(query(`SELECT 1 FROM "${schema}"."_prisma_migrations"`)).resolves.toEqual([]);
  });

  it('exits 1 naming the bad variable, without echoing the database password', async () => {
    const result = await run({ MIGRATE_APP: 'edge', DATABASE_URL: 'postgresql://postgres:hunter2-secret@127.0.0.1:5432/x' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Invalid configuration:\n {2}MIGRATE_APP:/);
    expect(result.stderr + result.stdout).not.toContain('hunter2-secret');
  });
});

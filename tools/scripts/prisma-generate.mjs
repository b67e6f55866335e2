// Generates a service's Prisma client. The Prisma CLI wants a schema-engine binary even though
// `generate` never runs it, and it cannot be downloaded here; any existing file satisfies it.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const projectDir = process.argv[2];
if (!projectDir) throw new Error('usage: prisma-generate.mjs <project-dir>');
execFileSync(join(root, 'node_modules/.bin/prisma'), ['generate', '--schema', join(projectDir, 'prisma/schema.prisma')], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});

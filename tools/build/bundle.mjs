// Bundles an app for production (`node dist/apps/<app>/main.js`): its sources and the shared
// libraries in one file, npm packages left external. `service.js` exposes the start function
// for the embedded launcher. Prisma migrations are copied next to the bundle.
import { build } from 'esbuild';
import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
const app = process.argv[2];
if (!app) throw new Error('usage: bundle.mjs <app>');
const appDir = join(root, 'apps', app);
const outdir = join(root, 'dist/apps', app);
// A web client built beside the bundle by its own target (the dashboard's `web/`, built first) is kept.
for (const entry of existsSync(outdir) ? readdirSync(outdir) : []) if (entry !== 'web') rmSync(join(outdir, entry), { recursive: true, force: true });
const entryPoints = ['main', 'service', 'app'].map((name) => join(appDir, 'src', `${name}.ts`)).filter((file) => existsSync(file));
await build({
  entryPoints,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  tsconfig: join(root, 'tsconfig.base.json'),
  logLevel: 'warning',
});
if (existsSync(join(appDir, 'prisma/migrations'))) cpSync(join(appDir, 'prisma/migrations'), join(outdir, 'prisma/migrations'), { recursive: true });

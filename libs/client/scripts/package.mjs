// Builds the publishable package into dist/libs/client: CommonJS and ES module bundles of
// src/index.ts (no runtime dependencies), type declarations, package.json and README.
// `npm publish dist/libs/client` publishes it.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../../..', import.meta.url).pathname;
const lib = join(root, 'libs/client');
const outdir = join(root, 'dist/libs/client');
rmSync(outdir, { recursive: true, force: true });
for (const [format, file] of [['cjs', 'index.cjs'], ['esm', 'index.mjs']]) {
  await build({ entryPoints: [join(lib, 'src/index.ts')], outfile: join(outdir, file), bundle: true, platform: 'neutral', target: 'es2022', format, sourcemap: true, logLevel: 'warning' });
}
execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(lib, 'tsconfig.lib.json')], { stdio: 'inherit' });
copyFileSync(join(lib, 'package.json'), join(outdir, 'package.json'));
copyFileSync(join(lib, 'README.md'), join(outdir, 'README.md'));

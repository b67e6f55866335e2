import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';

export interface StaticAsset {
  body: Buffer;
  gzip?: Buffer;
  brotli?: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.txt', '.map']);

/**
 * Vite names built files after their content (`assets/index-<hash>.js`): they never change and
 * are cached for a year; the HTML that names them is revalidated on every load.
 */
export function cacheControlFor(path: string): string {
  return path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}

/** The best encoding the caller accepts among those prepared (brotli, gzip, identity). */
export function pickEncoding(acceptEncoding: string | undefined, asset: Pick<StaticAsset, 'gzip' | 'brotli'>): 'br' | 'gzip' | undefined {
  const accepted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (asset.brotli && ok('br')) return 'br';
  if (asset.gzip && ok('gzip')) return 'gzip';
  return undefined;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/**
 * The built console held in memory, compressed once at start (a few hundred kilobytes): each
 * request is a map lookup, with no disk access and no per-request compression.
 */
export function loadStaticAssets(dir: string): Map<string, StaticAsset> {
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`the web console is not built: ${join(dir, 'index.html')} is missing (npx nx run dashboard:build-web)`);
  const assets = new Map<string, StaticAsset>();
  for (const file of filesUnder(dir)) {
    const path = '/' + relative(dir, file).split(sep).join('/');
    const body = readFileSync(file);
    const extension = extname(file).toLowerCase();
    const compress = COMPRESSIBLE.has(extension) && body.length > 512;
    assets.set(path, {
      body,
      gzip: compress ? gzipSync(body, { level: 9 }) : undefined,
      brotli: compress ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }) : undefined,
      type: TYPES[extension] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      cacheControl: cacheControlFor(path),
    });
  }
  return assets;
}

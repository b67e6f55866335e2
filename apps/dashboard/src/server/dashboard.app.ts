import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { Logger } from '@gateway/logging';
import type { ServiceMetrics } from '@gateway/telemetry';
import type { EdgeProxy } from './edge.proxy';
import { isCrossSiteWrite } from './proxy-headers';
import { pickEncoding, type StaticAsset } from './static-assets';

export interface DashboardAppOptions {
  assets: Map<string, StaticAsset>;
  proxy: EdgeProxy;
  /** express `trust proxy` (unset: the connecting address is the client). */
  trustProxy?: string;
}

// The console loads only its own files and talks only to its own origin.
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

const isApiPath = (path: string) => path === '/up' || path === '/api' || path.startsWith('/api/');

function trustSetting(value: string | undefined): boolean | number | string {
  if (value === undefined) return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * The dashboard's HTTP surface: `/api/*` and `/up` relayed to the edge on the same origin (so
 * the edge's HttpOnly session cookie belongs to this origin), everything else the built console.
 */
export function createDashboardApp(options: DashboardAppOptions, logger: Logger, metrics: ServiceMetrics): Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('trust proxy', trustSetting(options.trustProxy));

  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    metrics.inFlight.inc();
    res.on('close', () => {
      metrics.inFlight.dec();
      metrics.requests.inc({ method: req.method, status: String(res.statusCode) });
      metrics.duration.observe({ method: req.method }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  });

  app.use((req, res, next) => {
    if (!isApiPath(req.path)) return next();
    if (isCrossSiteWrite(req.method, req.headers.origin, req.headers.host)) {
      res.status(403).json({ error: 'Cross-origin request refused' });
      return;
    }
    options.proxy.forward(req, res, { clientIp: req.ip ?? req.socket.remoteAddress ?? '', protocol: req.protocol, host: req.headers.host });
  });

  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = req.path === '/' ? '/index.html' : req.path;
    // A path without an extension is a page of the console (it routes in the fragment).
    const asset = options.assets.get(path) ?? (/\.[a-z0-9]+$/i.test(path) ? undefined : options.assets.get('/index.html'));
    if (!asset) return next();
    res.setHeader('vary', 'Accept-Encoding');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    res.setHeader('cache-control', asset.cacheControl);
    res.setHeader('etag', asset.etag);
    if (req.headers['if-none-match'] === asset.etag) {
      res.status(304).end();
      return;
    }
    const encoding = pickEncoding(req.headers['accept-encoding'], asset);
    const body = encoding === 'br' ? asset.brotli! : encoding === 'gzip' ? asset.gzip! : asset.body;
    if (encoding) res.setHeader('content-encoding', encoding);
    res.setHeader('content-type', asset.type);
    res.setHeader('content-length', String(body.length));
    res.status(200).end(req.method === 'HEAD' ? undefined : body);
  });

  app.use((_req, res) => {
    res.status(404).json({ error: 'Not found' });
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(500).json({ error: 'Internal server error' });
  });
  return app;
}

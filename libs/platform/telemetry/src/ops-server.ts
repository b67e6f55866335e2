import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

export interface ServiceMetrics {
  registry: Registry;
  requests: Counter<'method' | 'status'>;
  duration: Histogram<'method'>;
}

/** One registry per app (the embedded default runs several apps in one process). */
export function createServiceMetrics(service: string, withDefaults = true): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'gateway_requests_total', help: 'Requests handled, by method and status', labelNames: ['method', 'status'] as const, registers: [registry] });
  const duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Request handling time in seconds',
    labelNames: ['method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return { registry, requests, duration };
}

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

/** /healthz (process alive), /readyz (dependencies reachable) and /metrics (Prometheus). */
export async function startOpsServer(options: { host: string; port: number; registry: Registry; isReady: () => Promise<boolean> | boolean; version?: string }): Promise<OpsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (path === '/healthz') return reply(200, JSON.stringify({ status: 'ok', version: options.version ?? '0.0.0' }));
    if (path === '/readyz') {
      Promise.resolve()
        .then(() => options.isReady())
        .then((ready) => reply(ready ? 200 : 503, JSON.stringify({ status: ready ? 'ready' : 'not_ready' })))
        .catch(() => reply(503, JSON.stringify({ status: 'not_ready' })));
      return;
    }
    if (path === '/metrics') {
      options.registry
        .metrics()
        .then((text) => reply(200, text, options.registry.contentType))
        .catch(() => reply(500, JSON.stringify({ error: 'Internal server error' })));
      return;
    }
    reply(404, JSON.stringify({ error: 'Not found' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

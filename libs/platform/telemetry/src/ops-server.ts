import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface OpsServer {
  port: number;
  /**
   * The drain started: /readyz answers 503 from now on so load balancers and Kubernetes stop
   * sending new work, while /healthz and /metrics keep answering until `close`.
   */
  setDraining(): void;
  close(): Promise<void>;
}

/** /healthz (process alive), /readyz (dependencies reachable, not draining) and /metrics (Prometheus). */
export async function startOpsServer(options: { host: string; port: number; registry: Registry; isReady: () => Promise<boolean> | boolean; version?: string }): Promise<OpsServer> {
  let draining = false;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const reply = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (path === '/healthz') return reply(200, JSON.stringify({ status: 'ok', version: options.version ?? '0.0.0' }));
    if (path === '/readyz') {
      if (draining) return reply(503, JSON.stringify({ status: 'draining' }));
      Promise.resolve()
        .then(() => options.isReady())
        .then((ready) => reply(ready && !draining ? 200 : 503, JSON.stringify({ status: draining ? 'draining' : ready ? 'ready' : 'not_ready' })))
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
    setDraining: () => {
      draining = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        draining = true;
        server.close(() => resolve());
        // Probes and scrapers keep connections alive; nothing in flight here is worth waiting for.
        server.closeAllConnections();
      }),
  };
}

import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface HttpDrainResult {
  drainedMs: number;
  /** The grace period ran out: the remaining connections were cut. */
  forced: boolean;
  /** Requests (or streams) still running when the grace period ran out. */
  cancelled: number;
}

export interface HttpDrainer {
  /** Requests and streams (SSE) being answered now. */
  readonly inFlight: number;
  /**
   * Graceful stop of an HTTP server: no new connections; requests in flight (streams included)
   * finish, and so do requests already sent on open keep-alive connections, each answered with
   * `Connection: close` so the client reconnects elsewhere; idle connections close at once. After
   * `graceMs` whatever is left is cut.
   */
  drain(graceMs: number): Promise<HttpDrainResult>;
}

/**
 * Tracks a server's requests from the start so a later drain can end keep-alive connections
 * cleanly. (`server.close()` alone leaves a keep-alive connection open after its in-flight
 * response: the client keeps sending on it, and the process exits in the middle of one.)
 */
export function trackHttpServer(server: Server): HttpDrainer {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const closeIdleSoon = () => setImmediate(() => server.closeIdleConnections());

  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    if (draining) res.setHeader('connection', 'close');
    res.once('close', () => {
      inFlight.delete(res);
      // A response whose headers went out before the drain (a stream) kept its connection alive.
      if (draining) closeIdleSoon();
    });
  });

  return {
    get inFlight() {
      return inFlight.size;
    },
    drain: (graceMs) =>
      new Promise<HttpDrainResult>((resolve) => {
        const started = Date.now();
        draining = true;
        for (const res of inFlight) if (!res.headersSent) res.setHeader('connection', 'close');
        const timer = setTimeout(() => {
          const cancelled = inFlight.size;
          server.closeAllConnections();
          resolve({ drainedMs: Date.now() - started, forced: true, cancelled });
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve({ drainedMs: Date.now() - started, forced: false, cancelled: 0 });
        });
        server.closeIdleConnections();
      }),
  };
}

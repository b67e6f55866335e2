import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Logger } from '@gateway/logging';
import { downstreamResponseHeaders, upstreamRequestHeaders, type ForwardedFor } from './proxy-headers';

export interface EdgeProxyOptions {
  /** The edge's base address, e.g. http://127.0.0.1:8080. */
  edgeUrl: string;
  /** Until the edge's response headers arrive (ms); a body then streams as long as it lasts. */
  headersTimeoutMs: number;
}

/**
 * Relays a request to the edge and the answer back, both bodies streamed (nothing buffered, so
 * server-sent events and large lists flow as they come). The caller hanging up aborts the
 * upstream request. The edge unreachable: 502 `{error}`.
 */
export class EdgeProxy {
  private readonly target: URL;
  private readonly agent: http.Agent;
  private readonly transport: typeof http | typeof https;

  constructor(
    private readonly options: EdgeProxyOptions,
    private readonly logger: Logger,
  ) {
    this.target = new URL(options.edgeUrl);
    this.transport = this.target.protocol === 'https:' ? https : http;
    this.agent = new this.transport.Agent({ keepAlive: true, maxSockets: 256 });
  }

  forward(req: IncomingMessage, res: ServerResponse, forwarded: ForwardedFor): void {
    const upstream = this.transport.request({
      protocol: this.target.protocol,
      hostname: this.target.hostname,
      port: this.target.port || undefined,
      method: req.method,
      path: req.url,
      headers: upstreamRequestHeaders(req.headers, forwarded),
      agent: this.agent,
    });
    const timer = setTimeout(() => upstream.destroy(new Error('edge response timeout')), this.options.headersTimeoutMs);

    upstream.on('response', (answer) => {
      clearTimeout(timer);
      res.writeHead(answer.statusCode ?? 502, downstreamResponseHeaders(answer.headers));
      // Each chunk is flushed as it arrives (server-sent events).
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (error) => {
      clearTimeout(timer);
      if (res.destroyed) return;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.logger.warn({ err: error.message, method: req.method, path: req.url?.split('?')[0] }, 'edge unreachable');
      res.writeHead(502, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: 'Bad gateway: the API is unreachable' }));
    });
    // A caller that hangs up before the answer ends cancels the upstream request.
    res.on('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** Whether the edge answers its liveness probe (readiness of this server). */
  async edgeUp(): Promise<boolean> {
    try {
      const response = await fetch(new URL('/up', this.target), { signal: AbortSignal.timeout(2_000) });
      return response.ok;
    } catch {
      return false;
    }
  }

  close(): void {
    this.agent.destroy();
  }
}

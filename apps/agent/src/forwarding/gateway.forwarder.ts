import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { Request, Response } from 'express';
import type { Logger } from '@gateway/logging';
import type { PolicyFetch } from '../policy/policy.source';

export type FetchLike = (input: string, init: RequestInit) => Promise<globalThis.Response>;

/** Connection-level headers (RFC 9110 §7.6.1) and those fetch recomputes; never copied across. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'expect']);
// Bodies travel decoded both ways (the body parser inflates requests, fetch decodes answers).
const REQUEST_SKIP = new Set([...HOP_BY_HOP, 'content-encoding']);
const RESPONSE_SKIP = new Set([...HOP_BY_HOP, 'content-encoding', 'set-cookie']);

export interface ForwarderOptions {
  gatewayUrl: string;
  /** Until the gateway's response headers arrive (ms); a stream then runs as long as it lasts. */
  headersTimeoutMs: number;
  agentVersion: string;
  fetch?: FetchLike;
}

/**
 * Sends requests on to the hosted gateway and relays the answers as they arrive (server-sent
 * events chunk by chunk). A caller that hangs up aborts the upstream request, which cancels the
 * model call at the gateway.
 */
export class GatewayForwarder {
  private readonly fetchImpl: FetchLike;
  private readonly base: string;

  constructor(
    private readonly options: ForwarderOptions,
    private readonly logger: Logger,
  ) {
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.base = options.gatewayUrl.replace(/\/+$/, '');
  }

  private get via(): string {
    return `1.1 gateway-agent/${this.options.agentVersion}`;
  }

  async forward(req: Request, res: Response, body: Buffer | undefined): Promise<void> {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || REQUEST_SKIP.has(name)) continue;
      for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    headers.append('via', this.via);
    const controller = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) controller.abort(new Error('caller hung up'));
    };
    res.on('close', onClose);
    const timer = setTimeout(() => controller.abort(new Error('gateway response timeout')), this.options.headersTimeoutMs);
    let upstream: globalThis.Response;
    try {
      upstream = await this.fetchImpl(this.base + req.originalUrl, {
        method: req.method,
        headers,
        body: body && body.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? body : undefined,
        signal: controller.signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (controller.signal.aborted && res.destroyed) return;
      this.logger.warn({ err: (error as Error)?.message, method: req.method, path: req.path }, 'gateway unreachable');
      if (!res.headersSent) res.status(502).json({ error: 'Gateway unreachable' });
      return;
    } finally {
      clearTimeout(timer);
    }
    res.status(upstream.status);
    upstream.headers.forEach((value, name) => {
      if (!RESPONSE_SKIP.has(name)) res.setHeader(name, value);
    });
    const cookies = upstream.headers.getSetCookie();
    if (cookies.length > 0) res.setHeader('set-cookie', cookies);
    res.setHeader('via', this.via);
    if (!upstream.body) {
      res.end();
      return;
    }
    res.flushHeaders();
    const relay = Readable.fromWeb(upstream.body as unknown as WebReadableStream<Uint8Array>);
    relay.on('error', (error) => {
      if (!controller.signal.aborted) this.logger.warn({ err: error.message, path: req.path }, 'gateway stream broke off');
      res.destroy();
    });
    relay.pipe(res);
  }

  /** A JSON call the agent makes itself, with the caller's credential (policy, block records). */
  async call(method: 'GET' | 'POST', path: string, authorization: string, body?: unknown): Promise<PolicyFetch> {
    try {
      const response = await this.fetchImpl(this.base + path, {
        method,
        headers: { authorization, accept: 'application/json', via: this.via, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(this.options.headersTimeoutMs),
      });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = { error: `HTTP ${response.status}` };
      }
      return { kind: 'answer', status: response.status, body: parsed };
    } catch (error) {
      return { kind: 'unreachable', error: (error as Error)?.message ?? String(error) };
    }
  }

  /** Whether the gateway answers its health check (agent readiness). */
  async gatewayUp(): Promise<boolean> {
    try {
      const response = await this.fetchImpl(`${this.base}/up`, { method: 'GET', signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }
}

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/**
 * The one HTTP client of provider calls: node:http(s) over keep-alive agents, one POST per
 * attempt. Cheaper per call than global fetch (no WHATWG streams, no request clone, no
 * AbortController), with connections to an upstream reused and bounded.
 *
 * Redirects are never followed (a 3xx is handed back like any other status: it could point past
 * the outbound guard), and no compression is asked for.
 */
export interface UpstreamHttpSettings {
  /** Concurrent connections per upstream origin; further requests queue in the agent. */
  maxSocketsPerOrigin: number;
  /** Idle connections kept per origin for reuse. */
  maxIdleSocketsPerOrigin: number;
  /** An idle connection is closed after this long, ms (sooner when the server's Keep-Alive hint says so). */
  idleTimeoutMs: number;
}

export const DEFAULT_UPSTREAM_HTTP: UpstreamHttpSettings = { maxSocketsPerOrigin: 256, maxIdleSocketsPerOrigin: 64, idleTimeoutMs: 4_000 };

export interface UpstreamResponse {
  readonly status: number;
  /** A response header by lower-case name; repeated headers joined by `, `. */
  header(name: string): string | undefined;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /** Body chunks as they arrive. Breaking off before the body's end closes the connection. */
  chunks(): AsyncIterable<Uint8Array>;
  /** Drops the body unread and closes the connection (an error answer may echo the request). */
  discard(): void;
}

/** One request on the wire: its response (2xx or not), and a way to tear it down. */
export interface UpstreamCall {
  readonly response: Promise<UpstreamResponse>;
  /** Destroys the request and its connection; a no-op once the response was read to its end. */
  abort(): void;
}

export interface UpstreamHttpClient {
  /** Sends a POST. Throws synchronously when the headers cannot be sent (invalid characters). */
  post(url: URL, headers: Record<string, string>, body: string): UpstreamCall;
  /** Closes idle connections; in-flight requests finish on theirs. */
  close(): void;
}

/** What a torn-down request rejects with; classified through the attempt's timer, never shown. */
class UpstreamAbortError extends Error {
  readonly code = 'UPSTREAM_ABORTED';
  constructor() {
    super('upstream request aborted');
    this.name = 'AbortError';
  }
}

export function createUpstreamHttpClient(settings: UpstreamHttpSettings = DEFAULT_UPSTREAM_HTTP): UpstreamHttpClient {
  const agentOptions = {
    keepAlive: true,
    maxSockets: settings.maxSocketsPerOrigin,
    maxFreeSockets: settings.maxIdleSocketsPerOrigin,
    // Applied to idle sockets only (an active request's time is the attempt timer's business).
    timeout: settings.idleTimeoutMs,
    // The most recently used connection is the one least likely to have been closed by the server.
    scheduling: 'lifo' as const,
  };
  const http = new HttpAgent(agentOptions);
  const https = new HttpsAgent(agentOptions);

  return {
    post(url, headers, body) {
      const payload = Buffer.from(body, 'utf8');
      const outgoing: OutgoingHttpHeaders = { ...headers, 'content-length': payload.length };
      const secure = url.protocol === 'https:';
      const options = {
        method: 'POST',
        protocol: url.protocol,
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port === '' ? undefined : url.port,
        path: url.pathname + url.search,
        headers: outgoing,
        agent: secure ? https : http,
      };
      const request = secure ? httpsRequest(options) : httpRequest(options);
      let incoming: IncomingMessage | undefined;
      const response = new Promise<UpstreamResponse>((resolve, reject) => {
        request.once('response', (message: IncomingMessage) => {
          incoming = message;
          resolve(new NodeUpstreamResponse(message));
        });
        // Kept for the request's whole life: an 'error' nobody listens to would crash the process.
        request.on('error', reject);
      });
      // Rejections are read by the caller's await; this keeps an abandoned one from being unhandled.
      response.catch(() => undefined);
      request.end(payload);
      return {
        response,
        abort: () => {
          // A response received in full (a stream past its end marker) has handed its connection
          // back to the agent: what is left is drained, and the connection stays pooled.
          if (incoming?.complete) incoming.resume();
          else if (!request.destroyed) request.destroy(new UpstreamAbortError());
        },
      };
    },
    close() {
      http.destroy();
      https.destroy();
    },
  };
}

/** The response side of one exchange (a class: one allocation per call, methods shared). */
class NodeUpstreamResponse implements UpstreamResponse {
  readonly status: number;

  constructor(private readonly message: IncomingMessage) {
    this.status = message.statusCode ?? 0;
  }

  header(name: string): string | undefined {
    const value = this.message.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  text(): Promise<string> {
    const message = this.message;
    return new Promise<string>((resolve, reject) => {
      if (message.destroyed) {
        reject(new UpstreamAbortError());
        return;
      }
      const parts: Buffer[] = [];
      message.on('data', (chunk: Buffer) => parts.push(chunk));
      message.on('end', () => resolve(parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8')));
      message.on('error', reject);
      // A connection torn down mid-body (abort, reset) may close without an error event.
      message.on('close', () => {
        if (!message.complete) reject(new UpstreamAbortError());
      });
    });
  }

  async *chunks(): AsyncGenerator<Uint8Array> {
    const message = this.message;
    let ended = false;
    try {
      for await (const chunk of message.iterator({ destroyOnReturn: false })) yield chunk as Uint8Array;
      ended = true;
    } finally {
      // Broken off: a body received in full is drained (its connection goes back to the pool),
      // anything else is torn down.
      if (!ended) this.discard();
    }
  }

  discard(): void {
    // A body already received in full is drained unread, so its connection can be reused.
    if (this.message.complete) this.message.resume();
    else this.message.destroy();
  }
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { generateAnswer, usageFor } from './answer.generator';
import { BehaviorStore, parseFailureHeader } from './behavior.store';
import { injectedError } from './failure.injector';
import type { MockAnswer, MockBehavior, MockConversation, MockCredentials, MockUsage, RecordedRequest, RenderedJson, RenderedStream, WireFormat } from './mock.types';
import { MockHttpError } from './mock.types';
import { authenticate, malformedBody, matchRoute, parseConversation, type ProviderRoute } from './provider.routes';
import { renderAnthropicJson, renderAnthropicStream } from './wire/anthropic.format';
import { renderConverseJson, renderConverseStream } from './wire/bedrock.format';
import { renderGeminiJson, renderGeminiStream } from './wire/gemini.format';
import { renderOpenAiJson, renderOpenAiStream } from './wire/openai.format';
import { renderResponsesJson, renderResponsesStream } from './wire/openai-responses.format';

export interface MockProviderOptions {
  /** Delay before every answer, ms (env MOCK_LATENCY_MS). Per request: header x-mock-latency-ms. */
  latencyMs?: number;
  credentials?: MockCredentials;
  /** Oldest entries are dropped past this many, so long benchmarks do not grow memory. */
  requestLogLimit?: number;
  /** Clock for SigV4 expiry checks. */
  now?: () => number;
}

export interface MockProvider {
  listen(port: number, host?: string): Promise<{ port: number }>;
  close(): Promise<void>;
  /** Live, in arrival order; admin (/__mock) calls are not recorded. */
  readonly requestLog: RecordedRequest[];
  /** Adds a rule, e.g. `{ model: 'gpt-4o', fail: 503, times: 2 }`. */
  setBehavior(behavior: MockBehavior): void;
  clearBehaviors(): void;
  /** Clears the request log and every behaviour rule. */
  reset(): void;
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;
const ID_PREFIX: Record<WireFormat, string> = { openai: 'call_', internal: 'call_', azure: 'call_', anthropic: 'toolu_', gemini: '', bedrock: 'tooluse_' };

const behaviorSchema = z.object({
  model: z.string().optional(),
  format: z.enum(['openai', 'internal', 'azure', 'anthropic', 'gemini', 'bedrock']).optional(),
  times: z.number().int().positive().optional(),
  fail: z.union([z.number().int().min(100).max(599), z.enum(['timeout', 'reset', 'broken-stream', 'broken-stream-early', 'stalled-stream'])]).optional(),
  retryAfterSeconds: z.number().nonnegative().optional(),
  latencyMs: z.number().nonnegative().optional(),
  cachedTokens: z.number().int().nonnegative().optional(),
  omitUsage: z.boolean().optional(),
});

/**
 * HTTP test double speaking the six providers' wire formats on one port. Usable in-process by
 * tests (createMockProvider(...).listen(0)) and as the mock-provider app.
 */
export function createMockProvider(options: MockProviderOptions = {}): MockProvider {
  const requestLog: RecordedRequest[] = [];
  const behaviors = new BehaviorStore();
  const credentials = options.credentials ?? {};
  const logLimit = options.requestLogLimit ?? 1000;
  const now = options.now ?? Date.now;
  let sequence = 0;

  function record(entry: RecordedRequest): void {
    requestLog.push(entry);
    // Trimmed in batches so the hot path does not shift the array on every request.
    if (requestLog.length > logLimit + Math.ceil(logLimit / 4)) requestLog.splice(0, requestLog.length - logLimit);
  }

  async function handleProvider(req: IncomingMessage, res: ServerResponse, route: ProviderRoute, rawPath: string, rawQuery: string): Promise<void> {
    const body = await readBody(req);
    const query = rawQuery === '' ? {} : Object.fromEntries(new URLSearchParams(rawQuery));
    const entry: RecordedRequest = {
      id: ++sequence,
      receivedAt: Date.now(),
      method: req.method ?? 'POST',
      path: rawPath,
      query,
      format: route.format,
      model: route.pathModel ?? '',
      stream: route.pathStream === true,
      headers: flattenHeaders(req.headers),
      body: undefined,
      status: 0,
    };
    record(entry);
    // Tells a cancelled call (the client hung up early) from the failures the mock injects itself.
    let closedByMock = false;
    const hungUp = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished && !closedByMock) entry.abortedByClient = true;
      hungUp.abort();
    });
    try {
      if (body === undefined) throw new MockHttpError(413, { error: { message: 'Request too large' } });
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        entry.body = body.toString('utf8');
        throw malformedBody(route.format);
      }
      entry.body = json;
      if (route.pathModel === undefined && typeof (json as { model?: unknown })?.model === 'string') entry.model = (json as { model: string }).model;
      if (route.pathStream === undefined) entry.stream = (json as { stream?: unknown })?.stream === true;

      authenticate(route, { method: req.method ?? 'POST', rawPath, rawQuery, headers: req.headers, body, query }, credentials, now());
      const conversation = parseConversation(route, json, req.headers);

      const behavior = behaviors.resolve(route.format, entry.model);
      const latencyHeader = Number(req.headers['x-mock-latency-ms']);
      const latency = Number.isFinite(latencyHeader) && req.headers['x-mock-latency-ms'] !== undefined ? latencyHeader : (behavior.latencyMs ?? options.latencyMs ?? 0);
      if (latency > 0) await delay(latency, hungUp.signal);
      // Nobody is listening any more: a held request must not keep timers or work alive.
      if (hungUp.signal.aborted) return;

      const failure = parseFailureHeader(header(req, 'x-mock-fail')) ?? behavior.fail;
      if (failure === 'timeout') {
        entry.status = -1; // never answered
        return;
      }
      if (failure === 'reset') {
        entry.status = -1;
        closedByMock = true;
        req.socket.destroy();
        return;
      }
      if (typeof failure === 'number') throw injectedError(route.format, failure, behavior.retryAfterSeconds);

      const answer = generateAnswer(conversation, ID_PREFIX[route.format] === '' ? '' : `${ID_PREFIX[route.format]}mock${entry.id}_`);
      const usage = usageFor(conversation, answer, behavior.cachedTokens);
      const reported = behavior.omitUsage ? undefined : usage;
      const responseId = `mock-${entry.id}`;
      entry.status = 200;
      entry.usage = reported;

      if (conversation.stream) {
        const rendered = renderStream(route, conversation, answer, reported, responseId);
        if (failure === 'broken-stream' || failure === 'broken-stream-early' || failure === 'stalled-stream') {
          entry.status = -1;
          closedByMock = failure !== 'stalled-stream';
          const frames = failure === 'broken-stream-early' ? rendered.firstContent : rendered.firstContent + 1;
          breakStream(req, res, rendered, frames, failure !== 'stalled-stream');
          return;
        }
        writeStream(res, rendered);
        return;
      }
      const rendered = renderJson(route, conversation, answer, reported, responseId);
      if (failure === 'broken-stream' || failure === 'broken-stream-early' || failure === 'stalled-stream') {
        entry.status = -1;
        closedByMock = failure !== 'stalled-stream';
        const text = JSON.stringify(rendered.body);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        // Half a body, then the connection dies (or, stalled, stays open and silent).
        res.write(text.slice(0, Math.floor(text.length / 2)), () => {
          if (failure !== 'stalled-stream') req.socket.end();
        });
        return;
      }
      sendJson(res, rendered.status, rendered.body, rendered.headers);
    } catch (error) {
      if (error instanceof MockHttpError) {
        entry.status = error.status;
        sendJson(res, error.status, error.body, error.headers);
        return;
      }
      entry.status = 500;
      sendJson(res, 500, { error: { message: 'mock provider internal error' } });
    }
  }

  function handleAdmin(req: IncomingMessage, res: ServerResponse, rawPath: string): Promise<void> | void {
    if (rawPath === '/health' && req.method === 'GET') return sendJson(res, 200, { status: 'ok' });
    if (rawPath === '/__mock/requests') {
      if (req.method === 'GET') return sendJson(res, 200, { requests: requestLog });
      if (req.method === 'DELETE') {
        requestLog.length = 0;
        return sendEmpty(res, 204);
      }
    }
    if (rawPath === '/__mock/behaviors') {
      if (req.method === 'DELETE') {
        behaviors.clear();
        return sendEmpty(res, 204);
      }
      if (req.method === 'POST') {
        return readBody(req).then((body) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(body?.toString('utf8') ?? '');
          } catch {
            return sendJson(res, 400, { error: 'body must be JSON' });
          }
          const behavior = behaviorSchema.safeParse(parsed);
          if (!behavior.success) return sendJson(res, 422, { errors: behavior.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) });
          behaviors.add(behavior.data);
          return sendEmpty(res, 201);
        });
      }
    }
    return sendJson(res, 404, { error: { message: 'Not found' } });
  }

  const server: Server = createServer((req, res) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : url.slice(queryAt + 1);
    const route = matchRoute(req.method, rawPath);
    const done = route ? handleProvider(req, res, route, rawPath, rawQuery) : handleAdmin(req, res, rawPath);
    if (done) {
      done.catch(() => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: 'mock provider internal error' } });
        else res.destroy();
      });
    }
  });
  server.keepAliveTimeout = 65_000;

  return {
    requestLog,
    listen(port, host = '127.0.0.1') {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve({ port: (server.address() as AddressInfo).port });
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        // Held ("timeout") requests and keep-alive sockets would keep close() waiting forever.
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
    setBehavior(behavior) {
      behaviors.add(behavior);
    },
    clearBehaviors() {
      behaviors.clear();
    },
    reset() {
      requestLog.length = 0;
      behaviors.clear();
    },
  };
}

function renderJson(route: ProviderRoute, conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedJson {
  if (route.responsesApi) return renderResponsesJson(conversation, answer, usage, id);
  switch (route.format) {
    case 'anthropic': return renderAnthropicJson(conversation, answer, usage, id);
    case 'gemini': return renderGeminiJson(conversation, answer, usage, id);
    case 'bedrock': return renderConverseJson(conversation, answer, usage);
    default: return renderOpenAiJson(conversation, answer, usage, `chatcmpl-${id}`);
  }
}

function renderStream(route: ProviderRoute, conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedStream {
  if (route.responsesApi) return renderResponsesStream(conversation, answer, usage, id);
  switch (route.format) {
    case 'anthropic': return renderAnthropicStream(conversation, answer, usage, id);
    case 'gemini': return renderGeminiStream(conversation, answer, usage, id);
    case 'bedrock': return renderConverseStream(conversation, answer, usage);
    default: return renderOpenAiStream(conversation, answer, usage, `chatcmpl-${id}`);
  }
}

function joinFrames(frames: Array<string | Buffer>): Buffer | string {
  return frames.every((frame) => typeof frame === 'string') ? frames.join('') : Buffer.concat(frames.map((frame) => (typeof frame === 'string' ? Buffer.from(frame) : frame)));
}

/** One write for the whole stream: the client still parses it incrementally, and it is cheap. */
function writeStream(res: ServerResponse, rendered: RenderedStream): void {
  res.writeHead(200, { 'content-type': rendered.contentType, 'cache-control': 'no-cache' });
  res.end(joinFrames(rendered.frames));
}

/** Sends the first `frameCount` frames, then ends the connection mid-body (or just goes silent). */
function breakStream(req: IncomingMessage, res: ServerResponse, rendered: RenderedStream, frameCount: number, endConnection: boolean): void {
  res.writeHead(200, { 'content-type': rendered.contentType, 'cache-control': 'no-cache' });
  const partial = rendered.frames.slice(0, frameCount);
  const end = () => {
    if (endConnection) req.socket.end();
  };
  if (partial.length === 0) {
    res.flushHeaders();
    setImmediate(end);
    return;
  }
  res.write(joinFrames(partial), end);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status);
  res.end();
}

/** Resolves undefined when the body is over MAX_BODY_BYTES. */
function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(tooLarge ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function flattenHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** Resolves after `ms`, or at once when `signal` aborts (the client hung up). */
function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

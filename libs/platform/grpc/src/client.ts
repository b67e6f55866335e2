import { Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@gateway/errors';
import { context, getTracer, injectTraceContext, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@gateway/telemetry';
import type { AnyServiceDefinition, ClientCallOptions, MethodDefinition, ServiceClient } from './types';

export interface ClientOptions {
  /** host:port */
  address: string;
  /** Internal service credential; omit when calling with an API key in `metadata`. */
  internalToken?: string;
  /** Default deadline per call (ms). */
  deadlineMs?: number;
  /** Attempts after the first on UNAVAILABLE (the server did not process the call). */
  retries?: number;
  retryBaseMs?: number;
  /**
   * Calls wait (up to their deadline) for the connection instead of failing at once while the
   * server is unreachable: for calls that must ride out a restart of the server.
   */
  waitForReady?: boolean;
  /**
   * Longest pause between reconnection attempts after the server went away (ms). Short by
   * default: services restart within seconds in a rolling deploy, and grpc-js's own default
   * (120 s with exponential growth) would keep failing calls long after the server is back.
   */
  maxReconnectBackoffMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tracer = getTracer('grpc-client');

function buildMetadata(options: ClientOptions, call: ClientCallOptions | undefined, ctx: Context): Metadata {
  const metadata = new Metadata({ waitForReady: call?.waitForReady ?? options.waitForReady ?? false });
  if (options.internalToken) metadata.set('authorization', `Bearer ${options.internalToken}`);
  for (const [key, value] of Object.entries(injectTraceContext({}, ctx))) metadata.set(key, value);
  for (const [key, value] of Object.entries(call?.metadata ?? {})) metadata.set(key, value);
  return metadata;
}

/** A CLIENT span per call (retries included), child of whatever span is active at the call site. */
function startClientSpan(method: MethodDefinition<unknown, unknown>, address: string): { span: Span; ctx: Context } {
  const [, service = '', name = ''] = method.path.split('/');
  const parent = context.active();
  const span = tracer.startSpan(method.path, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': name, 'server.address': address } }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

function endClientSpan(span: Span, error?: unknown): void {
  if (error !== undefined) {
    const code = (error as Partial<ServiceError>).code;
    if (typeof code === 'number') span.setAttribute('rpc.grpc.status_code', code);
    span.setStatus({ code: SpanStatusCode.ERROR });
  } else {
    span.setAttribute('rpc.grpc.status_code', GrpcStatus.OK);
  }
  span.end();
}

/**
 * A promise-based client for a ts-proto service definition: deadlines on every call, retries
 * with exponential back-off on UNAVAILABLE, a CLIENT span per call whose context travels in
 * metadata (traceparent), and server errors rebuilt as the DomainError the server raised.
 */
export function createServiceClient<D extends AnyServiceDefinition>(definition: D, options: ClientOptions): ServiceClient<D> {
  const maxBackoff = options.maxReconnectBackoffMs ?? 2_000;
  const client = new Client(options.address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.initial_reconnect_backoff_ms': Math.min(250, maxBackoff),
    'grpc.max_reconnect_backoff_ms': maxBackoff,
    // Nothing here serves channelz; off, calls skip its per-call counters and timestamps.
    'grpc.enable_channelz': 0,
  });
  const deadlineMs = options.deadlineMs ?? 10_000;
  const retries = options.retries ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 50;
  const result: Record<string, unknown> = { close: () => client.close() };

  for (const [name, method] of Object.entries(definition) as [string, MethodDefinition<unknown, unknown>][]) {
    if (method.responseStream) {
      result[name] = (request: unknown, call?: ClientCallOptions) => {
        // The span starts now, in the caller's context, not at the first `next()` of the iterator.
        const { span, ctx } = startClientSpan(method, options.address);
        return streamCall(client, method, request, buildMetadata(options, call, ctx), call, deadlineMs, span);
      };
      continue;
    }
    result[name] = async (request: unknown, call?: ClientCallOptions) => {
      const { span, ctx } = startClientSpan(method, options.address);
      for (let attempt = 0; ; attempt++) {
        try {
          const response = await unaryCall(client, method, request, buildMetadata(options, call, ctx), call, deadlineMs);
          if (attempt > 0) span.setAttribute('rpc.retries', attempt);
          endClientSpan(span);
          return response;
        } catch (error) {
          const code = (error as ServiceError).code;
          if (code !== GrpcStatus.UNAVAILABLE || attempt >= retries || call?.signal?.aborted) {
            span.setAttribute('rpc.retries', attempt);
            endClientSpan(span, error);
            throw fromGrpcError(error);
          }
          await sleep(retryBaseMs * 2 ** attempt + Math.random() * retryBaseMs);
        }
      }
    };
  }
  return result as ServiceClient<D>;
}

function unaryCall(client: Client, method: MethodDefinition<unknown, unknown>, request: unknown, metadata: Metadata, call: ClientCallOptions | undefined, defaultDeadlineMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const deadline = new Date(Date.now() + (call?.deadlineMs ?? defaultDeadlineMs));
    const pending = client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, request, metadata, { deadline }, (error, response) =>
      error ? reject(error) : resolve(response),
    );
    call?.signal?.addEventListener('abort', () => pending.cancel(), { once: true });
  });
}

async function* streamCall(client: Client, method: MethodDefinition<unknown, unknown>, request: unknown, metadata: Metadata, call: ClientCallOptions | undefined, defaultDeadlineMs: number, span: Span): AsyncIterable<unknown> {
  const deadline = new Date(Date.now() + (call?.deadlineMs ?? defaultDeadlineMs * 12));
  const stream = client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, metadata, { deadline });
  const onAbort = () => stream.cancel();
  call?.signal?.addEventListener('abort', onAbort, { once: true });
  let failure: unknown;
  try {
    for await (const item of stream) yield item;
  } catch (error) {
    failure = error;
    throw fromGrpcError(error);
  } finally {
    call?.signal?.removeEventListener('abort', onAbort);
    stream.cancel();
    endClientSpan(span, failure);
  }
}

import { Client, credentials, Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { fromGrpcError } from '@gateway/errors';
import { injectTraceContext } from '@gateway/telemetry';
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
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function buildMetadata(options: ClientOptions, call: ClientCallOptions | undefined): Metadata {
  const metadata = new Metadata();
  if (options.internalToken) metadata.set('authorization', `Bearer ${options.internalToken}`);
  for (const [key, value] of Object.entries(injectTraceContext())) metadata.set(key, value);
  for (const [key, value] of Object.entries(call?.metadata ?? {})) metadata.set(key, value);
  return metadata;
}

/**
 * A promise-based client for a ts-proto service definition: deadlines on every call, retries
 * with exponential back-off on UNAVAILABLE, trace context in metadata, and server errors
 * rebuilt as the DomainError the server raised.
 */
export function createServiceClient<D extends AnyServiceDefinition>(definition: D, options: ClientOptions): ServiceClient<D> {
  const client = new Client(options.address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
  });
  const deadlineMs = options.deadlineMs ?? 10_000;
  const retries = options.retries ?? 2;
  const retryBaseMs = options.retryBaseMs ?? 50;
  const result: Record<string, unknown> = { close: () => client.close() };

  for (const [name, method] of Object.entries(definition) as [string, MethodDefinition<unknown, unknown>][]) {
    if (method.responseStream) {
      result[name] = (request: unknown, call?: ClientCallOptions) => streamCall(client, method, request, buildMetadata(options, call), call, deadlineMs);
      continue;
    }
    result[name] = async (request: unknown, call?: ClientCallOptions) => {
      for (let attempt = 0; ; attempt++) {
        try {
          return await unaryCall(client, method, request, buildMetadata(options, call), call, deadlineMs);
        } catch (error) {
          const code = (error as ServiceError).code;
          if (code !== GrpcStatus.UNAVAILABLE || attempt >= retries || call?.signal?.aborted) throw fromGrpcError(error);
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

async function* streamCall(client: Client, method: MethodDefinition<unknown, unknown>, request: unknown, metadata: Metadata, call: ClientCallOptions | undefined, defaultDeadlineMs: number): AsyncIterable<unknown> {
  const deadline = new Date(Date.now() + (call?.deadlineMs ?? defaultDeadlineMs * 12));
  const stream = client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, metadata, { deadline });
  const onAbort = () => stream.cancel();
  call?.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for await (const item of stream) yield item;
  } catch (error) {
    throw fromGrpcError(error);
  } finally {
    call?.signal?.removeEventListener('abort', onAbort);
    stream.cancel();
  }
}

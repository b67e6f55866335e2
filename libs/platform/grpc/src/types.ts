import type { Metadata } from '@grpc/grpc-js';
import type { Logger } from '@gateway/logging';

/** Who called: another gateway service (internal credential) or an internal team (API key). */
export type Principal =
  | { kind: 'service' }
  | { kind: 'api_key'; keyId: string; projectId: number; organizationId: number };

export interface CallContext {
  principal: Principal;
  metadata: Metadata;
  /** Aborted when the caller cancels or the deadline passes. */
  signal: AbortSignal;
  deadline: Date | undefined;
  logger: Logger;
}

/** Shape of a ts-proto `...Service` definition entry. */
export interface MethodDefinition<Req, Res> {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize: (value: Req) => Buffer;
  requestDeserialize: (value: Buffer) => Req;
  responseSerialize: (value: Res) => Buffer;
  responseDeserialize: (value: Buffer) => Res;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyServiceDefinition = Record<string, MethodDefinition<any, any>>;

type RequestOf<M> = M extends { requestDeserialize: (value: Buffer) => infer Req } ? Req : never;
type ResponseOf<M> = M extends { responseDeserialize: (value: Buffer) => infer Res } ? Res : never;

/**
 * Transport-free handlers (nice-grpc style): `(request, context) => response` for unary methods
 * and an async iterable for server streaming.
 */
export type ServiceHandlers<D extends AnyServiceDefinition> = {
  [K in keyof D]: D[K] extends { responseStream: true }
    ? (request: RequestOf<D[K]>, context: CallContext) => AsyncIterable<ResponseOf<D[K]>>
    : (request: RequestOf<D[K]>, context: CallContext) => Promise<ResponseOf<D[K]>>;
};

export interface ClientCallOptions {
  deadlineMs?: number;
  /** Extra metadata (e.g. an API key for calls made on behalf of an internal team). */
  metadata?: Record<string, string>;
  signal?: AbortSignal;
  /** Wait (up to the deadline) for an unreachable server instead of failing at once. */
  waitForReady?: boolean;
}

export type ServiceClient<D extends AnyServiceDefinition> = {
  [K in keyof D]: D[K] extends { responseStream: true }
    ? (request: RequestOf<D[K]>, options?: ClientCallOptions) => AsyncIterable<ResponseOf<D[K]>>
    : (request: RequestOf<D[K]>, options?: ClientCallOptions) => Promise<ResponseOf<D[K]>>;
} & { close(): void };

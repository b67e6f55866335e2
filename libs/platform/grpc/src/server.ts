import { Metadata, Server, ServerCredentials, status as GrpcStatus, type ServerUnaryCall, type ServerWritableStream, type sendUnaryData, type UntypedServiceImplementation } from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import { timingSafeEqual } from 'node:crypto';
import { DESCRIPTOR_SET_BASE64 } from '@gateway/proto';
import { DomainError, isDomainError, toGrpcError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import { extractTraceContext, getTracer, inSpan, SpanKind, startRequest, type ServiceMetrics } from '@gateway/telemetry';
import type { AnyServiceDefinition, CallContext, Principal, ServiceHandlers } from './types';

export interface GrpcServerOptions {
  /** Used for logs and spans. */
  name: string;
  logger: Logger;
  /** The internal service credential every gateway service presents. */
  internalToken: string;
  /** Verifies an API key presented by an internal team; absent → API keys are refused. */
  verifyApiKey?: (rawKey: string) => Promise<Principal>;
  metrics?: ServiceMetrics;
  /** Methods (full path) an API key may not call: internal-only operations. */
  serviceOnlyMethods?: ReadonlySet<string>;
}

let reflectionPackage: protoLoader.PackageDefinition | undefined;
function reflectionDefinition(): protoLoader.PackageDefinition {
  reflectionPackage ??= protoLoader.loadFileDescriptorSetFromBuffer(Buffer.from(DESCRIPTOR_SET_BASE64, 'base64'), { keepCase: true });
  return reflectionPackage;
}

function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function metadataToCarrier(metadata: Metadata): Record<string, string> {
  const carrier: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata.getMap())) if (typeof value === 'string') carrier[key] = value;
  return carrier;
}

/**
 * A gRPC server with the standard health service, reflection, authentication (internal
 * credential or API key; nothing → UNAUTHENTICATED), deadlines surfaced as an AbortSignal,
 * trace-context extraction and one error mapping.
 */
export class GrpcServer {
  private readonly server = new Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024, 'grpc.enable_channelz': 0 });
  private readonly health = new HealthImplementation({ '': 'SERVING' });
  private readonly serviceNames: string[] = [];
  private readonly tracer;
  private boundPort = 0;
  private inFlightCalls = 0;

  constructor(private readonly options: GrpcServerOptions) {
    this.tracer = getTracer(options.name);
    this.health.addToServer(this.server);
    new ReflectionService(reflectionDefinition()).addToServer(this.server);
  }

  /** Methods without a handler answer UNIMPLEMENTED (the contract may run ahead of the code). */
  add<D extends AnyServiceDefinition>(definition: D, handlers: Partial<ServiceHandlers<D>>): this {
    const implementation: UntypedServiceImplementation = {};
    for (const [methodName, method] of Object.entries(definition)) {
      const handler = (handlers as Record<string, (req: unknown, ctx: CallContext) => unknown>)[methodName];
      if (!handler) {
        implementation[methodName] = (_call: unknown, callback?: sendUnaryData<unknown>) => {
          const error = { code: GrpcStatus.UNIMPLEMENTED, details: `${method.path} is not implemented yet`, metadata: new Metadata() };
          if (callback) callback(error);
          else (_call as ServerWritableStream<unknown, unknown>).emit('error', error);
        };
        continue;
      }
      implementation[methodName] = method.responseStream
        ? (call: ServerWritableStream<unknown, unknown>) => void this.handleStream(method.path, call, handler as (req: unknown, ctx: CallContext) => AsyncIterable<unknown>)
        : (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void this.handleUnary(method.path, call, callback, handler as (req: unknown, ctx: CallContext) => Promise<unknown>);
    }
    this.server.addService(definition as never, implementation);
    const serviceName = Object.values(definition)[0]?.path.split('/')[1];
    if (serviceName) {
      this.serviceNames.push(serviceName);
      this.health.setStatus(serviceName, 'SERVING');
    }
    return this;
  }

  setServing(status: ServingStatus): void {
    this.health.setStatus('', status);
    for (const name of this.serviceNames) this.health.setStatus(name, status);
  }

  async listen(host: string, port: number): Promise<number> {
    this.boundPort = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
    );
    return this.boundPort;
  }

  get port(): number {
    return this.boundPort;
  }

  /** Calls (unary and streams) being handled right now. */
  get inFlight(): number {
    return this.inFlightCalls;
  }

  /**
   * Graceful stop: health turns NOT_SERVING, the server stops accepting (GOAWAY on open
   * connections, so clients reconnect elsewhere) and waits for in-flight calls and server
   * streams for up to `graceMs`; what is still running then is cancelled (handlers see their
   * signal abort). Resolves with what happened, for the shutdown log.
   */
  async shutdown(graceMs = 10_000): Promise<{ drainedMs: number; forced: boolean; cancelled: number }> {
    const started = Date.now();
    this.setServing('NOT_SERVING');
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const cancelled = this.inFlightCalls;
        this.server.forceShutdown();
        this.options.logger.warn({ cancelled, graceMs }, `${this.options.name}: drain timed out; in-flight calls cancelled`);
        resolve({ drainedMs: Date.now() - started, forced: true, cancelled });
      }, graceMs);
      timer.unref();
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve({ drainedMs: Date.now() - started, forced: false, cancelled: 0 });
      });
    });
  }

  private async authenticate(path: string, metadata: Metadata): Promise<Principal> {
    const header = metadata.get('authorization')[0]?.toString() ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
    if (!token) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
    if (token.startsWith('ak_')) {
      if (!this.options.verifyApiKey || this.options.serviceOnlyMethods?.has(path)) throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
      return this.options.verifyApiKey(token);
    }
    if (safeEqual(token, this.options.internalToken)) return { kind: 'service' };
    throw new DomainError('UNAUTHENTICATED', 'Unauthorized');
  }

  private async run<T>(path: string, metadata: Metadata, deadline: Date | undefined, signal: AbortSignal, body: (ctx: CallContext) => Promise<T>): Promise<T> {
    const parent = extractTraceContext(metadataToCarrier(metadata));
    const request = startRequest(this.options.metrics, path);
    this.inFlightCalls++;
    try {
      const result = await inSpan(this.tracer, path, SpanKind.SERVER, parent, async () => {
        const principal = await this.authenticate(path, metadata);
        return body({ principal, metadata, deadline, signal, logger: this.options.logger });
      }, { 'rpc.system': 'grpc', 'rpc.method': path });
      request.finish('OK');
      return result;
    } catch (error) {
      const code = signal.aborted ? 'CANCELLED' : isDomainError(error) ? (error as DomainError).code : 'INTERNAL';
      if (!isDomainError(error) && !signal.aborted) this.options.logger.error({ err: error, method: path }, 'unexpected error in gRPC handler');
      request.finish(code, code);
      throw error;
    } finally {
      this.inFlightCalls--;
    }
  }

  private async handleUnary(path: string, call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>, handler: (req: unknown, ctx: CallContext) => Promise<unknown>): Promise<void> {
    const controller = new AbortController();
    // grpc-js also emits 'cancelled' when the call's stream closes after a normal answer: the
    // listener goes before answering, so only a real cancellation aborts the handler.
    const cancel = () => controller.abort();
    call.once('cancelled', cancel);
    const deadline = call.getDeadline();
    try {
      const response = await this.run(path, call.metadata, deadline instanceof Date ? deadline : undefined, controller.signal, (ctx) => handler(call.request, ctx));
      call.off('cancelled', cancel);
      callback(null, response);
    } catch (error) {
      call.off('cancelled', cancel);
      callback(toGrpcError(error));
    }
  }

  private async handleStream(path: string, call: ServerWritableStream<unknown, unknown>, handler: (req: unknown, ctx: CallContext) => AsyncIterable<unknown>): Promise<void> {
    const controller = new AbortController();
    const cancel = () => controller.abort();
    call.once('cancelled', cancel);
    const deadline = call.getDeadline();
    try {
      await this.run(path, call.metadata, deadline instanceof Date ? deadline : undefined, controller.signal, async (ctx) => {
        for await (const item of handler(call.request, ctx)) {
          if (controller.signal.aborted) break;
          if (!call.write(item)) await drainedOrAborted(call, controller.signal);
        }
      });
      call.off('cancelled', cancel);
      call.end();
    } catch (error) {
      if (controller.signal.aborted) return;
      call.off('cancelled', cancel);
      const grpcError = toGrpcError(error);
      call.emit('error', { code: grpcError.code ?? GrpcStatus.INTERNAL, details: grpcError.details, metadata: grpcError.metadata });
    }
  }
}

/** Back-pressure wait that also ends when the caller cancels (a cancelled call never drains). */
function drainedOrAborted(call: ServerWritableStream<unknown, unknown>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      call.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { DomainError } from '@gateway/errors';
import { createLogger } from '@gateway/logging';
import { providerproxy } from '@gateway/proto';
import { context, createServiceMetrics, initTelemetry, inSpan, SpanKind, trace, type ServiceMetrics } from '@gateway/telemetry';
import { createServiceClient, GrpcServer, type ServiceClient, type ServiceHandlers } from '../../src';

const exporter = new InMemorySpanExporter();
initTelemetry({ service: 'grpc-it', exporter, simple: true });
const logger = createLogger({ service: 'grpc-it', level: 'silent' });
const internalToken = 'grpc-lifecycle-internal-token';
const clients: Client[] = [];
afterAll(() => clients.forEach((c) => c.close()));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Handlers = Partial<ServiceHandlers<typeof providerproxy.ProviderProxyServiceService>>;
type Client = ServiceClient<typeof providerproxy.ProviderProxyServiceService>;

const request = (model: string): providerproxy.CompletionRequest => ({ ...providerproxy.CompletionRequest.decode(new Uint8Array()), projectId: 1, modelPath: [model] });
const answer = (text: string): providerproxy.CompletionResponse => ({ ...providerproxy.CompletionResponse.decode(new Uint8Array()), text, modelUsed: 'm' });

async function serve(handlers: Handlers): Promise<{ server: GrpcServer; metrics: ServiceMetrics; client: (options?: { retries?: number }) => Client }> {
  const metrics = createServiceMetrics(`grpc-it-${Math.random()}`, false);
  const server = new GrpcServer({ name: 'grpc-it', logger, internalToken, metrics }).add(providerproxy.ProviderProxyServiceService, handlers);
  const port = await server.listen('127.0.0.1', 0);
  return {
    server,
    metrics,
    client: (options = {}) => {
      const c = createServiceClient(providerproxy.ProviderProxyServiceService, { address: `127.0.0.1:${port}`, internalToken, retries: options.retries ?? 0, maxReconnectBackoffMs: 200 });
      clients.push(c);
      return c;
    },
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('GrpcServer and createServiceClient', () => {
  describe('tracing and metrics', () => {
    let setup: Awaited<ReturnType<typeof serve>>;
    beforeAll(async () => {
      setup = await serve({
        complete: async (req) => {
          if (req.modelPath[0] === 'missing') throw new DomainError('NOT_FOUND', 'Not found');
          return answer('ok');
        },
        streamComplete: async function* () {
          yield { delta: 'a' };
          yield { done: answer('a') };
        },
      });
    });
    afterAll(() => setup.server.shutdown(1_000));

    it('opens a CLIENT span per call, parent of the SERVER span, inside the caller\'s trace', async () => {
      exporter.reset();
      const client = setup.client();
      const tracer = trace.getTracer('caller');
      await inSpan(tracer, 'caller', SpanKind.INTERNAL, context.active(), async () => {
        await client.complete(request('m'));
        await collect(client.streamComplete(request('m')));
      });
      const spans = exporter.getFinishedSpans();
      const caller = spans.find((s) => s.name === 'caller')!;
      for (const path of ['/gateway.providerproxy.v1.ProviderProxyService/Complete', '/gateway.providerproxy.v1.ProviderProxyService/StreamComplete']) {
        const clientSpan = spans.find((s) => s.name === path && s.kind === SpanKind.CLIENT)!;
        const serverSpan = spans.find((s) => s.name === path && s.kind === SpanKind.SERVER)!;
        expect(clientSpan.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
        expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
        expect(serverSpan.spanContext().traceId).toBe(caller.spanContext().traceId);
        expect(clientSpan.attributes['rpc.grpc.status_code']).toBe(0);
      }
    });

    it('counts requests by status, errors by code, and nothing stays in flight', async () => {
      const client = setup.client();
      await client.complete(request('m'));
      await expect(client.complete(request('missing'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
      const text = await setup.metrics.registry.metrics();
      expect(text).toMatch(/gateway_requests_total\{method="\/gateway.providerproxy.v1.ProviderProxyService\/Complete",status="NOT_FOUND",service="[^"]+"\} 1/);
      expect(text).toMatch(/gateway_request_errors_total\{method="\/gateway.providerproxy.v1.ProviderProxyService\/Complete",code="NOT_FOUND",service="[^"]+"\} 1/);
      expect(text).toMatch(/gateway_requests_in_flight\{service="[^"]+"\} 0/);
    });
  });

  describe('graceful shutdown', () => {
    it('stops accepting, lets in-flight unary calls and server streams finish, then resolves', async () => {
      const { server, client } = await serve({
        complete: async (req) => {
          await sleep(300);
          return answer(req.modelPath[0]);
        },
        streamComplete: async function* () {
          for (let i = 0; i < 5; i++) {
            await sleep(60);
            yield { delta: String(i) };
          }
          yield { done: answer('01234') };
        },
      });
      const caller = client();
      const unary = [1, 2, 3].map((i) => caller.complete(request(`m${i}`)));
      const stream = collect(caller.streamComplete(request('s')));
      await sleep(50);
      expect(server.inFlight).toBe(4);
      const shutdown = server.shutdown(5_000);
      await sleep(20);
      // A caller arriving now (new connection) is refused; the in-flight ones are unaffected.
      await expect(client().complete(request('late'))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
      expect((await Promise.all(unary)).map((r) => r.text)).toEqual(['m1', 'm2', 'm3']);
      const events = await stream;
      expect(events.map((e) => e.delta ?? 'done')).toEqual(['0', '1', '2', '3', '4', 'done']);
      const result = await shutdown;
      expect(result.forced).toBe(false);
      expect(result.drainedMs).toBeGreaterThanOrEqual(200);
      expect(server.inFlight).toBe(0);
    });

    it('cancels what outlives the grace period: the handler sees its signal abort', async () => {
      let aborted = false;
      const { server, client } = await serve({
        complete: async (_req, ctx) => {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, 10_000);
            ctx.signal.addEventListener('abort', () => {
              aborted = true;
              clearTimeout(timer);
              resolve();
            });
          });
          return answer('too late');
        },
      });
      const pending = client().complete(request('slow'));
      pending.catch(() => undefined);
      await sleep(50);
      const started = Date.now();
      const result = await server.shutdown(200);
      expect(result).toMatchObject({ forced: true, cancelled: 1 });
      expect(Date.now() - started).toBeLessThan(1_000);
      await expect(pending).rejects.toBeInstanceOf(DomainError);
      await sleep(20);
      expect(aborted).toBe(true);
    });
  });
});

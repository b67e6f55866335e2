import { context, propagation, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { extractTraceContext, initTelemetry, injectTraceContext, inSpan, SpanKind } from './tracing';

const REGISTRATION = Symbol.for('gateway.telemetry.registration');

/** Back to a process where nobody registered anything (the API globals and our marker). */
function resetGlobals(): void {
  trace.disable();
  context.disable();
  propagation.disable();
  delete (globalThis as Record<symbol, unknown>)[REGISTRATION];
}

describe('initTelemetry', () => {
  afterEach(resetGlobals);

  it('registers once per process: a second copy of the library (another app bundle) reuses the first registration', async () => {
    const exporter = new InMemorySpanExporter();
    const first = initTelemetry({ service: 'first', exporter, simple: true });
    let second: ReturnType<typeof initTelemetry> | undefined;
    // A fresh module instance, like the copy each app bundle carries.
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const copy = require('./tracing') as typeof import('./tracing');
      second = copy.initTelemetry({ service: 'second', exporter: new InMemorySpanExporter(), simple: true });
      copy.getTracer('second').startSpan('from the copy').end();
    });
    expect(second).toBe(first);
    expect(second!.service).toBe('first');
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['from the copy']);
  });

  it('leaves a provider the host registered through the API in charge', async () => {
    const hostExporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(hostExporter)] }));
    const ours = new InMemorySpanExporter();
    const registration = initTelemetry({ service: 'app', exporter: ours, simple: true });
    expect(registration.service).toBe('host');
    trace.getTracer('app').startSpan('work').end();
    expect(hostExporter.getFinishedSpans().map((span) => span.name)).toEqual(['work']);
    expect(ours.getFinishedSpans()).toEqual([]);
    await registration.shutdown();
    trace.getTracer('app').startSpan('after').end();
    expect(hostExporter.getFinishedSpans()).toHaveLength(2);
  });

  it('propagates W3C trace context through a header carrier into child spans', async () => {
    const exporter = new InMemorySpanExporter();
    initTelemetry({ service: 'propagation', exporter, simple: true });
    const tracer = trace.getTracer('propagation');
    const carrier = await inSpan(tracer, 'caller', SpanKind.CLIENT, context.active(), async () => injectTraceContext());
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await inSpan(tracer, 'callee', SpanKind.SERVER, extractTraceContext(carrier), async () => undefined);
    const [caller, callee] = exporter.getFinishedSpans();
    expect(callee.spanContext().traceId).toBe(caller.spanContext().traceId);
    expect(callee.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
  });

  it('marks a span that threw as an error and rethrows', async () => {
    const exporter = new InMemorySpanExporter();
    initTelemetry({ service: 'errors', exporter, simple: true });
    await expect(inSpan(trace.getTracer('errors'), 'failing', SpanKind.INTERNAL, context.active(), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(exporter.getFinishedSpans()[0].status.code).toBe(2);
  });

  it('without an exporter records nothing but still gives every span ids that travel to the callee', async () => {
    initTelemetry({ service: 'unexported' });
    const tracer = trace.getTracer('unexported');
    const { carrier, callerIds, recording } = await inSpan(tracer, 'caller', SpanKind.CLIENT, context.active(), async (span) => ({
      carrier: injectTraceContext(),
      callerIds: span.spanContext(),
      recording: span.isRecording(),
    }));
    expect(recording).toBe(false);
    expect(callerIds.traceId).toMatch(/^(?!0+$)[0-9a-f]{32}$/);
    expect(carrier.traceparent).toBe(`00-${callerIds.traceId}-${callerIds.spanId}-00`);
    const calleeTraceId = await inSpan(tracer, 'callee', SpanKind.SERVER, extractTraceContext(carrier), async (span) => span.spanContext().traceId);
    expect(calleeTraceId).toBe(callerIds.traceId);
  });
});

import { context, propagation, trace, type Context, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOffSampler, BasicTracerProvider, SimpleSpanProcessor, BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';

export { SpanKind, SpanStatusCode, context, trace, propagation };
export type { Span, Tracer, Context };

export interface TelemetryOptions {
  service: string;
  /** Where spans go. None by default: spans are then not recorded, but still carry ids for logs and propagation. */
  exporter?: SpanExporter;
  /** Use a synchronous processor (tests with an in-memory exporter). */
  simple?: boolean;
}

export interface Telemetry {
  /** The service whose `initTelemetry` call registered the process-wide provider. */
  readonly service: string;
  /** Exports what is buffered (a batch processor) without shutting down. */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * Process-wide registration, kept on globalThis rather than in a module variable: each app's
 * bundle carries its own copy of this library, and the embedded default (and the span-tree test)
 * loads several bundles into one process. The OpenTelemetry API globals are shared the same way
 * (one `@opentelemetry/api` package, external to the bundles), so the first caller wins.
 */
const REGISTRATION = Symbol.for('gateway.telemetry.registration');
type GlobalWithTelemetry = typeof globalThis & { [REGISTRATION]?: Telemetry };

/**
 * Registers the global context manager, W3C propagator and tracer provider once per process.
 * In the embedded default every app shares one process, so later calls reuse the first set-up
 * (its exporter and resource) and return it.
 */
export function initTelemetry(options: TelemetryOptions): Telemetry {
  const holder = globalThis as GlobalWithTelemetry;
  const existing = holder[REGISTRATION];
  if (existing) return existing;
  const processors: SpanProcessor[] = [];
  if (options.exporter) processors.push(options.simple ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(options.exporter));
  // Without an exporter nothing would ever read a recorded span: spans are not recorded then
  // (no span objects, clocks or attribute copies per call), but each still gets its ids, which
  // logs carry and calls propagate (traceparent, flags 00: not sampled here).
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.service }),
    spanProcessors: processors,
    ...(options.exporter ? {} : { sampler: new AlwaysOffSampler() }),
  });
  const contextManager = new AsyncLocalStorageContextManager();
  if (!context.setGlobalContextManager(contextManager.enable())) contextManager.disable();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  // false: the host process registered its own provider through the API first; it stays in charge.
  const owned = trace.setGlobalTracerProvider(provider);
  const registration: Telemetry = owned
    ? { service: options.service, forceFlush: () => provider.forceFlush(), shutdown: () => provider.shutdown() }
    : { service: 'host', forceFlush: async () => undefined, shutdown: async () => undefined };
  holder[REGISTRATION] = registration;
  return registration;
}

export function getTracer(service: string): Tracer {
  return trace.getTracer(service);
}

/** Writes the active trace context (traceparent/tracestate) into a plain header object. */
export function injectTraceContext(carrier: Record<string, string> = {}, ctx: Context = context.active()): Record<string, string> {
  propagation.inject(ctx, carrier);
  return carrier;
}

/** Reads trace context from headers/metadata (a plain object of strings). */
export function extractTraceContext(carrier: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), carrier, {
    get: (c, key) => c[key] as string | string[] | undefined,
    keys: (c) => Object.keys(c),
  });
}

/** Runs `fn` inside a span that is a child of `parent`, recording errors and ending it. */
export async function inSpan<T>(tracer: Tracer, name: string, kind: SpanKind, parent: Context, fn: (span: Span) => Promise<T>, attributes: Record<string, string | number | boolean> = {}): Promise<T> {
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

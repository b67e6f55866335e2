import { context, propagation, trace, type Context, type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor, BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';

export { SpanKind, SpanStatusCode, context, trace, propagation };
export type { Span, Tracer, Context };

let provider: BasicTracerProvider | undefined;

export interface TelemetryOptions {
  service: string;
  /** Where spans go. None by default (spans still carry ids for logs and propagation). */
  exporter?: SpanExporter;
  /** Use a synchronous processor (tests with an in-memory exporter). */
  simple?: boolean;
}

/**
 * Registers the global context manager, W3C propagator and tracer provider once per process.
 * In the embedded default every app shares one process, so later calls reuse the first set-up.
 */
export function initTelemetry(options: TelemetryOptions): { shutdown(): Promise<void> } {
  if (!provider) {
    const processors: SpanProcessor[] = [];
    if (options.exporter) processors.push(options.simple ? new SimpleSpanProcessor(options.exporter) : new BatchSpanProcessor(options.exporter));
    provider = new BasicTracerProvider({ resource: resourceFromAttributes({ 'service.name': options.service }), spanProcessors: processors });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
  }
  const current = provider;
  return { shutdown: () => current.shutdown() };
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

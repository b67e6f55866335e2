import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface ServiceMetrics {
  registry: Registry;
  /** Every handled request (gRPC call or HTTP request), by method and status (gRPC: `OK` or the domain error code). */
  requests: Counter<'method' | 'status'>;
  /** Handling time in seconds, by method. */
  duration: Histogram<'method'>;
  /** Failed requests by method and error code (gRPC: the domain error code; HTTP: the status). */
  errors: Counter<'method' | 'code'>;
  /** Requests and streams being handled right now; what a graceful shutdown waits for. */
  inFlight: Gauge<string>;
  /** Bus messages handled by this service's consumers, by subject and outcome (`ok`, or `error` → redelivered). */
  eventsConsumed: Counter<'subject' | 'outcome'>;
  /** Consumer handling time in seconds, by subject. */
  eventDuration: Histogram<'subject'>;
}

/**
 * Each service's metrics, found by service name: the event consumers (bus plumbing, wrapped in
 * typedHandler) record into the registry of the service they belong to. On globalThis because
 * every app bundle carries its own copy of this library and the embedded default loads several.
 */
const BY_SERVICE = Symbol.for('gateway.telemetry.metrics');
type GlobalWithMetrics = typeof globalThis & { [BY_SERVICE]?: Map<string, ServiceMetrics> };

/** The metrics `createServiceMetrics(service)` made in this process, if any. */
export function serviceMetrics(service: string): ServiceMetrics | undefined {
  return (globalThis as GlobalWithMetrics)[BY_SERVICE]?.get(service);
}

/** Latency buckets (seconds) shared by request and upstream histograms. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** One registry per app (the embedded default runs several apps in one process). */
export function createServiceMetrics(service: string, withDefaults = true): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (withDefaults) collectDefaultMetrics({ register: registry });
  const requests = new Counter({ name: 'gateway_requests_total', help: 'Requests handled, by method and status', labelNames: ['method', 'status'] as const, registers: [registry] });
  const duration = new Histogram({
    name: 'gateway_request_duration_seconds',
    help: 'Request handling time in seconds',
    labelNames: ['method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({ name: 'gateway_request_errors_total', help: 'Failed requests, by method and error code', labelNames: ['method', 'code'] as const, registers: [registry] });
  const inFlight = new Gauge({ name: 'gateway_requests_in_flight', help: 'Requests and streams being handled now', registers: [registry] });
  const eventsConsumed = new Counter({ name: 'gateway_events_consumed_total', help: 'Bus messages handled, by subject and outcome', labelNames: ['subject', 'outcome'] as const, registers: [registry] });
  const eventDuration = new Histogram({ name: 'gateway_event_handling_duration_seconds', help: 'Bus message handling time in seconds', labelNames: ['subject'] as const, buckets: LATENCY_BUCKETS, registers: [registry] });
  const metrics: ServiceMetrics = { registry, requests, duration, errors, inFlight, eventsConsumed, eventDuration };
  const holder = globalThis as GlobalWithMetrics;
  (holder[BY_SERVICE] ??= new Map()).set(service, metrics);
  return metrics;
}

export interface RequestOutcome {
  method: string;
  /** gRPC: `OK` or a domain error code; HTTP: the status code. */
  status: string;
  seconds: number;
  /** Set when the request failed: the code counted in `gateway_request_errors_total`. */
  errorCode?: string;
}

/** Records one finished request in the request, latency and error metrics. */
export function recordRequest(metrics: ServiceMetrics, outcome: RequestOutcome): void {
  metrics.requests.inc({ method: outcome.method, status: outcome.status });
  metrics.duration.observe({ method: outcome.method }, outcome.seconds);
  if (outcome.errorCode) metrics.errors.inc({ method: outcome.method, code: outcome.errorCode });
}

/**
 * Tracks one request in the in-flight gauge and the request metrics: call `finish` exactly once.
 * HTTP transports count 5xx as errors (4xx are the caller's).
 */
export function startRequest(metrics: ServiceMetrics | undefined, method: string): { finish(status: string, errorCode?: string): void } {
  const started = process.hrtime.bigint();
  metrics?.inFlight.inc();
  let finished = false;
  return {
    finish: (status, errorCode) => {
      if (finished || !metrics) return;
      finished = true;
      metrics.inFlight.dec();
      recordRequest(metrics, { method, status, seconds: Number(process.hrtime.bigint() - started) / 1e9, errorCode });
    },
  };
}

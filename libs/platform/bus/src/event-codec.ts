import { randomUUID } from 'node:crypto';
import { extractTraceContext, getTracer, inSpan, injectTraceContext, serviceMetrics, SpanKind } from '@gateway/telemetry';
import type { BusMessage, MessageHandler } from './event-bus';

export interface EventMetaShape {
  eventId: string;
  occurredAt: string;
  traceparent: string;
}

/** The encode/decode pair ts-proto generates for every message. */
export interface EventCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(data: Uint8Array): T;
}

export interface EncodedEvent {
  subject: string;
  eventId: string;
  data: Uint8Array;
  headers: Record<string, string>;
}

/** Fills `meta` (event id, time, traceparent) and encodes; used directly or through an outbox. */
export function encodeEvent<T extends { meta?: EventMetaShape | undefined }>(subject: string, codec: EventCodec<T>, message: Omit<T, 'meta'> & { meta?: Partial<EventMetaShape> }): EncodedEvent {
  const headers = injectTraceContext();
  const meta: EventMetaShape = {
    eventId: message.meta?.eventId ?? randomUUID(),
    occurredAt: message.meta?.occurredAt ?? new Date().toISOString(),
    traceparent: headers.traceparent ?? '',
  };
  const full = { ...message, meta } as unknown as T;
  return { subject, eventId: meta.eventId, data: codec.encode(full).finish(), headers };
}

/**
 * Wraps a typed handler: decodes, continues the producer's trace in a CONSUMER span, and counts
 * the outcome in the service's metrics (when it created them with createServiceMetrics).
 */
export function typedHandler<T>(service: string, codec: EventCodec<T>, handler: (event: T, message: BusMessage) => Promise<void>): MessageHandler {
  const tracer = getTracer(service);
  return async (message) => {
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      await inSpan(tracer, `consume ${message.subject}`, SpanKind.CONSUMER, extractTraceContext(message.headers), () => handler(codec.decode(message.data), message), {
        'messaging.system': 'nats',
        'messaging.destination.name': message.subject,
        'messaging.message.id': message.eventId,
      });
    } catch (error) {
      outcome = 'error';
      throw error;
    } finally {
      const metrics = serviceMetrics(service);
      metrics?.eventsConsumed.inc({ subject: message.subject, outcome });
      metrics?.eventDuration.observe({ subject: message.subject }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  };
}

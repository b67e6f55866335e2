import { randomUUID } from 'node:crypto';
import { context, extractTraceContext, getTracer, inSpan, injectTraceContext, serviceMetrics, SpanKind, trace } from '@gateway/telemetry';
import type { BatchHandler, BatchResult, BusMessage, MessageHandler } from './event-bus';

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
  const batch = typedBatchHandler(service, codec, async ([{ event, message }]) => handler(event, message));
  return async (message) => {
    const result = await batch([message]);
    if (result && result.failed.length > 0) throw result.failed[0].error;
  };
}

export interface DecodedEvent<T> {
  event: T;
  message: BusMessage;
}

/**
 * The batch form of typedHandler: decodes every message (one that does not decode is reported
 * as failed, so it alone is redelivered and the rest of the batch goes on), runs the handler on
 * the decoded ones in one CONSUMER span (the child of the producer's span for a batch of one,
 * linked to every producer's span otherwise), and counts each message's outcome.
 */
export function typedBatchHandler<T>(service: string, codec: EventCodec<T>, handler: (events: DecodedEvent<T>[]) => Promise<void>): BatchHandler {
  const tracer = getTracer(service);
  return async (messages) => {
    const started = process.hrtime.bigint();
    const subject = messages[0]?.subject ?? '';
    const result: BatchResult = { failed: [] };
    const decoded: DecodedEvent<T>[] = [];
    for (const message of messages) {
      try {
        decoded.push({ event: codec.decode(message.data), message });
      } catch (error) {
        result.failed.push({ message, error });
      }
    }
    let outcome = 'ok';
    try {
      if (decoded.length === 1) {
        const { message } = decoded[0];
        await inSpan(tracer, `consume ${subject}`, SpanKind.CONSUMER, extractTraceContext(message.headers), () => handler(decoded), {
          'messaging.system': 'nats',
          'messaging.destination.name': subject,
          'messaging.message.id': message.eventId,
        });
      } else if (decoded.length > 1) {
        // A batch has no single producer: a span of its own, linked to each producer's span.
        const links = decoded.flatMap(({ message }) => {
          const producer = message.headers.traceparent ? trace.getSpanContext(extractTraceContext(message.headers)) : undefined;
          return producer ? [{ context: producer }] : [];
        });
        const batchAttributes = { 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.batch.message_count': decoded.length };
        await inSpan(tracer, `consume ${subject}`, SpanKind.CONSUMER, trace.deleteSpan(context.active()), (span) => {
          span.addLinks(links);
          return handler(decoded);
        }, batchAttributes);
      }
      return result;
    } catch (error) {
      outcome = 'error';
      throw error;
    } finally {
      const metrics = serviceMetrics(service);
      if (metrics) {
        if (decoded.length > 0) metrics.eventsConsumed.inc({ subject, outcome }, decoded.length);
        if (result.failed.length > 0) metrics.eventsConsumed.inc({ subject, outcome: 'error' }, result.failed.length);
        metrics.eventDuration.observe({ subject }, Number(process.hrtime.bigint() - started) / 1e9);
      }
    }
  };
}

import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { events } from '@gateway/proto';
import { createServiceMetrics, initTelemetry, injectTraceContext, inSpan, getTracer, SpanKind, trace, context } from '@gateway/telemetry';
import type { BusMessage } from './event-bus';
import { encodeEvent, typedBatchHandler, typedHandler } from './event-codec';

const exporter = new InMemorySpanExporter();
initTelemetry({ service: 'codec-test', exporter, simple: true });
const metrics = createServiceMetrics('codec-test', false);
const SUBJECT = 'gateway.v1.step.recorded';

/** A step.recorded message as the producer sends it, inside a producer span of its own. */
async function produced(projectId: number): Promise<{ message: BusMessage; producerSpanId: string }> {
  return inSpan(getTracer('producer'), 'produce', SpanKind.PRODUCER, context.active(), async (span) => {
    const encoded = encodeEvent(SUBJECT, events.StepRecorded, events.StepRecorded.fromPartial({ projectId, cost: 0.5 }));
    expect(encoded.headers).toEqual(injectTraceContext());
    return { message: { subject: SUBJECT, data: encoded.data, eventId: encoded.eventId, headers: encoded.headers, deliveryCount: 1 }, producerSpanId: span.spanContext().spanId };
  });
}

async function consumed(outcome: string): Promise<number> {
  const metric = await metrics.eventsConsumed.get();
  return metric.values.find((value) => value.labels.subject === SUBJECT && value.labels.outcome === outcome)?.value ?? 0;
}

describe('typedBatchHandler', () => {
  beforeEach(() => {
    exporter.reset();
    metrics.eventsConsumed.reset();
    metrics.eventDuration.reset();
  });

  it('decodes a batch, hands every decodable event to one handler call and reports the rest as failed', async () => {
    const good = await produced(1);
    const other = await produced(2);
    const garbage: BusMessage = { subject: SUBJECT, data: new Uint8Array([0xff, 0xff, 0xff]), eventId: 'garbage', headers: {}, deliveryCount: 1 };
    const calls: { projectId: number; eventId: string }[][] = [];
    const handler = typedBatchHandler('codec-test', events.StepRecorded, async (decoded) => {
      calls.push(decoded.map(({ event, message }) => ({ projectId: event.projectId, eventId: message.eventId })));
    });
    const result = await handler([good.message, garbage, other.message]);
    expect(calls).toEqual([[{ projectId: 1, eventId: good.message.eventId }, { projectId: 2, eventId: other.message.eventId }]]);
    expect(result?.failed.map((entry) => entry.message)).toEqual([garbage]);
    expect(result?.failed[0].error).toBeInstanceOf(Error);
    expect(await consumed('ok')).toBe(2);
    expect(await consumed('error')).toBe(1);
    expect((await metrics.eventDuration.get()).values.find((value) => value.metricName?.endsWith('_count'))?.value).toBe(1);
  });

  it('runs a batch in one CONSUMER span linked to each producer span, and a single message as the child of its producer', async () => {
    const first = await produced(1);
    const second = await produced(2);
    const handler = typedBatchHandler('codec-test', events.StepRecorded, async () => {
      expect(trace.getActiveSpan()).toBeDefined();
    });
    await handler([first.message, second.message]);
    await handler([first.message]);
    const consumers = exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CONSUMER);
    expect(consumers.map((span) => span.name)).toEqual([`consume ${SUBJECT}`, `consume ${SUBJECT}`]);
    const [batch, single] = consumers;
    expect(batch.parentSpanContext).toBeUndefined();
    expect(batch.links.map((link) => link.context.spanId)).toEqual([first.producerSpanId, second.producerSpanId]);
    expect(batch.attributes['messaging.batch.message_count']).toBe(2);
    expect(single.parentSpanContext?.spanId).toBe(first.producerSpanId);
  });

  it('rejects with the handler (the whole batch is redelivered) and counts the events as errors', async () => {
    const { message } = await produced(1);
    const handler = typedBatchHandler('codec-test', events.StepRecorded, async () => {
      throw new Error('database unavailable');
    });
    await expect(handler([message, message])).rejects.toThrow('database unavailable');
    expect(await consumed('error')).toBe(2);
    expect(await consumed('ok')).toBe(0);
  });
});

describe('typedHandler', () => {
  it('hands one decoded event to the handler, and rejects a message that does not decode', async () => {
    const { message } = await produced(7);
    const seen: number[] = [];
    const handler = typedHandler('codec-test', events.StepRecorded, async (event, m) => {
      expect(m).toBe(message);
      seen.push(event.projectId);
    });
    await handler(message);
    expect(seen).toEqual([7]);
    await expect(handler({ ...message, data: new Uint8Array([0xff, 0xff, 0xff]) })).rejects.toThrow();
  });
});

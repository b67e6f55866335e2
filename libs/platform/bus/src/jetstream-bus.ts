import { AckPolicy, connect, DeliverPolicy, headers as natsHeaders, nanos, type JetStreamClient, type JetStreamManager, type JsMsg, type NatsConnection } from 'nats';
import type { Logger } from '@gateway/logging';
import { EVENT_STREAM } from '@gateway/proto';
import type { BatchHandler, BatchSubscribeOptions, BusMessage, EventBus, MessageHandler, PublishOptions, SubscribeOptions, Subscription } from './event-bus';
import { singleMessageBatches } from './event-bus';

/** Every subject the gateway publishes (DESIGN.md: gateway.v1.<noun>.<verb>). */
export const GATEWAY_SUBJECTS = 'gateway.v1.>';

/**
 * Lifetime of a pull request (ms). Short, because a stopped subscriber's open pull request
 * stays registered on the server until it expires: messages handed back on stop are delayed
 * past it, so the next replica gets them within seconds rather than after ack_wait.
 */
const PULL_EXPIRES_MS = 5_000;

export interface JetStreamBusOptions {
  servers: string;
  stream: string;
  /** Subjects the stream captures, e.g. `gateway.v1.>`. */
  subjects: string[];
  logger: Logger;
  name?: string;
  /** JetStream publish de-duplication window (ms). */
  duplicateWindowMs?: number;
}

/**
 * NATS JetStream adapter: one limits-retention stream, durable pull consumers with explicit
 * acks. Subscribers sharing a durable compete for messages, which makes any durable a work
 * queue (each message handled by one worker; an unacked one is redelivered after ack_wait).
 */
export class JetStreamEventBus implements EventBus {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly options: JetStreamBusOptions,
  ) {}

  /** The gateway's own stream (`GATEWAY`, every `gateway.v1.>` subject): what every service connects to. */
  static connectGateway(options: { servers: string; logger: Logger; name: string }): Promise<JetStreamEventBus> {
    return JetStreamEventBus.connect({ ...options, stream: EVENT_STREAM, subjects: [GATEWAY_SUBJECTS] });
  }

  static async connect(options: JetStreamBusOptions): Promise<JetStreamEventBus> {
    // noAsyncTraces: no stack captured per request (every JetStream publish is one) for the case it times out.
    const nc = await connect({ servers: options.servers, name: options.name, maxReconnectAttempts: -1, reconnectTimeWait: 500, noAsyncTraces: true });
    const jsm = await nc.jetstreamManager();
    const config = { name: options.stream, subjects: options.subjects, duplicate_window: nanos(options.duplicateWindowMs ?? 120_000) };
    try {
      await jsm.streams.info(options.stream);
      await jsm.streams.update(options.stream, { subjects: options.subjects, duplicate_window: config.duplicate_window });
    } catch {
      await jsm.streams.add(config);
    }
    return new JetStreamEventBus(nc, nc.jetstream(), jsm, options);
  }

  async publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<void> {
    const h = natsHeaders();
    for (const [key, value] of Object.entries(options.headers ?? {})) h.set(key, value);
    h.set('Gateway-Event-Id', options.eventId);
    await this.js.publish(subject, data, { msgID: options.eventId, headers: h });
  }

  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription> {
    return this.subscribeBatch({ ...options, maxBatch: 1, maxWaitMs: 0 }, singleMessageBatches(handler));
  }

  async subscribeBatch(options: BatchSubscribeOptions, handler: BatchHandler): Promise<Subscription> {
    const config = {
      durable_name: options.durable,
      filter_subject: options.subject,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      max_deliver: options.maxDeliver ?? 10,
      ack_wait: nanos(options.ackWaitMs ?? 30_000),
    };
    try {
      await this.jsm.consumers.info(this.options.stream, options.durable);
      await this.jsm.consumers.update(this.options.stream, options.durable, { max_deliver: config.max_deliver, ack_wait: config.ack_wait, filter_subject: config.filter_subject });
    } catch {
      await this.jsm.consumers.add(this.options.stream, config);
    }
    const maxBatch = Math.max(1, options.maxBatch ?? 100);
    const maxWaitMs = Math.max(0, options.maxWaitMs ?? 0);
    const retryDelayMs = options.retryDelayMs ?? 1_000;
    const logger = this.options.logger;
    // Received, not handed to the handler yet; waitingSince: when the oldest of them arrived.
    const waiting: JsMsg[] = [];
    let waitingSince = 0;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let stopped = false;

    const handle = async (batch: JsMsg[]): Promise<void> => {
      const messages = batch.map(toBusMessage);
      let failed: Map<BusMessage, unknown>;
      try {
        const result = await handler(messages);
        failed = new Map(result ? result.failed.map((entry) => [entry.message, entry.error]) : []);
        for (const [message, error] of failed) {
          logger.warn({ err: error, subject: message.subject, eventId: message.eventId, delivery: message.deliveryCount }, 'event handler failed; will be redelivered');
        }
      } catch (error) {
        failed = new Map(messages.map((message) => [message, error]));
        const first = messages[0];
        const details = messages.length === 1 ? { eventId: first.eventId, delivery: first.deliveryCount } : { messages: messages.length };
        logger.warn({ err: error, subject: first.subject, ...details }, 'event handler failed; will be redelivered');
      }
      // Acks and naks of one batch leave in one write: the client flushes once per tick.
      batch.forEach((m, index) => (failed.has(messages[index]) ? m.nak(retryDelayMs) : m.ack()));
    };

    const pump = (): void => {
      if (running || stopped || waiting.length === 0) return;
      const waited = Date.now() - waitingSince;
      if (waiting.length < maxBatch && waited < maxWaitMs) {
        timer ??= setTimeout(() => {
          timer = undefined;
          pump();
        }, maxWaitMs - waited + 1);
        return;
      }
      if (timer) clearTimeout(timer);
      timer = undefined;
      const batch = waiting.splice(0, maxBatch);
      running = handle(batch).finally(() => {
        running = undefined;
        pump();
      });
    };

    const consumer = await this.js.consumers.get(this.options.stream, options.durable);
    const messages = await consumer.consume({
      max_messages: Math.max(64, 2 * maxBatch),
      expires: PULL_EXPIRES_MS,
      callback: (m) => {
        if (stopped) {
          // Handed back for another replica. Delayed past the pull's expiry: the server would
          // otherwise redeliver it to this subscription's still-open pull request, where nobody
          // listens, and it would wait out the whole ack_wait.
          m.nak(PULL_EXPIRES_MS + 500);
          return;
        }
        if (waiting.length === 0) waitingSince = Date.now();
        waiting.push(m);
        pump();
      },
    });
    void messages.closed().then((error) => {
      if (error && !stopped) logger.error({ err: error, durable: options.durable }, 'event consumer stopped');
    });
    return {
      stop: async () => {
        stopped = true;
        if (timer) clearTimeout(timer);
        // Unsubscribe first, then the in-flight batch finishes and acks (or naks) its messages;
        // the messages still waiting are handed back.
        const closed = messages.close();
        for (const m of waiting.splice(0)) m.nak(PULL_EXPIRES_MS + 500);
        await running;
        await closed.catch(() => undefined);
      },
    };
  }

  async broadcast(subject: string, handler: MessageHandler): Promise<Subscription> {
    // A core NATS subscription sees every message published to the stream's subjects, on every
    // replica, without creating a consumer per replica.
    const sub = this.nc.subscribe(subject);
    const loop = (async () => {
      for await (const m of sub) {
        const headers = headersOf(m.headers);
        const message: BusMessage = { subject: m.subject, data: m.data, eventId: headers['Gateway-Event-Id'] ?? headers['Nats-Msg-Id'] ?? '', headers, deliveryCount: 1 };
        await handler(message).catch((error: unknown) => this.options.logger.warn({ err: error, subject: m.subject }, 'broadcast handler failed'));
      }
    })();
    await this.nc.flush();
    return {
      stop: async () => {
        sub.unsubscribe();
        await loop.catch(() => undefined);
      },
    };
  }

  isHealthy(): boolean {
    return !this.nc.isClosed();
  }

  async close(): Promise<void> {
    if (!this.nc.isClosed()) await this.nc.drain();
  }
}

function headersOf(h: JsMsg['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (h) for (const key of h.keys()) headers[key] = h.get(key);
  return headers;
}

function toBusMessage(m: JsMsg): BusMessage {
  const headers = headersOf(m.headers);
  return {
    subject: m.subject,
    data: m.data,
    eventId: headers['Gateway-Event-Id'] ?? headers['Nats-Msg-Id'] ?? `${m.info.stream}:${m.seq}`,
    headers,
    deliveryCount: m.info.redeliveryCount,
  };
}

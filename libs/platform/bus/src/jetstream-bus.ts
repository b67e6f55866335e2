import { AckPolicy, connect, DeliverPolicy, headers as natsHeaders, nanos, type ConsumerMessages, type JetStreamClient, type JetStreamManager, type NatsConnection } from 'nats';
import type { Logger } from '@gateway/logging';
import { EVENT_STREAM } from '@gateway/proto';

/** Every subject the gateway publishes (DESIGN.md: gateway.v1.<noun>.<verb>). */
export const GATEWAY_SUBJECTS = 'gateway.v1.>';
import type { BusMessage, EventBus, MessageHandler, PublishOptions, SubscribeOptions, Subscription } from './event-bus';

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
    const nc = await connect({ servers: options.servers, name: options.name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
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

  async subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription> {
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
    const consumer = await this.js.consumers.get(this.options.stream, options.durable);
    const messages: ConsumerMessages = await consumer.consume({ max_messages: 64, expires: PULL_EXPIRES_MS });
    let stopped = false;
    let inFlight: Promise<void> = Promise.resolve();
    const loop = (async () => {
      for await (const m of messages) {
        if (stopped) {
          // Handed back for another replica. Delayed past the pull's expiry: the server would
          // otherwise redeliver it to this subscription's still-open pull request, where nobody
          // listens, and it would wait out the whole ack_wait.
          m.nak(PULL_EXPIRES_MS + 500);
          continue;
        }
        const headers: Record<string, string> = {};
        for (const key of m.headers?.keys() ?? []) headers[key] = m.headers?.get(key) ?? '';
        const message: BusMessage = {
          subject: m.subject,
          data: m.data,
          eventId: headers['Gateway-Event-Id'] ?? headers['Nats-Msg-Id'] ?? `${m.info.stream}:${m.seq}`,
          headers,
          deliveryCount: m.info.redeliveryCount,
        };
        inFlight = handler(message).then(
          () => m.ack(),
          (error: unknown) => {
            this.options.logger.warn({ err: error, subject: m.subject, eventId: message.eventId, delivery: message.deliveryCount }, 'event handler failed; will be redelivered');
            m.nak(options.retryDelayMs ?? 1_000);
          },
        );
        await inFlight;
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        // Unsubscribe first, then the in-flight handler finishes and acks (or naks) its message;
        // messages already buffered are still yielded to the loop, which naks them.
        const closed = messages.close();
        await inFlight;
        await closed.catch(() => undefined);
        await loop.catch(() => undefined);
      },
    };
  }

  async broadcast(subject: string, handler: MessageHandler): Promise<Subscription> {
    // A core NATS subscription sees every message published to the stream's subjects, on every
    // replica, without creating a consumer per replica.
    const sub = this.nc.subscribe(subject);
    const loop = (async () => {
      for await (const m of sub) {
        const headers: Record<string, string> = {};
        for (const key of m.headers?.keys() ?? []) headers[key] = m.headers?.get(key) ?? '';
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

import type { BatchHandler, BatchSubscribeOptions, BusMessage, EventBus, MessageHandler, PublishOptions, SubscribeOptions, Subscription } from './event-bus';
import { singleMessageBatches, subjectMatches } from './event-bus';

interface StoredMessage {
  seq: number;
  subject: string;
  data: Uint8Array;
  eventId: string;
  headers: Record<string, string>;
}

interface Consumer {
  options: SubscribeOptions;
  /** Next stream sequence to hand out. */
  cursor: number;
  /** seq → delivery count, for messages handed out but not acknowledged yet. */
  inFlight: Map<number, number>;
  retryQueue: { seq: number; notBefore: number }[];
  subscribers: Set<InProcessSubscriber>;
}

interface InProcessSubscriber {
  handler: BatchHandler;
  maxBatch: number;
  maxWaitMs: number;
  busy: boolean;
  stopped: boolean;
  inFlight: Promise<void> | undefined;
  /** Taken from the consumer, waiting for the batch to fill (maxWaitMs). */
  waiting: StoredMessage[];
  /** When the oldest waiting message was taken. */
  waitingSince: number;
  timer: NodeJS.Timeout | undefined;
}

/**
 * The embedded default's bus: same semantics as the JetStream adapter (durable consumers that
 * resume where they stopped, ack after the handler, redelivery on failure, publish-side
 * de-duplication by event id, competing subscribers per durable) inside one process.
 */
export class InProcessEventBus implements EventBus {
  private readonly log: StoredMessage[] = [];
  private readonly consumers = new Map<string, Consumer>();
  private readonly recentIds = new Map<string, number>();
  private readonly listeners = new Set<{ subject: string; handler: MessageHandler }>();
  private closed = false;

  constructor(private readonly options: { duplicateWindowMs?: number; now?: () => number } = {}) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  async publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<void> {
    if (this.closed) throw new Error('event bus closed');
    const window = this.options.duplicateWindowMs ?? 120_000;
    const seen = this.recentIds.get(options.eventId);
    if (seen !== undefined && this.now() - seen < window) return;
    this.recentIds.set(options.eventId, this.now());
    if (this.recentIds.size > 100_000) this.pruneIds(window);
    this.log.push({ seq: this.log.length, subject, data, eventId: options.eventId, headers: { ...(options.headers ?? {}) } });
    for (const consumer of this.consumers.values()) this.pump(consumer);
    const message: BusMessage = { subject, data, eventId: options.eventId, headers: { ...(options.headers ?? {}) }, deliveryCount: 1 };
    for (const listener of this.listeners) {
      if (subjectMatches(listener.subject, subject)) void listener.handler(message).catch(() => undefined);
    }
  }

  async broadcast(subject: string, handler: MessageHandler): Promise<Subscription> {
    const listener = { subject, handler };
    this.listeners.add(listener);
    return {
      stop: async () => {
        this.listeners.delete(listener);
      },
    };
  }

  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription> {
    return this.subscribeBatch({ ...options, maxBatch: 1, maxWaitMs: 0 }, singleMessageBatches(handler));
  }

  async subscribeBatch(options: BatchSubscribeOptions, handler: BatchHandler): Promise<Subscription> {
    let consumer = this.consumers.get(options.durable);
    if (!consumer) {
      consumer = { options, cursor: 0, inFlight: new Map(), retryQueue: [], subscribers: new Set() };
      this.consumers.set(options.durable, consumer);
    }
    const subscriber: InProcessSubscriber = {
      handler,
      maxBatch: Math.max(1, options.maxBatch ?? 100),
      maxWaitMs: Math.max(0, options.maxWaitMs ?? 0),
      busy: false,
      stopped: false,
      inFlight: undefined,
      waiting: [],
      waitingSince: 0,
      timer: undefined,
    };
    consumer.subscribers.add(subscriber);
    const owner = consumer;
    queueMicrotask(() => this.pump(owner));
    return {
      stop: async () => {
        subscriber.stopped = true;
        owner.subscribers.delete(subscriber);
        if (subscriber.timer) clearTimeout(subscriber.timer);
        // Messages taken but not handed to the handler yet go back first in line, for the others.
        const now = this.now();
        owner.retryQueue.unshift(...subscriber.waiting.map((message) => ({ seq: message.seq, notBefore: now })));
        subscriber.waiting = [];
        this.pump(owner);
        await subscriber.inFlight;
      },
    };
  }

  isHealthy(): boolean {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
    const pending: Promise<void>[] = [];
    for (const consumer of this.consumers.values()) for (const s of consumer.subscribers) if (s.inFlight) pending.push(s.inFlight);
    await Promise.allSettled(pending);
  }

  private pruneIds(window: number): void {
    const cutoff = this.now() - window;
    for (const [id, at] of this.recentIds) if (at < cutoff) this.recentIds.delete(id);
  }

  private nextFor(consumer: Consumer): StoredMessage | undefined {
    const now = this.now();
    const dueIndex = consumer.retryQueue.findIndex((entry) => entry.notBefore <= now);
    if (dueIndex >= 0) return this.log[consumer.retryQueue.splice(dueIndex, 1)[0].seq];
    while (consumer.cursor < this.log.length) {
      const message = this.log[consumer.cursor++];
      if (subjectMatches(consumer.options.subject, message.subject)) return message;
    }
    return undefined;
  }

  private pump(consumer: Consumer): void {
    if (this.closed) return;
    for (const subscriber of consumer.subscribers) {
      if (subscriber.busy || subscriber.stopped) continue;
      while (subscriber.waiting.length < subscriber.maxBatch) {
        const message = this.nextFor(consumer);
        if (!message) break;
        if (subscriber.waiting.length === 0) subscriber.waitingSince = this.now();
        subscriber.waiting.push(message);
      }
      if (subscriber.waiting.length === 0) continue;
      const waited = this.now() - subscriber.waitingSince;
      if (subscriber.waiting.length < subscriber.maxBatch && waited < subscriber.maxWaitMs) {
        subscriber.timer ??= setTimeout(() => {
          subscriber.timer = undefined;
          this.pump(consumer);
        }, subscriber.maxWaitMs - waited + 1);
        subscriber.timer.unref();
        continue;
      }
      if (subscriber.timer) clearTimeout(subscriber.timer);
      subscriber.timer = undefined;
      const batch = subscriber.waiting;
      subscriber.waiting = [];
      subscriber.busy = true;
      subscriber.inFlight = this.deliver(consumer, subscriber, batch).finally(() => {
        subscriber.busy = false;
        subscriber.inFlight = undefined;
        this.pump(consumer);
      });
    }
  }

  private async deliver(consumer: Consumer, subscriber: InProcessSubscriber, batch: StoredMessage[]): Promise<void> {
    const messages = batch.map((stored): BusMessage => {
      const deliveryCount = (consumer.inFlight.get(stored.seq) ?? 0) + 1;
      consumer.inFlight.set(stored.seq, deliveryCount);
      return { subject: stored.subject, data: stored.data, eventId: stored.eventId, headers: stored.headers, deliveryCount };
    });
    let failed: Set<BusMessage>;
    try {
      const result = await subscriber.handler(messages);
      failed = new Set(result ? result.failed.map((entry) => entry.message) : []);
    } catch {
      failed = new Set(messages);
    }
    const delay = consumer.options.retryDelayMs ?? 1_000;
    const maxDeliver = consumer.options.maxDeliver ?? 10;
    let retrying = false;
    batch.forEach((stored, index) => {
      const message = messages[index];
      if (!failed.has(message) || message.deliveryCount >= maxDeliver) {
        consumer.inFlight.delete(stored.seq);
        return;
      }
      consumer.retryQueue.push({ seq: stored.seq, notBefore: this.now() + delay });
      retrying = true;
    });
    // +5 ms: timers may fire a millisecond before Date.now() reaches the due time.
    if (retrying) setTimeout(() => this.pump(consumer), delay + 5).unref();
  }
}

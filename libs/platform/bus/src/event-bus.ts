/** The event-bus port. Two adapters implement it: NATS JetStream and in-process. */
export interface BusMessage {
  subject: string;
  data: Uint8Array;
  /** Unique per event; JetStream de-duplicates publishes by it and consumers by it. */
  eventId: string;
  headers: Record<string, string>;
  /** 1 on first delivery. */
  deliveryCount: number;
}

export interface PublishOptions {
  eventId: string;
  headers?: Record<string, string>;
}

export interface SubscribeOptions {
  /** Durable consumer name: state survives restarts; subscribers sharing it compete (work queue). */
  durable: string;
  /** Subject filter; `>` matches any remaining tokens. */
  subject: string;
  /** Deliveries before a message is given up (dead-lettered to the log). */
  maxDeliver?: number;
  /** How long a delivered message may stay unacknowledged before redelivery (ms). */
  ackWaitMs?: number;
  /** Delay before a failed message is redelivered (ms). */
  retryDelayMs?: number;
}

export interface BatchSubscribeOptions extends SubscribeOptions {
  /** Most messages handed to one handler call (default 100). */
  maxBatch?: number;
  /**
   * How long the oldest waiting message may wait for the batch to fill before it is handed over
   * anyway (ms). 0 (the default): a batch is what has arrived while the previous one ran.
   */
  maxWaitMs?: number;
}

/** Acknowledgement happens after the handler resolves; a rejection leads to redelivery. */
export type MessageHandler = (message: BusMessage) => Promise<void>;

/** Messages of a batch its handler could not process, with why (logged by the adapter). */
export interface BatchResult {
  failed: { message: BusMessage; error: unknown }[];
}

/**
 * Handles several messages in one call. When it resolves, every message of the batch is
 * acknowledged except those it reports as failed, which are redelivered like the message of a
 * rejected MessageHandler (after retryDelayMs, each counting its own deliveries); a rejection
 * redelivers the whole batch.
 */
export type BatchHandler = (messages: BusMessage[]) => Promise<BatchResult | void>;

export interface Subscription {
  /** Stops fetching and waits for in-flight handlers (ack or nack each). */
  stop(): Promise<void>;
}

export interface EventBus {
  publish(subject: string, data: Uint8Array, options: PublishOptions): Promise<void>;
  subscribe(options: SubscribeOptions, handler: MessageHandler): Promise<Subscription>;
  /**
   * Like subscribe (same durable semantics: ack after the handler, redelivery, competing
   * subscribers), but the handler takes up to `maxBatch` messages at once: one database
   * commit (and one round trip) for many events. Batches of one subscriber never overlap.
   */
  subscribeBatch(options: BatchSubscribeOptions, handler: BatchHandler): Promise<Subscription>;
  /**
   * Every broadcast subscriber (every replica) receives each message published after it
   * subscribed, at most once and without acknowledgement: for cache invalidation, where a
   * missed message is bounded by the cache's own TTL. Handler errors are logged, not retried.
   */
  broadcast(subject: string, handler: MessageHandler): Promise<Subscription>;
  isHealthy(): boolean;
  close(): Promise<void>;
}

/** The message-at-a-time handler as a batch handler of batches of one (what `subscribe` runs). */
export function singleMessageBatches(handler: MessageHandler): BatchHandler {
  return async (messages) => {
    for (const message of messages) await handler(message);
  };
}

export function subjectMatches(filter: string, subject: string): boolean {
  if (filter === subject) return true;
  const f = filter.split('.');
  const s = subject.split('.');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '>') return s.length > i;
    if (f[i] !== '*' && f[i] !== s[i]) return false;
    if (i === f.length - 1 && s.length !== f.length) return false;
  }
  return f.length === s.length;
}

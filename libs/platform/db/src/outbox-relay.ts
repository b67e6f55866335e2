import type { Logger } from '@gateway/logging';

export interface OutboxEvent {
  id: bigint;
  subject: string;
  eventId: string;
  payload: Uint8Array;
  headers: Record<string, string>;
}

/** The service's outbox table, seen through its repository. */
export interface OutboxStore {
  /**
   * Runs `publish` on the oldest unpublished events (locked so concurrent relays skip them)
   * and marks the ones it returns as published, in one transaction.
   */
  drain(limit: number, publish: (events: OutboxEvent[]) => Promise<bigint[]>): Promise<number>;
}

export interface EventPublisher {
  publish(subject: string, data: Uint8Array, options: { eventId: string; headers?: Record<string, string> }): Promise<void>;
}

export interface OutboxRelay {
  /** Ask for a drain soon (after a commit), instead of waiting for the next poll. */
  nudge(): void;
  /** Drains everything pending now. */
  flush(): Promise<void>;
  /** Stops polling and nudges, then drains what is pending (graceful shutdown: nothing waits for a restart). */
  stop(): Promise<void>;
}

/**
 * Publishes committed outbox rows in commit order. A crash between publish and marking only
 * republishes with the same event id, which JetStream and the consumers de-duplicate: the
 * event is delivered once.
 */
export function startOutboxRelay(options: {
  store: OutboxStore;
  bus: EventPublisher;
  logger: Logger;
  pollMs?: number;
  batchSize?: number;
  /**
   * How long after a nudge the drain starts (ms). 0: at once. More: one drain carries the events
   * of every commit nudging meanwhile (a busy writer's commits share its statements).
   */
  nudgeDelayMs?: number;
}): OutboxRelay {
  const pollMs = options.pollMs ?? 500;
  const nudgeDelayMs = options.nudgeDelayMs ?? 0;
  let nudgeTimer: NodeJS.Timeout | undefined;
  const batchSize = options.batchSize ?? 200;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  /**
   * The drain's events go out together: the bus client writes them in one socket write and the
   * acknowledgements come back pipelined, instead of one round trip per event. JetStream stores
   * a connection's messages in send order. Only the events up to the first failure are marked
   * published; that event and every later one stay in the outbox and go again with the next
   * drain under the same event ids, so those that did reach the stream are de-duplicated.
   */
  const publishBatch = async (events: OutboxEvent[]): Promise<bigint[]> => {
    const outcomes = await Promise.allSettled(events.map((event) => options.bus.publish(event.subject, event.payload, { eventId: event.eventId, headers: event.headers })));
    const failed = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    if (failed < 0) return events.map((event) => event.id);
    const { subject, eventId } = events[failed];
    options.logger.warn({ err: (outcomes[failed] as PromiseRejectedResult).reason, subject, eventId }, 'outbox publish failed; will retry');
    return events.slice(0, failed).map((event) => event.id);
  };

  const drainAll = async (): Promise<void> => {
    for (;;) {
      const count = await options.store.drain(batchSize, publishBatch);
      if (count < batchSize) return;
    }
  };

  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await drainAll().catch((error: unknown) => options.logger.warn({ err: error }, 'outbox drain failed'));
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  const timer = setInterval(() => void run(), pollMs);
  timer.unref();

  return {
    nudge: () => {
      if (stopped) return;
      if (nudgeDelayMs === 0) {
        void run();
        return;
      }
      nudgeTimer ??= setTimeout(() => {
        nudgeTimer = undefined;
        if (!stopped) void run();
      }, nudgeDelayMs);
    },
    flush: async () => {
      await running;
      await run();
    },
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      clearTimeout(nudgeTimer);
      await running;
      await drainAll().catch((error: unknown) => options.logger.warn({ err: error }, 'outbox drain failed'));
    },
  };
}

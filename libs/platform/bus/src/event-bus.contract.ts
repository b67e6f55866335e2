import { randomUUID } from 'node:crypto';
import type { BusMessage, EventBus } from './event-bus';

export interface BusFixture {
  bus: EventBus;
  /** A subject prefix owned by this fixture (`<prefix>.>` is captured by the stream). */
  prefix: string;
  /** A second connection to the same broker (another replica). */
  reconnect(): Promise<EventBus>;
  teardown(): Promise<void>;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function waitFor(predicate: () => boolean, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One behavioural contract, run against every adapter of the EventBus port. */
export function describeEventBusContract(name: string, createFixture: () => Promise<BusFixture>): void {
  describe(`EventBus contract: ${name}`, () => {
    let fixture: BusFixture;
    beforeEach(async () => {
      fixture = await createFixture();
    });
    afterEach(async () => {
      await fixture.teardown();
    });

    it('delivers published messages with their event id and headers, in order', async () => {
      const received: BusMessage[] = [];
      const sub = await fixture.bus.subscribe({ durable: 'ordered', subject: `${fixture.prefix}.>` }, async (m) => {
        received.push(m);
      });
      for (let i = 0; i < 5; i++) await fixture.bus.publish(`${fixture.prefix}.thing.happened`, encoder.encode(`m${i}`), { eventId: `id-${i}`, headers: { traceparent: 'tp' } });
      await waitFor(() => received.length === 5);
      expect(received.map((m) => decoder.decode(m.data))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
      expect(received[0].eventId).toBe('id-0');
      expect(received[0].headers.traceparent).toBe('tp');
      expect(received[0].deliveryCount).toBe(1);
      await sub.stop();
    });

    it('keeps durable state: messages published while no subscriber runs arrive on resubscribe, acked ones do not come back', async () => {
      const first: string[] = [];
      let sub = await fixture.bus.subscribe({ durable: 'durable', subject: `${fixture.prefix}.>` }, async (m) => {
        first.push(m.eventId);
      });
      await fixture.bus.publish(`${fixture.prefix}.a`, encoder.encode('1'), { eventId: 'e1' });
      await waitFor(() => first.length === 1);
      await sub.stop();
      await fixture.bus.publish(`${fixture.prefix}.a`, encoder.encode('2'), { eventId: 'e2' });
      const second: string[] = [];
      sub = await fixture.bus.subscribe({ durable: 'durable', subject: `${fixture.prefix}.>` }, async (m) => {
        second.push(m.eventId);
      });
      await waitFor(() => second.length === 1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(second).toEqual(['e2']);
      await sub.stop();
    });

    it('redelivers a message whose handler failed, and acknowledges only after success', async () => {
      const attempts: number[] = [];
      const sub = await fixture.bus.subscribe({ durable: 'retry', subject: `${fixture.prefix}.>`, retryDelayMs: 50 }, async (m) => {
        attempts.push(m.deliveryCount);
        if (attempts.length < 3) throw new Error('transient');
      });
      await fixture.bus.publish(`${fixture.prefix}.flaky`, encoder.encode('x'), { eventId: 'flaky-1' });
      await waitFor(() => attempts.length === 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(attempts).toEqual([1, 2, 3]);
      await sub.stop();
    });

    it('stop() lets the in-flight handler finish and acks it, and hands the waiting messages back well before ack_wait', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const first: string[] = [];
      let finished = false;
      // A long ack wait: the waiting messages must come back because they were handed back (nak), not because it expired.
      const options = { durable: 'draining', subject: `${fixture.prefix}.drain`, ackWaitMs: 30_000 };
      const sub = await fixture.bus.subscribe(options, async (m) => {
        first.push(m.eventId);
        await gate;
        finished = true;
      });
      for (let i = 0; i < 5; i++) await fixture.bus.publish(`${fixture.prefix}.drain`, encoder.encode(String(i)), { eventId: `drain-${i}` });
      await waitFor(() => first.length === 1);
      let stopped = false;
      const stopping = sub.stop().then(() => (stopped = true));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stopped).toBe(false);
      release();
      await stopping;
      expect(finished).toBe(true);
      expect(first).toEqual(['drain-0']);

      const second: string[] = [];
      const next = await fixture.bus.subscribe(options, async (m) => {
        second.push(m.eventId);
      });
      await waitFor(() => second.length >= 4, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(second.sort()).toEqual(['drain-1', 'drain-2', 'drain-3', 'drain-4']);
      await next.stop();
    });

    it('de-duplicates publishes that reuse an event id', async () => {
      const received: string[] = [];
      const sub = await fixture.bus.subscribe({ durable: 'dedupe', subject: `${fixture.prefix}.>` }, async (m) => {
        received.push(m.eventId);
      });
      const eventId = randomUUID();
      await fixture.bus.publish(`${fixture.prefix}.once`, encoder.encode('a'), { eventId });
      await fixture.bus.publish(`${fixture.prefix}.once`, encoder.encode('a'), { eventId });
      await fixture.bus.publish(`${fixture.prefix}.once`, encoder.encode('b'), { eventId: 'other' });
      await waitFor(() => received.length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(received).toEqual([eventId, 'other']);
      await sub.stop();
    });

    it('shares a durable between subscribers as a work queue: each message handled once', async () => {
      const other = await fixture.reconnect();
      const handled: string[] = [];
      const workers = new Set<string>();
      const handler = (worker: string) => async (m: BusMessage) => {
        workers.add(worker);
        handled.push(m.eventId);
        await new Promise((resolve) => setTimeout(resolve, 5));
      };
      const a = await fixture.bus.subscribe({ durable: 'jobs', subject: `${fixture.prefix}.job` }, handler('a'));
      const b = await other.subscribe({ durable: 'jobs', subject: `${fixture.prefix}.job` }, handler('b'));
      for (let i = 0; i < 20; i++) await fixture.bus.publish(`${fixture.prefix}.job`, encoder.encode(String(i)), { eventId: `job-${i}` });
      await waitFor(() => handled.length >= 20);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(handled.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `job-${i}`).sort());
      await a.stop();
      await b.stop();
      if (other !== fixture.bus) await other.close();
    });

    it('filters by subject', async () => {
      const received: string[] = [];
      const sub = await fixture.bus.subscribe({ durable: 'filtered', subject: `${fixture.prefix}.wanted` }, async (m) => {
        received.push(m.subject);
      });
      await fixture.bus.publish(`${fixture.prefix}.unwanted`, encoder.encode('1'), { eventId: 'u1' });
      await fixture.bus.publish(`${fixture.prefix}.wanted`, encoder.encode('2'), { eventId: 'w1' });
      await waitFor(() => received.length === 1);
      expect(received).toEqual([`${fixture.prefix}.wanted`]);
      await sub.stop();
    });

    it('broadcasts each message to every replica, unlike a shared durable', async () => {
      const other = await fixture.reconnect();
      const seenA: string[] = [];
      const seenB: string[] = [];
      const a = await fixture.bus.broadcast(`${fixture.prefix}.changed`, async (m) => {
        seenA.push(m.eventId);
      });
      const b = await other.broadcast(`${fixture.prefix}.changed`, async (m) => {
        seenB.push(m.eventId);
      });
      await fixture.bus.publish(`${fixture.prefix}.changed`, encoder.encode('x'), { eventId: 'c1' });
      await fixture.bus.publish(`${fixture.prefix}.other`, encoder.encode('y'), { eventId: 'o1' });
      await waitFor(() => seenA.length === 1 && seenB.length === 1);
      expect([seenA, seenB]).toEqual([['c1'], ['c1']]);
      await a.stop();
      await b.stop();
      if (other !== fixture.bus) await other.close();
    });
  });
}

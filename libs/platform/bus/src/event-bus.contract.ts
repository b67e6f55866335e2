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

    describe('batches (subscribeBatch)', () => {
      const publishAll = async (subject: string, ids: string[]) => {
        for (const id of ids) await fixture.bus.publish(subject, encoder.encode(id), { eventId: id });
      };

      it('hands over up to maxBatch messages per call, in order, each once', async () => {
        const ids = Array.from({ length: 10 }, (_, i) => `b-${i}`);
        await publishAll(`${fixture.prefix}.batch`, ids);
        const batches: string[][] = [];
        const sub = await fixture.bus.subscribeBatch({ durable: 'batched', subject: `${fixture.prefix}.batch`, maxBatch: 4, maxWaitMs: 1_000 }, async (messages) => {
          batches.push(messages.map((m) => decoder.decode(m.data)));
        });
        await waitFor(() => batches.flat().length >= 10);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(batches).toEqual([ids.slice(0, 4), ids.slice(4, 8), ids.slice(8)]);
        await sub.stop();
      });

      it('waits up to maxWaitMs for a batch to fill, then hands over what it has', async () => {
        const received: { ids: string[]; at: number }[] = [];
        const sub = await fixture.bus.subscribeBatch({ durable: 'lingering', subject: `${fixture.prefix}.linger`, maxBatch: 50, maxWaitMs: 400 }, async (messages) => {
          received.push({ ids: messages.map((m) => m.eventId), at: Date.now() });
        });
        const published = Date.now();
        await publishAll(`${fixture.prefix}.linger`, ['l-1', 'l-2']);
        await waitFor(() => received.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(received.map((batch) => batch.ids)).toEqual([['l-1', 'l-2']]);
        expect(received[0].at - published).toBeGreaterThanOrEqual(390);
        expect(received[0].at - published).toBeLessThan(3_000);
        await sub.stop();
      });

      it('acknowledges a batch but redelivers the messages its handler reported as failed', async () => {
        const calls: string[][] = [];
        const sub = await fixture.bus.subscribeBatch({ durable: 'partial', subject: `${fixture.prefix}.partial`, maxBatch: 10, maxWaitMs: 500, retryDelayMs: 50 }, async (messages) => {
          calls.push(messages.map((m) => `${m.eventId}#${m.deliveryCount}`));
          const bad = messages.filter((m) => m.eventId === 'p-b' && m.deliveryCount === 1);
          return { failed: bad.map((message) => ({ message, error: new Error('cannot handle yet') })) };
        });
        await publishAll(`${fixture.prefix}.partial`, ['p-a', 'p-b', 'p-c']);
        await waitFor(() => calls.length >= 2);
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(calls).toEqual([['p-a#1', 'p-b#1', 'p-c#1'], ['p-b#2']]);
        await sub.stop();
      });

      it('redelivers the whole batch when its handler rejects', async () => {
        const calls: string[][] = [];
        const sub = await fixture.bus.subscribeBatch({ durable: 'rejected', subject: `${fixture.prefix}.rejected`, maxBatch: 10, maxWaitMs: 500, retryDelayMs: 50 }, async (messages) => {
          calls.push(messages.map((m) => `${m.eventId}#${m.deliveryCount}`));
          if (calls.length === 1) throw new Error('database unavailable');
        });
        await publishAll(`${fixture.prefix}.rejected`, ['r-a', 'r-b']);
        await waitFor(() => calls.flat().length >= 4);
        await new Promise((resolve) => setTimeout(resolve, 700));
        expect(calls[0]).toEqual(['r-a#1', 'r-b#1']);
        expect(calls.slice(1).flat().sort()).toEqual(['r-a#2', 'r-b#2']);
        await sub.stop();
      });

      it('stop() lets the in-flight batch finish and acks it, and hands the waiting messages back well before ack_wait', async () => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const first: string[] = [];
        let finished = false;
        const options = { durable: 'batch-draining', subject: `${fixture.prefix}.bdrain`, maxBatch: 2, ackWaitMs: 30_000 };
        const sub = await fixture.bus.subscribeBatch(options, async (messages) => {
          first.push(...messages.map((m) => m.eventId));
          await gate;
          finished = true;
        });
        const ids = Array.from({ length: 6 }, (_, i) => `bd-${i}`);
        await publishAll(`${fixture.prefix}.bdrain`, ids);
        await waitFor(() => first.length > 0);
        await new Promise((resolve) => setTimeout(resolve, 100));
        let stopped = false;
        const stopping = sub.stop().then(() => (stopped = true));
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(stopped).toBe(false);
        release();
        await stopping;
        expect(finished).toBe(true);
        expect(first.length).toBeGreaterThan(0);
        expect(first.length).toBeLessThanOrEqual(2);

        const second: string[] = [];
        const next = await fixture.bus.subscribeBatch(options, async (messages) => {
          second.push(...messages.map((m) => m.eventId));
        });
        await waitFor(() => first.length + second.length >= ids.length, 10_000);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect([...first, ...second].sort()).toEqual(ids);
        await next.stop();
      });

      it('shares a durable between batch and single-message subscribers: each message handled once', async () => {
        const other = await fixture.reconnect();
        const handled: string[] = [];
        const a = await fixture.bus.subscribeBatch({ durable: 'mixed', subject: `${fixture.prefix}.mixed`, maxBatch: 5 }, async (messages) => {
          handled.push(...messages.map((m) => m.eventId));
          await new Promise((resolve) => setTimeout(resolve, 5));
        });
        const b = await other.subscribe({ durable: 'mixed', subject: `${fixture.prefix}.mixed` }, async (m) => {
          handled.push(m.eventId);
          await new Promise((resolve) => setTimeout(resolve, 5));
        });
        const ids = Array.from({ length: 30 }, (_, i) => `mx-${i}`);
        await publishAll(`${fixture.prefix}.mixed`, ids);
        await waitFor(() => handled.length >= ids.length);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(handled.sort()).toEqual([...ids].sort());
        await a.stop();
        await b.stop();
        if (other !== fixture.bus) await other.close();
      });
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

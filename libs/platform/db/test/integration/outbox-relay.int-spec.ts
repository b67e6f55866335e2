import pg from 'pg';
import { createLogger } from '@gateway/logging';
import { ensureDatabase, poolOutboxStore, startOutboxRelay, type EventPublisher } from '../../src';

const ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The outbox relay on the pool store (what ledger and control-plane run): committed rows are
 * published in id order (a drain's events together) and marked, a failed publish keeps its row
 * and every later one for the next drain, and a nudge delay lets one drain carry the events of many commits.
 */
describe('outbox relay on the pool store', () => {
  const schema = `outbox_${Date.now()}`;
  let pool: pg.Pool;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await ensureDatabase(ADMIN_URL, 'gw_it_outbox'), max: 2 });
    await pool.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".outbox_events (
      id BIGSERIAL PRIMARY KEY, event_id UUID NOT NULL, subject TEXT NOT NULL, payload BYTEA NOT NULL,
      headers JSONB NOT NULL DEFAULT '{}', created_at TIMESTAMPTZ NOT NULL DEFAULT now(), published_at TIMESTAMPTZ)`);
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`);
    await pool.end();
  });

  const add = async (count: number): Promise<string[]> => {
    const { rows } = await pool.query<{ event_id: string }>(
      `INSERT INTO "${schema}".outbox_events (event_id, subject, payload, headers) SELECT gen_random_uuid(), 'gateway.v1.test', '\\x0102'::bytea, '{"k":"v"}' FROM generate_series(1, $1::int) RETURNING event_id::text`,
      [count],
    );
    return rows.map((row) => row.event_id);
  };
  const unpublished = async () => Number((await pool.query(`SELECT count(*) FROM "${schema}".outbox_events WHERE published_at IS NULL`)).rows[0].count);

  /** Records what reaches the bus; `failOn` refuses one event id once. */
  function recordingBus(failOn?: string): EventPublisher & { seen: string[] } {
    let failed = false;
    const bus = {
      seen: [] as string[],
      publish: async (subject: string, data: Uint8Array, options: { eventId: string; headers?: Record<string, string> }) => {
        if (options.eventId === failOn && !failed) {
          failed = true;
          throw new Error('bus unavailable');
        }
        expect({ subject, data: [...data], headers: options.headers }).toEqual({ subject: 'gateway.v1.test', data: [1, 2], headers: { k: 'v' } });
        bus.seen.push(options.eventId);
      },
    };
    return bus;
  }

  const markedIds = async (): Promise<string[]> =>
    (await pool.query<{ event_id: string }>(`SELECT event_id::text FROM "${schema}".outbox_events WHERE published_at IS NOT NULL ORDER BY id`)).rows.map((row) => row.event_id);

  it('publishes a drain in commit order, keeps a failed event and everything after it for the next drain', async () => {
    const already = (await markedIds()).length;
    const ids = await add(5);
    const bus = recordingBus(ids[2]);
    const relay = startOutboxRelay({ store: poolOutboxStore(pool, schema), bus, logger: createLogger({ service: 'outbox-test', level: 'silent' }), pollMs: 60_000 });
    try {
      await relay.flush();
      // The drain's events went out together, in commit order; only those before the failure are marked.
      expect(bus.seen).toEqual([ids[0], ids[1], ids[3], ids[4]]);
      expect((await markedIds()).slice(already)).toEqual(ids.slice(0, 2));
      expect(await unpublished()).toBe(3);
      // The next drain sends the failed event and every later one again, in order (the bus
      // de-duplicates those it already has by event id).
      await relay.flush();
      expect(bus.seen.slice(4)).toEqual(ids.slice(2));
      expect((await markedIds()).slice(already)).toEqual(ids);
      expect(await unpublished()).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('with a nudge delay, drains once for the commits nudging within it', async () => {
    const store = poolOutboxStore(pool, schema);
    let drains = 0;
    const counting = { drain: (limit: number, publish: Parameters<typeof store.drain>[1]) => (drains++, store.drain(limit, publish)) };
    const bus = recordingBus();
    const relay = startOutboxRelay({ store: counting, bus, logger: createLogger({ service: 'outbox-test', level: 'silent' }), pollMs: 60_000, nudgeDelayMs: 100 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        ids.push(...(await add(1)));
        relay.nudge();
      }
      expect(bus.seen).toEqual([]);
      await sleep(400);
      expect(bus.seen).toEqual(ids);
      expect(drains).toBe(1);
    } finally {
      await relay.stop();
    }
  });

  it('publishes what is pending when it stops (graceful shutdown), without a poll or a nudge', async () => {
    const ids = await add(3);
    const bus = recordingBus();
    const relay = startOutboxRelay({ store: poolOutboxStore(pool, schema), bus, logger: createLogger({ service: 'outbox-test', level: 'silent' }), pollMs: 60_000 });
    await relay.stop();
    expect(bus.seen).toEqual(ids);
    expect(await unpublished()).toBe(0);
  });

  it('survives a connection lost while a drain holds it: only that drain fails', async () => {
    const ids = await add(2);
    const bus = recordingBus();
    const store = poolOutboxStore(pool, schema);
    // The connection is terminated while the relay publishes, between the drain's two statements.
    await expect(
      store.drain(10, async (events) => {
        await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = $1', ['idle in transaction']);
        await sleep(100);
        return events.map((event) => event.id);
      }),
    ).rejects.toThrow();
    expect(await unpublished()).toBe(2);
    await store.drain(10, async (events) => {
      for (const event of events) await bus.publish(event.subject, event.payload, { eventId: event.eventId, headers: event.headers });
      return events.map((event) => event.id);
    });
    expect(bus.seen).toEqual(ids);
    expect(await unpublished()).toBe(0);
  });
});

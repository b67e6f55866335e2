import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Redis } from 'ioredis';
import { DEFAULT_LIMITS, PROTECTION_REDIS_OPTIONS, createRedisProtectionStore, type ProtectionStore } from '../../src/protection';
import { TRIP_MARKER_TTL_MS } from '../../src/protection/protection-limits.config';
import { createReservationRef } from '../../src/protection/reservation-id.util';
import { createManualClock } from '../../src/protection/testing/manual-clock.fixture';
import { describeProtectionStoreContract } from '../../src/protection/testing/protection-store.contract';

/** The shared Redis of the test environment. Never stopped by these tests: outages go through a proxy. */
const REDIS_HOST = '127.0.0.1';
const REDIS_PORT = 6379;
/** A call against an unreachable Redis must fail faster than this (ms) so the edge answers 503 at once. */
const FAIL_FAST_MS = 500;

async function connectClient(port = REDIS_PORT): Promise<Redis> {
  const client = new Redis({ host: REDIS_HOST, port, lazyConnect: true, ...PROTECTION_REDIS_OPTIONS });
  // Connection errors surface through rejected commands; the event would otherwise be unhandled.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

function newPrefix(): string {
  return `test:protection:${randomUUID()}:`;
}

async function keysUnder(client: Redis, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  return keys;
}

async function deleteKeysUnder(client: Redis, prefix: string): Promise<void> {
  const keys = await keysUnder(client, prefix);
  if (keys.length > 0) await client.del(...keys);
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP proxy to the shared Redis that a test can cut and restore, simulating an outage. */
async function startRedisProxy(port: number): Promise<{ stop(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(REDIS_PORT, REDIS_HOST);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function expectFailsFastUnavailable(call: () => Promise<unknown>): Promise<void> {
  const started = Date.now();
  await expect(call()).rejects.toMatchObject({ name: 'DomainError', code: 'UNAVAILABLE' });
  expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
}

// Two clients = two edge replicas sharing one Redis.
let replicaA: Redis;
let replicaB: Redis;

beforeAll(async () => {
  [replicaA, replicaB] = await Promise.all([connectClient(), connectClient()]);
});

afterAll(async () => {
  await Promise.all([replicaA.quit(), replicaB.quit()]);
});

describeProtectionStoreContract('redis (two clients)', async ({ limits, clock }) => {
  const prefix = newPrefix();
  return {
    stores: [createRedisProtectionStore(replicaA, { limits, clock, prefix }), createRedisProtectionStore(replicaB, { limits, clock, prefix })],
    cleanup: () => deleteKeysUnder(replicaA, prefix),
  };
});

describe('redis protection store', () => {
  let prefix: string;

  beforeEach(() => {
    prefix = newPrefix();
  });

  afterEach(async () => {
    await deleteKeysUnder(replicaA, prefix);
  });

  it('leaves no key without an expiry', async () => {
    const clock = createManualClock(Date.now());
    const store = createRedisProtectionStore(replicaA, { limits: DEFAULT_LIMITS, clock, prefix });
    await Promise.all(Array.from({ length: 60 }, () => store.admitRequest('ak_ttl', { loopGuardExempt: false })));
    const input = { keyId: 'ak_ttl', projectId: 9, hourlyLimitUsd: 1, monthlyBudgetUsd: 10 };
    const settled = await store.reserveSpend({ ...input, estimatedUsd: 0.5 });
    const released = await store.reserveSpend({ ...input, estimatedUsd: 0.2 });
    await store.reserveSpend({ ...input, estimatedUsd: 0.2 });
    await store.reserveSpend({ ...input, estimatedUsd: 5 });
    if (!settled.ok || !released.ok) throw new Error('expected reservations');
    await store.settleSpend(settled.reservationId, 0.4);
    await store.releaseSpend(released.reservationId);

    const keys = await keysUnder(replicaA, prefix);
    expect(keys.length).toBeGreaterThanOrEqual(10);
    const ttls = await Promise.all(keys.map((key) => replicaA.pttl(key)));
    expect(ttls.filter((ttl) => ttl <= 0)).toEqual([]);
  });

  it('stores money as integer micro-dollars', async () => {
    const store = createRedisProtectionStore(replicaA, { limits: DEFAULT_LIMITS, prefix });
    const reserved = await store.reserveSpend({ keyId: 'ak_micro', projectId: 3, estimatedUsd: 0.1, hourlyLimitUsd: null, monthlyBudgetUsd: null });
    if (!reserved.ok) throw new Error('expected a reservation');
    await store.settleSpend(reserved.reservationId, 0.2);
    const [settledKey] = await keysUnder(replicaA, `${prefix}p:3:`).then((keys) => keys.filter((key) => key.endsWith(':settled')));
    expect(await replicaA.get(settledKey)).toBe('200000');
    expect(await store.monthlySpendUsd(3)).toBe(0.2);
  });

  it('keeps a trip marker readable by earlier versions (rolling upgrade), and never takes theirs for stale', async () => {
    const now = Date.now();
    const store = createRedisProtectionStore(replicaA, { limits: DEFAULT_LIMITS, clock: createManualClock(now), prefix });
    const generation = now - 60_000;
    const results = await Promise.all(Array.from({ length: 51 }, () => store.admitRequest('ak_marker', { loopGuardExempt: false, resetAtMs: generation })));
    expect(results.filter((result) => !result.ok)).toHaveLength(1);
    // The marker's value is its expiry alone, as before; its generation and the applied one sit beside it.
    const key = (name: string) => `${prefix}k:ak_marker:${name}`;
    expect(await replicaA.get(key('loop-trip'))).toBe(String(now + TRIP_MARKER_TTL_MS));
    expect(await replicaA.get(key('loop-trip-generation'))).toBe(String(generation));
    expect(await replicaA.get(key('generation'))).toBe(String(generation));
    for (const name of ['loop-trip', 'loop-trip-generation', 'generation']) expect(await replicaA.pttl(key(name))).toBeGreaterThan(TRIP_MARKER_TTL_MS - 60_000);

    // A loop trip written by an earlier version (no generation) beside a stale circuit trip.
    const legacy = (name: string) => `${prefix}k:ak_legacy:${name}`;
    await replicaA.set(legacy('loop-trip'), String(now + TRIP_MARKER_TTL_MS), 'PX', TRIP_MARKER_TTL_MS);
    const input = { keyId: 'ak_legacy', projectId: 4, estimatedUsd: 0.5, hourlyLimitUsd: 0.1, monthlyBudgetUsd: null };
    expect(await store.reserveSpend(input)).toEqual({ ok: false, kind: 'circuit_open', firstTrip: true });
    // The newer generation clears the stale circuit trip but keeps the legacy loop trip (fail closed).
    expect(await store.reserveSpend({ ...input, hourlyLimitUsd: null, resetAtMs: 1 })).toMatchObject({ ok: true });
    expect(await store.admitRequest('ak_legacy', { loopGuardExempt: false, resetAtMs: 1 })).toEqual({ ok: false, kind: 'loop_detected', firstTrip: false });
    expect(await replicaA.exists(legacy('circuit-trip'), legacy('circuit-trip-generation'))).toBe(0);
    expect(await replicaA.pttl(legacy('generation'))).toBeGreaterThan(0);
  });

  it('works with the system clock when none is injected', async () => {
    const store = createRedisProtectionStore(replicaB, { limits: DEFAULT_LIMITS, prefix });
    const before = Date.now();
    const result = await store.admitRequest('ak_system_clock', { loopGuardExempt: false });
    expect(result).toMatchObject({ ok: true, rate: { limit: 1_000, remaining: 999 } });
    expect(result.ok && result.rate.resetMs).toBeGreaterThanOrEqual(before + DEFAULT_LIMITS.rateWindowMs);
  });

  it('fails fast with UNAVAILABLE and reports unhealthy when Redis is unreachable', async () => {
    const down = new Redis({ host: REDIS_HOST, port: await freePort(), ...PROTECTION_REDIS_OPTIONS });
    down.on('error', () => undefined);
    try {
      const store = createRedisProtectionStore(down, { limits: DEFAULT_LIMITS, prefix });
      const { reservationId } = createReservationRef('ak_down', 1, '2025-01');
      await expectFailsFastUnavailable(() => store.admitRequest('ak_down', { loopGuardExempt: false }));
      await expectFailsFastUnavailable(() =>
        store.reserveSpend({ keyId: 'ak_down', projectId: 1, estimatedUsd: 0.1, hourlyLimitUsd: 1, monthlyBudgetUsd: 1 }),
      );
      await expectFailsFastUnavailable(() => store.settleSpend(reservationId, 0.1));
      await expectFailsFastUnavailable(() => store.releaseSpend(reservationId));
      await expectFailsFastUnavailable(() => store.monthlySpendUsd(1));
      await expectFailsFastUnavailable(() => store.resetKey('ak_down'));
      const started = Date.now();
      expect(await store.isHealthy()).toBe(false);
      expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
    } finally {
      down.disconnect();
    }
  });

  it('rejects during an outage and recovers by itself, with the counters intact, when Redis returns', async () => {
    const port = await freePort();
    let proxy = await startRedisProxy(port);
    const client = await connectClient(port);
    try {
      const clock = createManualClock(Date.now());
      const store = createRedisProtectionStore(client, { limits: DEFAULT_LIMITS, clock, prefix });
      for (let i = 0; i < 3; i += 1) expect((await store.admitRequest('ak_outage', { loopGuardExempt: false })).ok).toBe(true);
      expect(await store.isHealthy()).toBe(true);

      await proxy.stop();
      await waitFor(async () => client.status !== 'ready', 5_000);
      await expectFailsFastUnavailable(() => store.admitRequest('ak_outage', { loopGuardExempt: false }));
      await expectFailsFastUnavailable(() =>
        store.reserveSpend({ keyId: 'ak_outage', projectId: 2, estimatedUsd: 0.1, hourlyLimitUsd: 1, monthlyBudgetUsd: null }),
      );
      expect(await store.isHealthy()).toBe(false);

      proxy = await startRedisProxy(port);
      await waitFor(() => store.isHealthy(), 10_000);
      // The refused call during the outage counted nothing; the three before it still count.
      expect(await store.admitRequest('ak_outage', { loopGuardExempt: false })).toMatchObject({ ok: true, rate: { remaining: 1_000 - 4 } });
      expect((await store.reserveSpend({ keyId: 'ak_outage', projectId: 2, estimatedUsd: 0.1, hourlyLimitUsd: 1, monthlyBudgetUsd: null })).ok).toBe(
        true,
      );
    } finally {
      client.disconnect();
      await proxy.stop();
    }
  });

  it('shares one loop guard and one cap between stores with different clients but the same prefix', async () => {
    const clock = createManualClock(Date.now());
    const stores: ProtectionStore[] = [replicaA, replicaB].map((client) =>
      createRedisProtectionStore(client, { limits: DEFAULT_LIMITS, clock, prefix }),
    );
    const admits = await Promise.all(Array.from({ length: 60 }, (_, i) => stores[i % 2].admitRequest('ak_shared', { loopGuardExempt: false })));
    expect(admits.filter((r) => r.ok)).toHaveLength(50);
    expect(admits.filter((r) => !r.ok && r.kind === 'loop_detected' && r.firstTrip)).toHaveLength(1);

    // A different prefix (another deployment) shares nothing.
    const otherPrefix = newPrefix();
    try {
      const isolated = createRedisProtectionStore(replicaA, { limits: DEFAULT_LIMITS, clock, prefix: otherPrefix });
      expect((await isolated.admitRequest('ak_shared', { loopGuardExempt: false })).ok).toBe(true);
    } finally {
      await deleteKeysUnder(replicaA, otherPrefix);
    }
  });
});

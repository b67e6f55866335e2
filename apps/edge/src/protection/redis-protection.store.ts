import { randomUUID } from 'node:crypto';
import type { Redis, RedisOptions } from 'ioredis';
import { microUsdToUsd, optionalUsdToMicroUsd, usdToMicroUsd } from './micro-usd.util';
import {
  MONTH_COUNTER_TTL_MS,
  RESERVATION_RECORD_TTL_MS,
  TRIP_MARKER_TTL_MS,
  WINDOW_EXPIRY_MARGIN_MS,
  parseProtectionLimits,
  systemClock,
} from './protection-limits.config';
import { assertKeyId, assertProjectId, resetAtMsOf } from './protection-input.util';
import type { AdmitRequestOptions, AdmitResult, Clock, ProtectionLimits, ProtectionStore, ReserveResult, ReserveSpendInput } from './protection-store.port';
import { ADMIT_SCRIPT, FINISH_SCRIPT, RAISE_MONTH_SCRIPT, RESERVE_SCRIPT, RESET_KEY_STATE } from './redis-protection.scripts';
import { defineRedisScript, protectionUnavailable, runRedisScript } from './redis-script.runner';
import { createReservationRef, parseReservationId, type ReservationRef } from './reservation-id.util';
import { utcMonthOf } from './utc-month.util';

const admitScript = defineRedisScript(ADMIT_SCRIPT);
const reserveScript = defineRedisScript(RESERVE_SCRIPT);
const finishScript = defineRedisScript(FINISH_SCRIPT);
const raiseScript = defineRedisScript(RAISE_MONTH_SCRIPT);

export const DEFAULT_PROTECTION_PREFIX = 'gw:protection:';

/** isHealthy answers false rather than waiting longer than this for a PING (ms). */
const HEALTH_PING_TIMEOUT_MS = 1_000;

/**
 * Client settings that make the store fail fast when Redis is unreachable, so the edge answers
 * 503 instead of queueing metered requests (fail closed), and reconnect by itself when it returns.
 * Spread into `new Redis({ host, port, ...PROTECTION_REDIS_OPTIONS })`.
 */
export const PROTECTION_REDIS_OPTIONS: RedisOptions = {
  // Commands issued while disconnected are rejected at once instead of waiting for a reconnect.
  enableOfflineQueue: false,
  // A command in flight when the connection drops is retried at most once, then rejected.
  maxRetriesPerRequest: 1,
  // ms; bounds a connect attempt to a host that does not answer (no RST).
  connectTimeout: 2_000,
  // ms; bounds a command on a connection that hangs, e.g. a network partition.
  commandTimeout: 2_000,
  // Reconnect forever, backing off to 2 s: recovery must need no restart.
  retryStrategy: (attempt: number) => Math.min(attempt * 100, 2_000),
  // Scripts issued by concurrent requests in the same event-loop turn leave in one write (one
  // syscall and one wake-up of Redis) instead of one each.
  enableAutoPipelining: true,
};

/** The Redis keys of one API key. All expire on their own; none is needed after its window. */
function keyKeys(prefix: string, keyId: string): Record<'rate' | 'generation' | (typeof RESET_KEY_STATE)[number], string> {
  const base = `${prefix}k:${keyId}:`;
  return {
    rate: `${base}rate`,
    // The last reset generation this store caught up with (see the scripts' applyGeneration).
    generation: `${base}generation`,
    loop: `${base}loop`,
    loopTrip: `${base}loop-trip`,
    loopTripGeneration: `${base}loop-trip-generation`,
    spendLog: `${base}spend-log`,
    spendAmounts: `${base}spend-amounts`,
    spendSum: `${base}spend-sum`,
    spendPending: `${base}spend-pending`,
    circuitTrip: `${base}circuit-trip`,
    circuitTripGeneration: `${base}circuit-trip-generation`,
  };
}

/** The Redis keys of one project's UTC month (`YYYY-MM`), expiring ~35 days after the last write. */
function monthKeys(prefix: string, projectId: number, month: string) {
  const base = `${prefix}p:${projectId}:${month}:`;
  return {
    settled: `${base}settled`,
    pending: `${base}pending`,
    pendingAmounts: `${base}pending-amounts`,
    pendingSum: `${base}pending-sum`,
  };
}

/** What resetKey clears, in the order the admit and reserve scripts expect it as their first KEYS. */
function resetKeySet(key: ReturnType<typeof keyKeys>): string[] {
  return RESET_KEY_STATE.map((name) => key[name]);
}

/** The first KEYS of the admit and reserve scripts: the reset set, then the applied generation. */
function keyStateKeys(key: ReturnType<typeof keyKeys>): string[] {
  return [...resetKeySet(key), key.generation];
}

function reservationKey(prefix: string, reservationId: string): string {
  return `${prefix}r:${reservationId}`;
}

/**
 * Redis adapter: every operation is one Lua script, so any number of edge replicas sharing the
 * Redis enforce one limit. Needs a single Redis (or a primary): a script touches a key's and a
 * project's keys together, which Redis Cluster would refuse across slots.
 */
export function createRedisProtectionStore(
  redis: Redis,
  options: { limits: ProtectionLimits; clock?: Clock; prefix?: string },
): ProtectionStore {
  const limits = parseProtectionLimits(options.limits);
  const clock = options.clock ?? systemClock;
  const prefix = options.prefix ?? DEFAULT_PROTECTION_PREFIX;
  const margin = String(WINDOW_EXPIRY_MARGIN_MS);

  // Integer ms: scores and deadlines are compared as integers inside the scripts.
  const now = (): number => Math.floor(clock.now());

  async function finish(ref: ReservationRef, actualMicroUsd: number | null): Promise<void> {
    const key = keyKeys(prefix, ref.keyId);
    const month = monthKeys(prefix, ref.projectId, ref.month);
    await runRedisScript(
      redis,
      finishScript,
      [
        key.spendLog,
        key.spendAmounts,
        key.spendSum,
        key.spendPending,
        month.settled,
        month.pending,
        month.pendingAmounts,
        month.pendingSum,
        reservationKey(prefix, ref.reservationId),
      ],
      [
        String(now()),
        ref.reservationId,
        actualMicroUsd === null ? '' : String(actualMicroUsd),
        String(limits.spendWindowMs),
        String(limits.reservationTtlMs),
        String(MONTH_COUNTER_TTL_MS),
        margin,
      ],
    );
  }

  return {
    async admitRequest(keyId: string, opts: AdmitRequestOptions): Promise<AdmitResult> {
      assertKeyId(keyId);
      const resetAt = resetAtMsOf(opts.resetAtMs);
      const at = now();
      const key = keyKeys(prefix, keyId);
      const reply = (await runRedisScript(
        redis,
        admitScript,
        [...keyStateKeys(key), key.rate],
        [
          String(at),
          randomUUID(),
          String(limits.rateLimitPerHour),
          String(limits.rateWindowMs),
          String(limits.loopMaxRequests),
          String(limits.loopWindowMs),
          opts.loopGuardExempt ? '1' : '0',
          String(TRIP_MARKER_TTL_MS),
          margin,
          String(resetAt),
        ],
      )) as [number, number, number, number];
      const [code, firstTrip, remaining, resetMs] = reply;
      if (code === 2) return { ok: false, kind: 'loop_detected', firstTrip: firstTrip === 1 };
      const rate = { limit: limits.rateLimitPerHour, remaining, resetMs };
      if (code === 1) {
        return { ok: false, kind: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil((resetMs - at) / 1000)), rate };
      }
      return { ok: true, rate };
    },

    async reserveSpend(input: ReserveSpendInput): Promise<ReserveResult> {
      assertKeyId(input.keyId);
      assertProjectId(input.projectId);
      const estimate = usdToMicroUsd(input.estimatedUsd, 'estimatedUsd');
      const hourlyLimit = optionalUsdToMicroUsd(input.hourlyLimitUsd, 'hourlyLimitUsd');
      const budget = optionalUsdToMicroUsd(input.monthlyBudgetUsd, 'monthlyBudgetUsd');
      const resetAt = resetAtMsOf(input.resetAtMs);
      const at = now();
      const ref = createReservationRef(input.keyId, input.projectId, utcMonthOf(at));
      const key = keyKeys(prefix, input.keyId);
      const month = monthKeys(prefix, input.projectId, ref.month);
      const reply = (await runRedisScript(
        redis,
        reserveScript,
        [
          ...keyStateKeys(key),
          month.settled,
          month.pending,
          month.pendingAmounts,
          month.pendingSum,
          reservationKey(prefix, ref.reservationId),
        ],
        [
          String(at),
          ref.reservationId,
          String(estimate),
          hourlyLimit === null ? '' : String(hourlyLimit),
          budget === null ? '' : String(budget),
          String(limits.spendWindowMs),
          String(limits.reservationTtlMs),
          String(TRIP_MARKER_TTL_MS),
          String(MONTH_COUNTER_TTL_MS),
          String(RESERVATION_RECORD_TTL_MS),
          margin,
          String(resetAt),
        ],
      )) as [number, number];
      const [code, firstTrip] = reply;
      if (code === 1) return { ok: false, kind: 'circuit_open', firstTrip: firstTrip === 1 };
      if (code === 2) return { ok: false, kind: 'budget_exceeded' };
      return { ok: true, reservationId: ref.reservationId };
    },

    async settleSpend(reservationId: string, actualUsd: number): Promise<void> {
      const ref = parseReservationId(reservationId);
      await finish(ref, usdToMicroUsd(actualUsd, 'actualUsd'));
    },

    async releaseSpend(reservationId: string): Promise<void> {
      await finish(parseReservationId(reservationId), null);
    },

    async monthlySpendUsd(projectId: number): Promise<number> {
      assertProjectId(projectId);
      let settled: string | null;
      try {
        settled = await redis.get(monthKeys(prefix, projectId, utcMonthOf(now())).settled);
      } catch (error) {
        throw protectionUnavailable(error);
      }
      return microUsdToUsd(settled === null ? 0 : Number(settled));
    },

    async raiseMonthlySpend(projectId: number, usd: number): Promise<void> {
      assertProjectId(projectId);
      const floor = usdToMicroUsd(usd, 'usd');
      await runRedisScript(redis, raiseScript, [monthKeys(prefix, projectId, utcMonthOf(now())).settled], [String(floor), String(MONTH_COUNTER_TTL_MS)]);
    },

    async resetKey(keyId: string): Promise<void> {
      assertKeyId(keyId);
      const key = keyKeys(prefix, keyId);
      // One DEL is atomic. The rate log stays (see RESET_KEY_STATE).
      try {
        await redis.del(...resetKeySet(key));
      } catch (error) {
        throw protectionUnavailable(error);
      }
    },

    async isHealthy(): Promise<boolean> {
      if (redis.status !== 'ready') return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), HEALTH_PING_TIMEOUT_MS);
      });
      try {
        const ping = redis.ping().then(
          (reply) => reply === 'PONG',
          () => false,
        );
        return await Promise.race([ping, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

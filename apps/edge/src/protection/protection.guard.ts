import { DomainError } from '@gateway/errors';
import type { Logger } from '@gateway/logging';
import type { ProtectionStore, RateLimitState } from './protection-store.port';

/** What the guard needs of the authenticated key (a subset of the edge's KeyPrincipal). */
export interface GuardedKey {
  keyId: string;
  projectId: number;
  hourlyLimit: number | null;
  loopGuardExempt: boolean;
  monthlyBudgetUsd: number | null;
  /** control-plane's durable spend of the project this month (USD): the floor of the counter. */
  projectMonthlySpendUsd: number;
  /** ms epoch of the key's last admin reset to active (0 = never): the key's generation (see AdmitRequestOptions). */
  resetAtMs: number;
}

/** Who made the request, for the audit record of an automatic pause. */
export interface Caller {
  ip: string;
  userAgent: string;
}

/** A key's automatic pause, as the guard decided it. */
export interface KeyTrip {
  keyId: string;
  status: 'loop_detected' | 'tripped';
  /** The key's reset generation (resetAtMs) the trip was decided under: a later reset supersedes it. */
  resetAtMs: number;
}

/** Persists a key's automatic pause (control-plane RecordKeyTrip: status, counter, audit, key.changed). */
export type KeyTripRecorder = (trip: KeyTrip, caller: Caller) => Promise<void>;

/** `$5.00`, `$0.25`, `$0.001`: at least cents, more digits when the limit has them. */
export function formatUsdLimit(limit: number): string {
  const cents = limit.toFixed(2);
  return Number(cents) === limit ? cents : String(limit);
}

export const RATE_LIMITED_MESSAGE = 'Rate limit exceeded';
export const LOOP_DETECTED_MESSAGE = 'Recursive loop detected. Account throttled.';
export const BUDGET_EXCEEDED_MESSAGE = 'Monthly budget exceeded.';

export interface Reservation {
  settle(actualUsd: number): Promise<void>;
  release(): Promise<void>;
}

/**
 * The spec's gateway protection in front of every API-key request: rolling-hour rate limit and
 * loop guard on admission; hourly spend cap and monthly budget by reserving the estimated cost
 * before a model call and settling the actual cost after it. The store is atomic across
 * replicas; exactly one caller per trip persists the key's new status. Store failures surface as
 * UNAVAILABLE (503): the edge fails closed and never calls a model unmetered.
 */
export class ProtectionGuard {
  /** Last durable monthly figure seeded per project, so the counter is raised once per change. */
  private readonly seeded = new Map<number, number>();

  constructor(
    private readonly store: ProtectionStore,
    private readonly recordTrip: KeyTripRecorder,
    private readonly logger: Logger,
  ) {}

  /** Admits one request of the key or throws RATE_LIMITED / LOOP_DETECTED. Returns header values. */
  async admit(key: GuardedKey, caller: Caller): Promise<RateLimitState> {
    const result = await this.store.admitRequest(key.keyId, { loopGuardExempt: key.loopGuardExempt, resetAtMs: key.resetAtMs });
    if (result.ok) return result.rate;
    if (result.kind === 'rate_limited') {
      throw Object.assign(new DomainError('RATE_LIMITED', RATE_LIMITED_MESSAGE, { retryAfterSeconds: result.retryAfterSeconds }), { rate: result.rate });
    }
    if (result.firstTrip) await this.persistTrip({ keyId: key.keyId, status: 'loop_detected', resetAtMs: key.resetAtMs }, caller);
    throw new DomainError('LOOP_DETECTED', LOOP_DETECTED_MESSAGE);
  }

  /** Reserves `estimatedUsd` against the key's hourly cap and the project's monthly budget. */
  async reserve(key: GuardedKey, estimatedUsd: number, caller: Caller): Promise<Reservation> {
    if (key.monthlyBudgetUsd !== null && key.projectMonthlySpendUsd > 0 && this.seeded.get(key.projectId) !== key.projectMonthlySpendUsd) {
      await this.store.raiseMonthlySpend(key.projectId, key.projectMonthlySpendUsd);
      if (this.seeded.size > 10_000) this.seeded.clear();
      this.seeded.set(key.projectId, key.projectMonthlySpendUsd);
    }
    const result = await this.store.reserveSpend({
      keyId: key.keyId,
      projectId: key.projectId,
      estimatedUsd: Math.max(0, estimatedUsd),
      hourlyLimitUsd: key.hourlyLimit,
      monthlyBudgetUsd: key.monthlyBudgetUsd,
      resetAtMs: key.resetAtMs,
    });
    if (!result.ok) {
      if (result.kind === 'budget_exceeded') throw new DomainError('BUDGET_EXCEEDED', BUDGET_EXCEEDED_MESSAGE);
      if (result.firstTrip) await this.persistTrip({ keyId: key.keyId, status: 'tripped', resetAtMs: key.resetAtMs }, caller);
      throw new DomainError('CIRCUIT_OPEN', `Kill switch engaged: hourly limit of $${formatUsdLimit(key.hourlyLimit ?? 0)} exceeded.`);
    }
    const id = result.reservationId;
    let finished = false;
    return {
      settle: async (actualUsd) => {
        if (finished) return;
        finished = true;
        await this.store.settleSpend(id, Math.max(0, actualUsd));
      },
      release: async () => {
        if (finished) return;
        finished = true;
        await this.store.releaseSpend(id);
      },
    };
  }

  /**
   * A key.changed broadcast: an admin reset clears the key's trips and windows (resetKey). Any
   * other change (a new hourly_limit alone, a pause) leaves them: the hour's spend keeps counting.
   * An event without `reset` comes from a control-plane of an earlier version, which does not
   * say; every change to active counts as a reset then, as it always did.
   */
  async onKeyChanged(change: { keyId: string; status: string; reset?: boolean }): Promise<void> {
    if (change.status === 'active' && change.reset !== false) await this.store.resetKey(change.keyId);
  }

  isHealthy(): Promise<boolean> {
    return this.store.isHealthy();
  }

  private async persistTrip(trip: KeyTrip, caller: Caller): Promise<void> {
    try {
      await this.recordTrip(trip, caller);
    } catch (error) {
      // The store keeps the key refused (sticky trip) even when control-plane missed the update.
      this.logger.error({ err: error, keyId: trip.keyId, status: trip.status }, 'key trip could not be persisted in control-plane');
    }
  }
}

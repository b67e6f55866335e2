/**
 * The port behind the gateway protection counters (rate limit, loop guard, hourly spend cap,
 * monthly budget). Two adapters implement it: Redis (shared by every edge replica) and memory
 * (the embedded single-process mode). Both pass the same contract suite
 * (testing/protection-store.contract.ts). No transport types here: the caller maps results to
 * HTTP (429/402/503) itself.
 */

/** Milliseconds since the Unix epoch. Injected so tests move time instead of sleeping. */
export interface Clock {
  now(): number;
}

export interface ProtectionLimits {
  /** Requests per key admitted in the rolling window; one more is rate_limited (spec: 1,000). */
  rateLimitPerHour: number;
  /** Length of the rolling rate-limit window in ms (spec: one hour). */
  rateWindowMs: number;
  /** Requests per key allowed in the loop window; one more trips the loop guard (spec: 50). */
  loopMaxRequests: number;
  /** Length of the loop-guard window in ms (spec: 10 s). */
  loopWindowMs: number;
  /** Length of the rolling hourly spend window in ms (spec: one hour). */
  spendWindowMs: number;
  /** A reservation neither settled nor released within this many ms stops counting (crashed request). */
  reservationTtlMs: number;
}

/** Values for the X-RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  /** Requests still admissible right now in the rolling window. */
  remaining: number;
  /** Epoch ms at which the oldest counted request leaves the window, i.e. the next slot frees. */
  resetMs: number;
}

export type AdmitResult =
  | { ok: true; rate: RateLimitState }
  | { ok: false; kind: 'rate_limited'; retryAfterSeconds: number; rate: RateLimitState }
  /** firstTrip is true for exactly one caller per trip, across all replicas: that caller persists the status. */
  | { ok: false; kind: 'loop_detected'; firstTrip: boolean };

export type ReserveResult =
  | { ok: true; reservationId: string }
  /** firstTrip is true for exactly one caller per trip, across all replicas: that caller persists `tripped`. */
  | { ok: false; kind: 'circuit_open'; firstTrip: boolean }
  | { ok: false; kind: 'budget_exceeded' };

export interface ReserveSpendInput {
  keyId: string;
  projectId: number;
  /** Estimated cost of the model call in USD; counts against both caps until settled or released. */
  estimatedUsd: number;
  /** The key's rolling-hour cap in USD; null means no cap. */
  hourlyLimitUsd: number | null;
  /** The project's calendar-month (UTC) budget in USD; null means no budget. */
  monthlyBudgetUsd: number | null;
  /** See AdmitRequestOptions.resetAtMs. */
  resetAtMs?: number;
}

export interface AdmitRequestOptions {
  loopGuardExempt: boolean;
  /**
   * ms epoch of the key's last admin reset to active, as control-plane answered it to this caller
   * (0 or absent = never): the key's generation. The first call of a newer generation than the one
   * the store last caught up with finds the older trips stale (the reset's key.changed, and so
   * resetKey, never reached this store) and does exactly what resetKey does before it proceeds,
   * once per generation. A call of an older generation (it holds the settings from before a reset)
   * is refused when it would trip the key, but writes no trip and reports no first trip.
   */
  resetAtMs?: number;
}

export interface ProtectionStore {
  /** Rolling-window rate limit and loop guard in one atomic step. Exempt keys skip the loop guard only. */
  admitRequest(keyId: string, opts: AdmitRequestOptions): Promise<AdmitResult>;
  /**
   * Atomically checks the hourly cap (rolling window, per key) and the monthly budget (UTC calendar
   * month, per project), both including outstanding reservations, and reserves the estimate.
   */
  reserveSpend(input: ReserveSpendInput): Promise<ReserveResult>;
  /** Replaces the reservation by the actual cost in USD. Idempotent: a second call is a no-op. */
  settleSpend(reservationId: string, actualUsd: number): Promise<void>;
  /** Drops the reservation: no cost was incurred. Idempotent; a no-op after settle. */
  releaseSpend(reservationId: string): Promise<void>;
  /** Exact settled spend in USD of the project for the current UTC month. */
  monthlySpendUsd(projectId: number): Promise<number>;
  /**
   * Raises the current month's settled spend of the project to at least `usd` (never lowers it).
   * Control-plane keeps the durable monthly figure; this re-seeds a counter Redis lost (restart,
   * eviction) so a budget cannot be overspent after a data loss.
   */
  raiseMonthlySpend(projectId: number, usd: number): Promise<void>;
  /**
   * Clears the key's trip states, loop window and hourly spend window (admin PATCHed it to active).
   * The fast path, on key.changed; a missed broadcast is caught up by `resetAtMs` on the next call.
   */
  resetKey(keyId: string): Promise<void>;
  isHealthy(): Promise<boolean>;
}

/**
 * Gateway protection counters: rolling-hour rate limit, loop guard, hourly spend cap (reserve →
 * settle) and monthly budget, behind one port with a Redis and an in-memory adapter.
 * See README.md in this folder for the rules and the failure policy.
 */
export type {
  AdmitRequestOptions,
  AdmitResult,
  Clock,
  ProtectionLimits,
  ProtectionStore,
  RateLimitState,
  ReserveResult,
  ReserveSpendInput,
} from './protection-store.port';
export { DEFAULT_LIMITS, systemClock } from './protection-limits.config';
export { createMemoryProtectionStore } from './memory-protection.store';
export { createRedisProtectionStore, DEFAULT_PROTECTION_PREFIX, PROTECTION_REDIS_OPTIONS } from './redis-protection.store';
export { ProtectionGuard, type GuardedKey, type KeyTrip, type KeyTripRecorder, type Reservation } from './protection.guard';

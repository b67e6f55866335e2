import type { FailureMode, MockBehavior, WireFormat } from './mock.types';

export interface ResolvedBehavior {
  fail?: FailureMode;
  retryAfterSeconds?: number;
  latencyMs?: number;
  cachedTokens?: number;
  omitUsage?: boolean;
}

const NOTHING: ResolvedBehavior = Object.freeze({});

/**
 * Programmatic behaviour rules (tests: "fail the next 2 requests for model X with 503").
 * Every matching rule applies, earlier rules win per field, and each use counts against `times`.
 */
export class BehaviorStore {
  private rules: Array<MockBehavior & { remaining: number }> = [];

  add(behavior: MockBehavior): void {
    if (behavior.times !== undefined && (!Number.isInteger(behavior.times) || behavior.times < 1)) {
      throw new Error('times must be a positive integer');
    }
    this.rules.push({ ...behavior, remaining: behavior.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.rules = [];
  }

  resolve(format: WireFormat, model: string): ResolvedBehavior {
    // Hot path for benchmarks: no rules, no work.
    if (this.rules.length === 0) return NOTHING;
    const resolved: ResolvedBehavior = {};
    let expired = false;
    for (const rule of this.rules) {
      if (rule.remaining <= 0) continue;
      if (rule.model !== undefined && rule.model !== model) continue;
      if (rule.format !== undefined && rule.format !== format) continue;
      rule.remaining -= 1;
      if (rule.remaining <= 0) expired = true;
      resolved.fail ??= rule.fail;
      resolved.retryAfterSeconds ??= rule.retryAfterSeconds;
      resolved.latencyMs ??= rule.latencyMs;
      resolved.cachedTokens ??= rule.cachedTokens;
      resolved.omitUsage ??= rule.omitUsage;
    }
    if (expired) this.rules = this.rules.filter((rule) => rule.remaining > 0);
    return resolved;
  }
}

/** Reads `x-mock-fail`: a status code, or one of the named failure modes. */
export function parseFailureHeader(value: string | undefined): FailureMode | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d{3}$/.test(value)) return Number(value);
  if (value === 'timeout' || value === 'reset' || value === 'broken-stream' || value === 'broken-stream-early' || value === 'stalled-stream') return value;
  return undefined;
}

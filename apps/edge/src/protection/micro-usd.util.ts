import { MICRO_USD_PER_USD } from './protection-limits.config';

/**
 * Largest single amount accepted, in USD. Keeps every micro-dollar value (and realistic sums) far
 * below 2^53, where Lua doubles and JS numbers stop being exact integers.
 */
const MAX_USD = 1_000_000_000;

/** USD → integer micro-dollars, rounded to the nearest micro-dollar (0.1 USD → 100000, no float drift). */
export function usdToMicroUsd(usd: number, field: string): number {
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > MAX_USD) {
    throw new RangeError(`${field} must be a finite USD amount between 0 and ${MAX_USD}, got ${String(usd)}`);
  }
  return Math.round(usd * MICRO_USD_PER_USD);
}

/** A USD limit that may be null (no cap) → micro-dollars or null. */
export function optionalUsdToMicroUsd(usd: number | null, field: string): number | null {
  return usd === null ? null : usdToMicroUsd(usd, field);
}

/** Integer micro-dollars → USD; exact to the micro-dollar. */
export function microUsdToUsd(microUsd: number): number {
  return microUsd / MICRO_USD_PER_USD;
}

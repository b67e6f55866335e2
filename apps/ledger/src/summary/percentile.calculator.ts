import { DomainError } from '@gateway/errors';

/**
 * Percentile with linear interpolation between closest ranks (the "R-7" definition: numpy's
 * default, Excel's PERCENTILE.INC): rank = p/100 × (n−1) on the sorted values, interpolated
 * between the two neighbours. `p` is 0..100 (clamped).
 * No values → 0 (a trace without steps has no latency); one value → that value. Non-finite
 * values are ignored.
 */
export function percentile(values: number[], p: number): number {
  if (!Number.isFinite(p)) throw new DomainError('VALIDATION_FAILED', 'percentile must be a finite number');
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const rank = (Math.min(100, Math.max(0, p)) / 100) * (sorted.length - 1);
  const lower = Math.floor(rank);
  const upper = Math.ceil(rank);
  const fraction = rank - lower;
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * fraction;
}

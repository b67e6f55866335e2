/**
 * Fixed logarithmic buckets (the DDSketch mapping) for latency percentiles that can be summed
 * across hours, models and replicas. A value x > 0 (ms) falls in bucket i = ceil(log_γ x) with
 * γ = (1 + α) / (1 − α); the bucket is reported as 2γ^i / (γ + 1).
 *
 * Error bound: every x in bucket i lies in (γ^(i−1), γ^i], so the reported value is within a
 * relative error α of the sample at the requested rank: |estimate − x| ≤ α·x. With α = 1 % a
 * p99 of 2,000 ms is reported between 1,980 and 2,020 ms. Counts are exact, so the rank is exact.
 * Values ≤ 0 (e.g. a blocked step) go to ZERO_BUCKET and are reported as 0.
 * 0.001 ms … 1 hour spans ~760 buckets; only the ones hit are stored.
 */
export const RELATIVE_ACCURACY = 0.01;
export const GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
const LOG_GAMMA = Math.log(GAMMA);
/** Below every bucket a positive value can reach (ms values ≥ 1e-300). */
export const ZERO_BUCKET = -1_000_000;

export type LatencyMetric = 1 | 2 | 3;
export const LATENCY_METRICS = { modelCall: 1, modelThink: 2, toolExecution: 3 } as const satisfies Record<string, LatencyMetric>;

export function bucketOf(valueMs: number): number {
  if (!Number.isFinite(valueMs) || valueMs <= 0) return ZERO_BUCKET;
  return Math.ceil(Math.log(valueMs) / LOG_GAMMA);
}

export function bucketValue(bucket: number): number {
  if (bucket === ZERO_BUCKET) return 0;
  return (2 * Math.pow(GAMMA, bucket)) / (GAMMA + 1);
}

export interface BucketCount {
  bucket: number;
  samples: number;
}

/**
 * The nearest-rank percentile (the sample at rank ⌈q·n⌉, 1-based) of the merged buckets, as
 * its bucket's representative value; 0 without samples. `q` in 0..1.
 */
export function quantile(buckets: BucketCount[], q: number): number {
  const sorted = [...buckets].filter((b) => b.samples > 0).sort((a, b) => a.bucket - b.bucket);
  const total = sorted.reduce((sum, b) => sum + b.samples, 0);
  if (total === 0) return 0;
  const rank = Math.min(total, Math.max(1, Math.ceil(q * total)));
  let seen = 0;
  for (const entry of sorted) {
    seen += entry.samples;
    if (seen >= rank) return bucketValue(entry.bucket);
  }
  return bucketValue(sorted[sorted.length - 1]!.bucket);
}

import { bucketOf, bucketValue, quantile, RELATIVE_ACCURACY, ZERO_BUCKET, type BucketCount } from './latency-sketch';

function sketch(values: number[]): BucketCount[] {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(bucketOf(value), (counts.get(bucketOf(value)) ?? 0) + 1);
  return [...counts].map(([bucket, samples]) => ({ bucket, samples }));
}

function nearestRank(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]!;
}

describe('latency sketch', () => {
  it('reports every positive value within the relative accuracy', () => {
    for (const value of [0.004, 0.5, 1, 7.3, 99.9, 1_000, 12_345.6, 3_600_000]) {
      const estimate = bucketValue(bucketOf(value));
      expect(Math.abs(estimate - value) / value).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
    }
  });

  it('keeps zero and negative values in the zero bucket, reported as 0', () => {
    expect(bucketOf(0)).toBe(ZERO_BUCKET);
    expect(bucketOf(-3)).toBe(ZERO_BUCKET);
    expect(bucketOf(Number.NaN)).toBe(ZERO_BUCKET);
    expect(quantile([{ bucket: ZERO_BUCKET, samples: 3 }], 0.5)).toBe(0);
  });

  it('answers nearest-rank percentiles within the bound on a skewed sample', () => {
    // Deterministic pseudo-random log-normal-ish latencies.
    let seed = 42;
    const next = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const values = Array.from({ length: 5_000 }, () => Math.exp(3 + 2.5 * next()) * (next() < 0.02 ? 20 : 1));
    const buckets = sketch(values);
    for (const q of [0.5, 0.95, 0.99]) {
      const exact = nearestRank(values, q);
      expect(Math.abs(quantile(buckets, q) - exact) / exact).toBeLessThanOrEqual(RELATIVE_ACCURACY + 1e-12);
    }
  });

  it('merges buckets from several hours by adding counts', () => {
    const a = [10, 20, 30];
    const b = [40, 50];
    const merged = [...sketch(a), ...sketch(b)];
    expect(quantile(merged, 0.5)).toBeCloseTo(bucketValue(bucketOf(30)), 10);
    expect(quantile(merged, 1)).toBeCloseTo(bucketValue(bucketOf(50)), 10);
  });

  it('is 0 without samples', () => {
    expect(quantile([], 0.99)).toBe(0);
  });
});

import { bucketLabel, statsBuckets, STATS_WINDOWS } from './stats-buckets';

describe('statsBuckets', () => {
  it('cuts 24 hours into 12 two-hour ranges ending with the current hour', () => {
    const buckets = statsBuckets({ hours: 24, buckets: 12 }, new Date('2026-03-01T12:34:00Z'));
    expect(buckets).toHaveLength(12);
    expect(buckets[11]).toEqual({ start: '2026-03-01T11:00:00.000Z', end: '2026-03-01T13:00:00.000Z' });
    expect(buckets[0]).toEqual({ start: '2026-02-28T13:00:00.000Z', end: '2026-02-28T15:00:00.000Z' });
    // contiguous, oldest first
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].start).toBe(buckets[i - 1].end);
  });

  it('includes the hour that begins exactly now', () => {
    const buckets = statsBuckets({ hours: 6, buckets: 6 }, new Date('2026-03-01T12:00:00Z'));
    expect(buckets.at(-1)).toEqual({ start: '2026-03-01T12:00:00.000Z', end: '2026-03-01T13:00:00.000Z' });
    expect(buckets).toHaveLength(6);
  });

  it('uses whole-hour buckets for every offered window', () => {
    for (const window of STATS_WINDOWS) {
      const buckets = statsBuckets(window, new Date('2026-03-01T12:34:00Z'));
      expect(buckets).toHaveLength(window.buckets);
      for (const bucket of buckets) {
        expect(new Date(bucket.start).getUTCMinutes()).toBe(0);
        expect((Date.parse(bucket.end) - Date.parse(bucket.start)) % 3_600_000).toBe(0);
      }
    }
  });
});

describe('bucketLabel', () => {
  it('shows the hour for short windows and the day for long ones', () => {
    const bucket = { start: '2026-03-01T09:00:00.000Z', end: '2026-03-01T11:00:00.000Z' };
    expect(bucketLabel(bucket, 24)).toBe('09:00');
    expect(bucketLabel(bucket, 168)).toBe('03-01');
  });
});

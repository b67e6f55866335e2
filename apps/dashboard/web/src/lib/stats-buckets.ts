const HOUR_MS = 3_600_000;

export interface StatsWindow {
  /** Rolling hours, as GET /api/v1/stats `window`. */
  hours: number;
  label: string;
  /** How many points the over-time charts get (each one a stats query of its own range). */
  buckets: number;
}

/** The window selector's choices. Bucket sizes are whole hours (stats rollups are hourly). */
export const STATS_WINDOWS: StatsWindow[] = [
  { hours: 6, label: 'Last 6 hours', buckets: 6 },
  { hours: 24, label: 'Last 24 hours', buckets: 12 },
  { hours: 168, label: 'Last 7 days', buckets: 14 },
  { hours: 720, label: 'Last 30 days', buckets: 15 },
];

export interface TimeBucket {
  /** Inclusive start, ISO date-time (a whole UTC hour). */
  start: string;
  /** Exclusive end, ISO date-time (a whole UTC hour). */
  end: string;
}

/**
 * The window cut into equal ranges of whole hours, oldest first, the last one ending at the
 * end of the current hour (so it includes what just happened). Each range is asked for with
 * `start_date`/`end_date`; the statistics endpoint has no time series of its own.
 */
export function statsBuckets(window: Pick<StatsWindow, 'hours' | 'buckets'>, now: Date): TimeBucket[] {
  const size = Math.max(1, Math.round(window.hours / window.buckets)) * HOUR_MS;
  const count = Math.max(1, Math.ceil((window.hours * HOUR_MS) / size));
  const end = Math.ceil(now.getTime() / HOUR_MS) * HOUR_MS;
  // Exactly on the hour, the current hour has not begun: still show it as the last bucket.
  const last = end === now.getTime() ? end + HOUR_MS : end;
  return Array.from({ length: count }, (_, index) => {
    const bucketEnd = last - (count - 1 - index) * size;
    return { start: new Date(bucketEnd - size).toISOString(), end: new Date(bucketEnd).toISOString() };
  });
}

/** Axis label of a bucket: the hour for windows up to two days, else the day. */
export function bucketLabel(bucket: TimeBucket, windowHours: number): string {
  const start = new Date(bucket.start);
  if (windowHours <= 48) return `${String(start.getUTCHours()).padStart(2, '0')}:00`;
  return `${String(start.getUTCMonth() + 1).padStart(2, '0')}-${String(start.getUTCDate()).padStart(2, '0')}`;
}

import { DomainError } from '@gateway/errors';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
export const DEFAULT_WINDOW_HOURS = 24;
export const MAX_WINDOW_HOURS = 8_784; // 366 days
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface StatsPeriod {
  /** `last_<n>_hours` for a rolling window, `custom` for a date range. */
  label: string;
  /** First hour bucket included (UTC, whole hour). */
  start: Date;
  /** End of the period as reported: now for a window, the exclusive end of a range. */
  end: Date;
  /** Exclusive end of the hour buckets read. */
  endHour: Date;
}

export interface PeriodQuery {
  windowHours?: number;
  startDate?: string;
  endDate?: string;
}

const floorHour = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
const ceilHour = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

function parseBound(value: string, field: string, end: boolean): number {
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) throw new DomainError('BAD_REQUEST', `${field} must be an ISO date (YYYY-MM-DD) or date-time`);
    // A date-only end includes that whole day.
    return end ? ms + DAY_MS : ms;
  }
  const ms = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) throw new DomainError('BAD_REQUEST', `${field} must be an ISO date (YYYY-MM-DD) or date-time`);
  return ms;
}

/**
 * The statistics period. Rollups are hourly, so a period covers whole UTC hours: a rolling
 * window of n hours reads from the hour containing now − n h up to now (the reported start says
 * exactly where it begins); a range reads from the hour of start_date to the end of end_date
 * (a date-only end_date includes that day). `window` and `start_date`/`end_date` are mutually
 * exclusive; neither means the last 24 hours.
 */
export function resolvePeriod(query: PeriodQuery, now: Date): StatsPeriod {
  const hasRange = Boolean(query.startDate || query.endDate);
  if (query.windowHours !== undefined && hasRange) throw new DomainError('BAD_REQUEST', 'window and start_date/end_date are mutually exclusive');
  const nowMs = now.getTime();
  if (!hasRange) {
    const hours = query.windowHours ?? DEFAULT_WINDOW_HOURS;
    if (!Number.isInteger(hours) || hours < 1 || hours > MAX_WINDOW_HOURS) throw new DomainError('BAD_REQUEST', `window must be a whole number of hours between 1 and ${MAX_WINDOW_HOURS}`);
    return { label: `last_${hours}_hours`, start: new Date(floorHour(nowMs - hours * HOUR_MS)), end: now, endHour: new Date(floorHour(nowMs) + HOUR_MS) };
  }
  if (!query.startDate) throw new DomainError('BAD_REQUEST', 'start_date is required with end_date');
  const start = floorHour(parseBound(query.startDate, 'start_date', false));
  const end = query.endDate ? parseBound(query.endDate, 'end_date', true) : nowMs;
  if (end <= start) throw new DomainError('BAD_REQUEST', 'start_date must be before end_date');
  if (end - start > MAX_WINDOW_HOURS * HOUR_MS + HOUR_MS) throw new DomainError('BAD_REQUEST', 'a date range may span at most 366 days');
  return { label: 'custom', start: new Date(start), end: new Date(end), endHour: new Date(ceilHour(end)) };
}

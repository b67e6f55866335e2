import { DomainError } from '@gateway/errors';
import { resolvePeriod } from './stats-period';

const NOW = new Date('2026-03-10T15:42:10.000Z');

function badRequest(run: () => unknown, message: RegExp): void {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('BAD_REQUEST');
    expect((error as DomainError).message).toMatch(message);
    return;
  }
  throw new Error('expected a BAD_REQUEST');
}

describe('resolvePeriod', () => {
  it('defaults to the last 24 hours, from the hour containing now − 24 h', () => {
    const period = resolvePeriod({}, NOW);
    expect(period.label).toBe('last_24_hours');
    expect(period.start.toISOString()).toBe('2026-03-09T15:00:00.000Z');
    expect(period.end).toEqual(NOW);
    expect(period.endHour.toISOString()).toBe('2026-03-10T16:00:00.000Z');
  });

  it('reads a rolling window of n hours', () => {
    const period = resolvePeriod({ windowHours: 168 }, NOW);
    expect(period.label).toBe('last_168_hours');
    expect(period.start.toISOString()).toBe('2026-03-03T15:00:00.000Z');
  });

  it('includes the whole end day of a date-only range', () => {
    const period = resolvePeriod({ startDate: '2026-03-01', endDate: '2026-03-02' }, NOW);
    expect(period).toEqual({ label: 'custom', start: new Date('2026-03-01T00:00:00Z'), end: new Date('2026-03-03T00:00:00Z'), endHour: new Date('2026-03-03T00:00:00Z') });
  });

  it('aligns date-times to whole hours and runs an open range to now', () => {
    const period = resolvePeriod({ startDate: '2026-03-10T09:30:00Z' }, NOW);
    expect(period.start.toISOString()).toBe('2026-03-10T09:00:00.000Z');
    expect(period.end).toEqual(NOW);
    expect(resolvePeriod({ startDate: '2026-03-10T09:30:00Z', endDate: '2026-03-10T10:10:00+00:00' }, NOW).endHour.toISOString()).toBe('2026-03-10T11:00:00.000Z');
  });

  it('refuses window together with a range, and bad values', () => {
    badRequest(() => resolvePeriod({ windowHours: 24, startDate: '2026-03-01' }, NOW), /mutually exclusive/);
    badRequest(() => resolvePeriod({ windowHours: 24, endDate: '2026-03-01' }, NOW), /mutually exclusive/);
    badRequest(() => resolvePeriod({ windowHours: 0 }, NOW), /window/);
    badRequest(() => resolvePeriod({ windowHours: 1.5 }, NOW), /window/);
    badRequest(() => resolvePeriod({ endDate: '2026-03-01' }, NOW), /start_date is required/);
    badRequest(() => resolvePeriod({ startDate: '2026-02-30' }, NOW), /ISO date/);
    badRequest(() => resolvePeriod({ startDate: 'yesterday' }, NOW), /ISO date/);
    badRequest(() => resolvePeriod({ startDate: '2026-03-05', endDate: '2026-03-01' }, NOW), /before/);
    badRequest(() => resolvePeriod({ startDate: '2024-01-01', endDate: '2026-01-01' }, NOW), /366 days/);
  });
});

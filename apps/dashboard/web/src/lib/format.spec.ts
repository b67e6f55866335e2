import { formatDateTime, formatMs, formatOutput, formatPercent, formatRelative, formatScore, formatUsd, shortId } from './format';

describe('formatUsd', () => {
  it('keeps significant digits for fractions of a cent', () => {
    expect(formatUsd(0.000123)).toBe('$0.000123');
    expect(formatUsd(0.0000015)).toBe('$0.0000015');
    expect(formatUsd(0.0042)).toBe('$0.0042');
    expect(formatUsd(0.05)).toBe('$0.050');
    expect(formatUsd(0.25)).toBe('$0.25');
  });

  it('uses cents and thousands separators from one dollar', () => {
    expect(formatUsd(1)).toBe('$1.00');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(-2.5)).toBe('-$2.50');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('shows a dash for missing values', () => {
    expect(formatUsd(null)).toBe('—');
    expect(formatUsd(undefined)).toBe('—');
    expect(formatUsd(Number.NaN)).toBe('—');
  });
});

describe('formatMs', () => {
  it('picks ms, s or minutes', () => {
    expect(formatMs(0)).toBe('0 ms');
    expect(formatMs(0.5)).toBe('0.50 ms');
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(1250)).toBe('1.25 s');
    expect(formatMs(12_345)).toBe('12.3 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
    expect(formatMs(null)).toBe('—');
  });
});

describe('percent and score', () => {
  it('formats percentages and 0..1 scores', () => {
    expect(formatPercent(12.345)).toBe('12.3%');
    expect(formatPercent(50, 0)).toBe('50%');
    expect(formatScore(0.8)).toBe('0.80');
    expect(formatScore(null)).toBe('—');
  });
});

describe('dates', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('formats an ISO time in UTC', () => {
    expect(formatDateTime('2026-03-01T09:05:07.123Z')).toBe('2026-03-01 09:05:07 UTC');
    expect(formatDateTime(null)).toBe('—');
  });

  it('says how long ago, and never for null', () => {
    expect(formatRelative('2026-03-01T11:59:50Z', now)).toBe('just now');
    expect(formatRelative('2026-03-01T11:55:00Z', now)).toBe('5 min ago');
    expect(formatRelative('2026-03-01T09:00:00Z', now)).toBe('3 h ago');
    expect(formatRelative('2026-02-27T12:00:00Z', now)).toBe('2 d ago');
    expect(formatRelative('2025-12-01T12:00:00Z', now)).toBe('2025-12-01 12:00:00 UTC');
    expect(formatRelative(null, now)).toBe('never');
    expect(formatRelative('2026-03-01T13:00:00Z', now)).toBe('in 60 min');
  });
});

describe('shortId and formatOutput', () => {
  it('shortens long ids only', () => {
    expect(shortId('0b6f2c1e-8d0a-4c3b-9a55-3f0e2d1c7b9a')).toBe('0b6f2c1e…7b9a');
    expect(shortId('ak_12')).toBe('ak_12');
  });

  it('shows text as is and objects as indented JSON', () => {
    expect(formatOutput('Paris')).toBe('Paris');
    expect(formatOutput({ user_rating: 5 })).toBe('{\n  "user_rating": 5\n}');
    expect(formatOutput(null)).toBe('');
  });
});

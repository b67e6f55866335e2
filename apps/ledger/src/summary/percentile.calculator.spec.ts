import { DomainError } from '@gateway/errors';
import { percentile } from './percentile.calculator';

describe('percentile', () => {
  it('is 0 without values', () => {
    expect(percentile([], 50)).toBe(0);
    expect(percentile([], 99)).toBe(0);
  });

  it('is the value itself for a single value', () => {
    expect(percentile([42], 0)).toBe(42);
    expect(percentile([42], 50)).toBe(42);
    expect(percentile([42], 99)).toBe(42);
  });

  it('interpolates linearly between closest ranks, whatever the input order', () => {
    const values = [40, 10, 30, 20];
    expect(percentile(values, 0)).toBe(10);
    expect(percentile(values, 50)).toBe(25); // rank 1.5
    expect(percentile(values, 95)).toBeCloseTo(38.5); // rank 2.85
    expect(percentile(values, 100)).toBe(40);
  });

  it('matches the R-7 definition on 1..100', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(percentile(values, 50)).toBe(50.5);
    expect(percentile(values, 99)).toBeCloseTo(99.01);
  });

  it('clamps p, ignores non-finite values and rejects a non-finite p', () => {
    expect(percentile([1, 2], 150)).toBe(2);
    expect(percentile([1, 2], -5)).toBe(1);
    expect(percentile([1, Number.NaN, 3], 50)).toBe(2);
    expect(() => percentile([1], Number.NaN)).toThrow(DomainError);
  });

  it('does not reorder the caller\'s array', () => {
    const values = [3, 1, 2];
    percentile(values, 50);
    expect(values).toEqual([3, 1, 2]);
  });
});

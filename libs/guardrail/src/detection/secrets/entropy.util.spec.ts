import { characterClasses, shannonEntropy } from './entropy.util';

describe('entropy helpers', () => {
  it('measures bits per character', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBeCloseTo(2);
    expect(shannonEntropy('q8Zr2LmW9xKp4VbN7cTf')).toBeGreaterThan(4);
  });

  it('counts character classes', () => {
    expect(characterClasses('abc')).toBe(1);
    expect(characterClasses('aB3!')).toBe(4);
  });
});

import { patternProblem } from './pattern-safety';

describe('patternProblem', () => {
  it('accepts ordinary patterns', () => {
    for (const pattern of ['secret-\\d{4}', '\\bacme\\b', '[A-Z]{2}\\d+', '(?:foo|bar)baz', 'x(?:ab)+y', 'a+b*c?', '(?<name>abc)', '[(]+']) {
      expect(patternProblem(pattern)).toBeNull();
    }
  });

  it('refuses nested quantifiers and quantified alternations', () => {
    for (const pattern of ['(a+)+', '(a*)*', '(?:\\w+\\s?)+$', '((ab)+c)*', '(a|aa)*', '(x{1,3}){2,}']) {
      expect(patternProblem(pattern)).toBe('has nested quantifiers');
    }
  });

  it('refuses invalid, long, backreferencing and lookbehind patterns', () => {
    expect(patternProblem('([a-z')).toBe('is not a valid regular expression');
    expect(patternProblem('a'.repeat(201))).toBe('is too long (maximum is 200 characters)');
    expect(patternProblem('(a)\\1')).toBe('uses a backreference');
    expect(patternProblem('(?<=a)b')).toBe('uses lookbehind');
    expect(patternProblem('')).toBe('is empty');
  });
});

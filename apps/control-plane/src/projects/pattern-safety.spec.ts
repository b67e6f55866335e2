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

  it('refuses variable repeats of overlapping characters side by side, also across a group boundary', () => {
    for (const pattern of ['\\w+\\w+x', 'a*a+', '.*\\d+', '\\w+(\\w+)', '(?:x\\d+)\\d*']) {
      expect(patternProblem(pattern)).toBe('has two variable-length repeats of overlapping characters side by side');
    }
    for (const pattern of ['\\d+\\s+', '\\w+-\\w+', 'a{3}a{2}', '[a-z]+\\d+', '\\w+\\b\\s*']) expect(patternProblem(pattern)).toBeNull();
  });

  it('refuses invalid, long, backreferencing and lookbehind patterns', () => {
    expect(patternProblem('a{1001}')).toBe('repeats more than 1000 times');
    expect(patternProblem('([a-z')).toBe('is not a valid regular expression');
    expect(patternProblem('a'.repeat(201))).toBe('is too long (maximum is 200 characters)');
    expect(patternProblem('(a)\\1')).toBe('uses a backreference');
    expect(patternProblem('(?<=a)b')).toBe('uses lookbehind');
    expect(patternProblem('')).toBe('is empty');
  });
});

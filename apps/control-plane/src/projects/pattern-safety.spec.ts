import { patternProblem } from './pattern-safety';

describe('patternProblem (the guardrail rules, shared)', () => {
  it('accepts linear-time patterns', () => {
    for (const pattern of ['\\d+\\s+', '[a-z]+\\d+', 'rival\\.com', 'a{3}a{2}']) expect(patternProblem(pattern)).toBeNull();
  });

  it('names the reason for patterns the guardrail would refuse', () => {
    expect(patternProblem('(a+)+$')).toBe('repeats a group that itself repeats or alternates (nested quantifier)');
    expect(patternProblem('\\w+\\w+x')).toBe('has two variable-length repeats of overlapping characters side by side');
    expect(patternProblem('a{1001}')).toBe('repeats more than 1000 times');
    expect(patternProblem('(a)\\1')).toBe('uses a backreference');
    expect(patternProblem('')).toBe('must be a non-empty string');
  });
});

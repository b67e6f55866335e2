/**
 * Structural screening of project-supplied regular expressions (policy_rules.blocked_patterns)
 * before they are stored; the guardrail runs them on every check, and JavaScript has no match
 * timeout. Refused: more than MAX_PATTERN_LENGTH characters, anything `new RegExp(p, 'u')`
 * rejects, backreferences, lookbehind, and a quantifier applied to a group that itself contains
 * a quantifier or an alternation (`(a+)+`, `(a|aa)*`: the exponential backtracking shapes).
 */
export const MAX_PATTERN_LENGTH = 200;

export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'is empty';
  if (pattern.length > MAX_PATTERN_LENGTH) return `is too long (maximum is ${MAX_PATTERN_LENGTH} characters)`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  const stack: { risky: boolean }[] = [{ risky: false }];
  let lastGroupRisky = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    const top = stack[stack.length - 1];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<')) return 'uses a backreference';
      i += 1;
      lastGroupRisky = false;
      continue;
    }
    if (char === '[') {
      // Skip a character class (escapes inside included).
      i += 1;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      lastGroupRisky = false;
      continue;
    }
    if (char === '(') {
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) return 'uses lookbehind';
      stack.push({ risky: false });
      lastGroupRisky = false;
      continue;
    }
    if (char === ')') {
      const closed = stack.pop()!;
      lastGroupRisky = closed.risky;
      // A group with a repeat or alternation inside makes its enclosing group risky too.
      if (closed.risky) stack[stack.length - 1].risky = true;
      continue;
    }
    if (char === '|') {
      top.risky = true;
      lastGroupRisky = false;
      continue;
    }
    if (char === '*' || char === '+' || char === '{' || (char === '?' && pattern[i - 1] !== '(' && !/[*+?}]/.test(pattern[i - 1] ?? ''))) {
      const isRepeat = char !== '?';
      if (isRepeat && pattern[i - 1] === ')' && lastGroupRisky) return 'has nested quantifiers';
      if (isRepeat) top.risky = true;
      if (char === '{') while (i < pattern.length && pattern[i] !== '}') i += 1;
      lastGroupRisky = false;
      continue;
    }
    lastGroupRisky = false;
  }
  return null;
}

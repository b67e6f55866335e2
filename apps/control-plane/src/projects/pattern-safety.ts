/**
 * Structural screening of project-supplied regular expressions (policy_rules.blocked_patterns)
 * before they are stored: the guardrail runs them on every check and JavaScript has no match
 * timeout, so patterns that can backtrack catastrophically are refused here, with the same rules
 * the guardrail applies when it compiles them:
 *   - at most MAX_PATTERN_LENGTH characters, and `new RegExp(p, 'u')` must accept it;
 *   - no backreferences, no lookbehind;
 *   - no repeat of a group that itself repeats or alternates (`(a+)+`, `(a|aa)*`);
 *   - no two variable-length repeats of characters that may overlap side by side (`\w+\w+`);
 *   - counted repeats up to MAX_COUNTED_REPEAT.
 */
export const MAX_PATTERN_LENGTH = 200;
const MAX_COUNTED_REPEAT = 1_000;

/** Characters used to test whether two repeated atoms can match the same character. */
const PROBES = ['a', 'Z', 'é', '0', '_', ' ', '\t', '\n', '-', '.', '@', '/', ',', ':', '#', '"', '€', '中'];

/** Whether two atoms (pattern source) can consume a common character; a group (null) counts as broad. */
function mayOverlap(first: string | null, second: string | null): boolean {
  if (first === null || second === null) return true;
  try {
    const a = new RegExp(`^(?:${first})$`, 'iu');
    const b = new RegExp(`^(?:${second})$`, 'iu');
    return PROBES.some((probe) => a.test(probe) && b.test(probe));
  } catch {
    return true;
  }
}

interface Frame {
  /** A variable repeat or an alternation inside (repeating the group would nest them). */
  risky: boolean;
  alternates: boolean;
  /** Whether the latest atom at this level repeats a variable number of times, and its source. */
  lastVariable: boolean;
  lastSource: string | null;
  /** The enclosing level's latest atom when this group opened (adjacent to the group's first atom). */
  beforeVariable: boolean;
  beforeSource: string | null;
}

export function patternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'is empty';
  if (pattern.length > MAX_PATTERN_LENGTH) return `is too long (maximum is ${MAX_PATTERN_LENGTH} characters)`;
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid regular expression';
  }
  const root: Frame = { risky: false, alternates: false, lastVariable: false, lastSource: null, beforeVariable: false, beforeSource: null };
  const stack: Frame[] = [root];
  const top = () => stack[stack.length - 1];
  // The atom a quantifier would apply to: its source (null for a group), the group's frame, and
  // what came before it at the same level.
  let atom: { source: string | null; group: Frame | null; previousVariable: boolean; previousSource: string | null } | null = null;
  const beginAtom = (source: string | null, group: Frame | null = null, previous = { variable: top().lastVariable, source: top().lastSource }) => {
    atom = { source, group, previousVariable: previous.variable, previousSource: previous.source };
    top().lastVariable = false;
    top().lastSource = source;
  };

  let i = 0;
  while (i < pattern.length) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') return 'uses a backreference';
      let length = 2;
      if ((next === 'p' || next === 'P' || next === 'u') && pattern[i + 2] === '{') length = pattern.indexOf('}', i + 2) - i + 1;
      else if (next === 'u') length = 6;
      else if (next === 'x') length = 4;
      const source = pattern.slice(i, i + length);
      i += length;
      if (/^\\[bB]$/.test(source)) {
        // An assertion consumes nothing; like the guardrail, it separates the atoms around it.
        atom = null;
        top().lastVariable = false;
      } else beginAtom(source);
      continue;
    }
    if (char === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      beginAtom(pattern.slice(i, j + 1));
      i = j + 1;
      continue;
    }
    if (char === '(') {
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) return 'uses lookbehind';
      let opener = 1;
      if (pattern.startsWith('(?:', i) || pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) opener = 3;
      else if (pattern.startsWith('(?<', i)) opener = pattern.indexOf('>', i) - i + 1;
      const parent = top();
      stack.push({ risky: false, alternates: false, lastVariable: parent.lastVariable, lastSource: parent.lastSource, beforeVariable: parent.lastVariable, beforeSource: parent.lastSource });
      atom = null;
      i += opener;
      continue;
    }
    if (char === ')') {
      const frame = stack.pop()!;
      const parent = top();
      if (frame.risky) parent.risky = true;
      beginAtom(null, frame, { variable: frame.beforeVariable, source: frame.beforeSource });
      // What follows the group is adjacent to the group's last atom.
      parent.lastVariable = frame.lastVariable && !frame.alternates;
      parent.lastSource = frame.lastSource;
      i += 1;
      continue;
    }
    if (char === '|') {
      const frame = top();
      frame.risky = true;
      frame.alternates = true;
      frame.lastVariable = false;
      frame.lastSource = null;
      atom = null;
      i += 1;
      continue;
    }
    const quantifier = /^(?:[*+?]|\{(\d+)(,(\d*))?\})/.exec(pattern.slice(i));
    if (quantifier && atom) {
      const token = quantifier[0];
      let min: number;
      let max: number | null;
      if (token === '*') [min, max] = [0, null];
      else if (token === '+') [min, max] = [1, null];
      else if (token === '?') [min, max] = [0, 1];
      else {
        min = Number(quantifier[1]);
        max = quantifier[2] === undefined ? min : quantifier[3] === '' ? null : Number(quantifier[3]);
      }
      if (Math.max(min, max ?? 0) > MAX_COUNTED_REPEAT) return `repeats more than ${MAX_COUNTED_REPEAT} times`;
      const current: { source: string | null; group: Frame | null; previousVariable: boolean; previousSource: string | null } = atom;
      if (current.group && (max === null || max > 1) && current.group.risky) return 'has nested quantifiers';
      const variable = max === null || max !== min;
      if (variable && current.previousVariable && mayOverlap(current.previousSource, current.source)) return 'has two variable-length repeats of overlapping characters side by side';
      if (variable) {
        top().risky = true;
        top().lastVariable = true;
        top().lastSource = current.source;
      }
      i += token.length;
      if (pattern[i] === '?') i += 1;
      atom = null;
      continue;
    }
    // A literal, `.`, or an anchor.
    i += 1;
    if (char === '^' || char === '$') {
      atom = null;
      top().lastVariable = false;
    } else beginAtom(char === '.' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  }
  return null;
}

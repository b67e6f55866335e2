import { DomainError } from '@gateway/errors';

/**
 * Project-supplied regular expressions run inside every check, so they must not be able to
 * backtrack catastrophically. JavaScript offers no match timeout, so patterns are restricted
 * structurally before use:
 *   - at most MAX_PATTERN_LENGTH characters;
 *   - no backreferences and no lookbehind (both defeat the bounds below);
 *   - no quantifier applied to a group that contains a quantifier or an alternation
 *     ("(a+)+", "(a|aa)*": the exponential cases);
 *   - no two variable-length repeats side by side ("\w+\w+x": the polynomial case);
 *   - unbounded repeats are rewritten to at most MAX_REPEAT ("a+" -> "a{1,64}").
 * Under these rules the work per start position is bounded, so a scan is linear in the text.
 */
export const MAX_PATTERN_LENGTH = 256;
export const MAX_REPEAT = 64;
const MAX_COUNTED_REPEAT = 1_000;

export interface SafePattern {
  source: string;
  regex: RegExp;
  /**
   * The longest literal every match must contain (lower-case), or null. With one, the pattern
   * runs only in windows around the literal's occurrences: a pattern like `\w+@rival\.com`
   * costs nothing on text without "@rival.com" instead of a 64-step attempt per character.
   */
  requiredLiteral: string | null;
  /** Upper bound of a match's length (all repeats are bounded after the rewrite). */
  maxWidth: number;
}

interface GroupFrame {
  hasQuantifier: boolean;
  hasAlternation: boolean;
  /** Max width of the current branch and of the widest finished branch. */
  width: number;
  widestBranch: number;
  /** Whether the most recent atom at this level repeats a variable number of times. */
  lastAtomVariable: boolean;
  /** The enclosing level's `lastAtomVariable` when this group opened. */
  before: boolean;
  /** Source of the most recent atom at this level (null for groups). */
  lastAtomSource: string | null;
  beforeSource: string | null;
}

/** Characters used to test whether two repeated atoms can match the same character. */
const PROBES = ['a', 'Z', 'é', '0', '_', ' ', '\t', '\n', '-', '.', '@', '/', ',', ':', '#', '"', '€', '中'];

/** Whether two atoms (as pattern source) can consume a common character; groups count as broad. */
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

function invalid(pattern: string, reason: string): DomainError {
  const shown = pattern.length > 60 ? `${pattern.slice(0, 57)}...` : pattern;
  return new DomainError('VALIDATION_FAILED', `Invalid blocked pattern "${shown}": ${reason}`, { errors: [`blocked pattern ${reason}`] });
}

/** Validates and rewrites one pattern; throws VALIDATION_FAILED with the reason. */
export function compileSafePattern(pattern: string): SafePattern {
  if (typeof pattern !== 'string' || pattern.length === 0) throw invalid(String(pattern), 'must be a non-empty string');
  if (pattern.length > MAX_PATTERN_LENGTH) throw invalid(pattern, `is longer than ${MAX_PATTERN_LENGTH} characters`);

  let out = '';
  const stack: GroupFrame[] = [{ hasQuantifier: false, hasAlternation: false, width: 0, widestBranch: 0, lastAtomVariable: false, before: false, lastAtomSource: null, beforeSource: null }];
  // Literal runs at the top level (outside groups and alternation): candidates for the prefilter.
  const literalRuns: string[] = [];
  let currentRun = '';
  let lastAtomWidth = 0;
  let lastAtomLiteral = false;
  const endRun = (): void => {
    if (currentRun.length > 0) literalRuns.push(currentRun);
    currentRun = '';
  };
  const atom = (width: number, literal: string | null): void => {
    top().width += width;
    lastAtomWidth = width;
    lastAtomLiteral = literal !== null && stack.length === 1;
    if (lastAtomLiteral) currentRun += literal;
    else if (stack.length === 1) endRun();
  };
  // Whether the previous atom was a group, and that group's frame (for quantifier checks).
  let lastGroup: GroupFrame | null = null;
  let topLevelAlternation = false;
  let haveAtom = false;
  let previousAtomVariable = false;
  let previousAtomSource: string | null = null;
  let currentAtomSource: string | null = null;
  let i = 0;

  const top = (): GroupFrame => stack[stack.length - 1]!;

  while (i < pattern.length) {
    const char = pattern[i]!;
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) throw invalid(pattern, 'ends with a lone backslash');
      if (/[1-9]/.test(next) || next === 'k') throw invalid(pattern, 'uses a backreference');
      let escape = `\\${next}`;
      if ((next === 'p' || next === 'P') && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 2);
        if (close === -1) throw invalid(pattern, 'has an unterminated \\p{...}');
        escape = pattern.slice(i, close + 1);
      } else if (next === 'u' && pattern[i + 2] === '{') {
        const close = pattern.indexOf('}', i + 2);
        if (close === -1) throw invalid(pattern, 'has an unterminated \\u{...}');
        escape = pattern.slice(i, close + 1);
      } else if (next === 'u') escape = pattern.slice(i, i + 6);
      else if (next === 'x') escape = pattern.slice(i, i + 4);
      out += escape;
      i += escape.length;
      previousAtomVariable = top().lastAtomVariable;
      previousAtomSource = top().lastAtomSource;
      currentAtomSource = escape;
      top().lastAtomVariable = false;
      lastGroup = null;
      haveAtom = !/^\\[bB]$/.test(escape);
      const escapedLiteral = escape.length === 2 && /[^A-Za-z0-9]/.test(escape[1]!) ? escape[1]!.toLowerCase() : null;
      if (haveAtom) atom(1, escapedLiteral);
      else if (stack.length === 1) endRun();
      continue;
    }
    if (char === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      if (j >= pattern.length) throw invalid(pattern, 'has an unterminated character class');
      out += pattern.slice(i, j + 1);
      currentAtomSource = pattern.slice(i, j + 1);
      i = j + 1;
      previousAtomVariable = top().lastAtomVariable;
      previousAtomSource = top().lastAtomSource;
      top().lastAtomVariable = false;
      lastGroup = null;
      haveAtom = true;
      atom(1, null);
      continue;
    }
    if (char === '(') {
      if (pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) throw invalid(pattern, 'uses a lookbehind');
      let opener = '(';
      if (pattern.startsWith('(?:', i) || pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i)) opener = pattern.slice(i, i + 3);
      else if (pattern.startsWith('(?<', i)) {
        const close = pattern.indexOf('>', i);
        if (close === -1) throw invalid(pattern, 'has an unterminated group name');
        opener = pattern.slice(i, close + 1);
      } else if (pattern[i + 1] === '?') throw invalid(pattern, 'uses an unsupported group modifier');
      out += opener;
      i += opener.length;
      const before = top().lastAtomVariable;
      if (stack.length === 1) endRun();
      // The group's first atom is adjacent to the atom before the group.
      const beforeSource = top().lastAtomSource;
      stack.push({ hasQuantifier: false, hasAlternation: false, width: 0, widestBranch: 0, lastAtomVariable: before, before, lastAtomSource: beforeSource, beforeSource });
      lastGroup = null;
      haveAtom = false;
      continue;
    }
    if (char === ')') {
      if (stack.length === 1) throw invalid(pattern, 'has an unbalanced parenthesis');
      const frame = stack.pop()!;
      out += ')';
      i += 1;
      if (frame.hasQuantifier) top().hasQuantifier = true;
      previousAtomVariable = frame.before;
      previousAtomSource = frame.beforeSource;
      currentAtomSource = null;
      atom(Math.max(frame.widestBranch, frame.width), null);
      // What follows the group is adjacent to the group's last atom.
      top().lastAtomVariable = frame.lastAtomVariable && !frame.hasAlternation;
      top().lastAtomSource = frame.lastAtomSource;
      lastGroup = frame;
      haveAtom = true;
      continue;
    }
    if (char === '|') {
      top().hasAlternation = true;
      top().widestBranch = Math.max(top().widestBranch, top().width);
      top().width = 0;
      top().lastAtomSource = null;
      if (stack.length === 1) {
        // A top-level alternation has no literal common to all matches.
        literalRuns.length = 0;
        currentRun = '';
        topLevelAlternation = true;
      }
      top().lastAtomVariable = false;
      out += '|';
      i += 1;
      lastGroup = null;
      haveAtom = false;
      previousAtomVariable = false;
      continue;
    }
    const quantifier = /^(?:[*+?]|\{(\d{1,4})(,(\d{0,4}))?\})/.exec(pattern.slice(i));
    if (quantifier !== null) {
      if (!haveAtom) throw invalid(pattern, 'has a quantifier with nothing to repeat');
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
      if (max !== null && max > MAX_COUNTED_REPEAT) throw invalid(pattern, `repeats more than ${MAX_COUNTED_REPEAT} times`);
      if (max !== null && max < min) throw invalid(pattern, 'has a repeat range out of order');
      const repeats = max === null || max > 1;
      if (lastGroup !== null && repeats && (lastGroup.hasQuantifier || lastGroup.hasAlternation)) {
        throw invalid(pattern, 'repeats a group that itself repeats or alternates (nested quantifier)');
      }
      const variable = max === null || max !== min;
      if (variable && previousAtomVariable && mayOverlap(previousAtomSource, currentAtomSource)) {
        throw invalid(pattern, 'has two variable-length repeats of overlapping characters side by side');
      }
      const bounded = max === null ? `{${min},${Math.max(min, MAX_REPEAT)}}` : token;
      const effectiveMax = max === null ? Math.max(min, MAX_REPEAT) : max;
      top().width += lastAtomWidth * (effectiveMax - 1);
      if (stack.length === 1) {
        // A repeated literal character is not required as written: drop it from the run.
        if (lastAtomLiteral && currentRun.length > 0) {
          currentRun = currentRun.slice(0, -1);
        }
        endRun();
      }
      out += bounded;
      i += token.length;
      if (pattern[i] === '?') {
        out += '?';
        i += 1;
      }
      if (variable) top().hasQuantifier = true;
      top().lastAtomVariable = variable;
      top().lastAtomSource = currentAtomSource;
      lastGroup = null;
      haveAtom = false;
      continue;
    }
    // Literal or metacharacter atom (., ^, $).
    out += char;
    i += 1;
    previousAtomVariable = top().lastAtomVariable;
    previousAtomSource = top().lastAtomSource;
    currentAtomSource = char === '.' ? '.' : char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    top().lastAtomVariable = false;
    lastGroup = null;
    haveAtom = char !== '^' && char !== '$';
    if (haveAtom) atom(1, char === '.' ? null : char.toLowerCase());
    else if (stack.length === 1) endRun();
  }
  endRun();
  if (stack.length !== 1) throw invalid(pattern, 'has an unbalanced parenthesis');

  const root = stack[0]!;
  const maxWidth = Math.max(root.widestBranch, root.width);
  const longest = topLevelAlternation ? '' : literalRuns.reduce((a, b) => (b.length > a.length ? b : a), '');
  const requiredLiteral = longest.length >= 3 ? longest : null;
  for (const flags of ['giu', 'gi']) {
    try {
      return { source: pattern, regex: new RegExp(out, flags), requiredLiteral, maxWidth };
    } catch {
      // try the next flag set
    }
  }
  throw invalid(pattern, 'is not a valid regular expression');
}

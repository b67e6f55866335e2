import { foldPhrase } from '../text/matching-fold.normalizer';

/**
 * Separates quoting an attack from making one. Security discussions, classifier docs and
 * training material quote injection phrases ("phrases like 'ignore previous instructions'");
 * such a match keeps a small share of its confidence (borderline risk, not a detection).
 *
 * Used only for injection phrases: an attacker who wraps a payload in quotes and a meta word
 * still lands in the borderline band, where the spec routes it to review.
 */
export const MENTION_FACTOR = 0.3;

/** Words that only a discussion about attacks uses near a quoted attack phrase. */
const META_WORDS = [
  'injection', 'injections', 'prompt injection', 'jailbreak', 'jailbreaks', 'jailbreaking', 'attack', 'attacks', 'attacker',
  'attackers', 'adversarial', 'classifier', 'classifiers', 'detect', 'detects', 'detecting', 'detection', 'detector',
  'filter', 'filters', 'filtering', 'red team', 'red teaming', 'red-team', 'security', 'researcher', 'researchers', 'research',
  'paper', 'owasp', 'dataset', 'benchmark', 'mitigate', 'mitigation', 'defend', 'defense', 'defence', 'vulnerability',
  'vulnerable', 'malicious', 'payload', 'payloads', 'example', 'examples', 'phishing', 'exploit', 'exploits', 'threat',
  'slide', 'slides', 'workshop', 'test case', 'test cases', 'moderation', 'sanitize', 'sanitization', 'blocked', 'flagged',
  'beispiel', 'angriff', 'angriffe', 'sicherheit', 'erkennung', 'exemple', 'attaque', 'attaques', 'sécurité', 'détection',
  'ejemplo', 'ataque', 'ataques', 'seguridad', 'detección', 'esempio', 'attacco', 'attacchi', 'sicurezza', 'rilevamento',
  'exemplo', 'segurança', 'detecção',
];
const REPORTING_CUES = [
  'like', 'such as', 'e g', 'eg', 'for example', 'for instance', 'phrase', 'phrases', 'prompts like', 'inputs like',
  'messages like', 'saying', 'says', 'said', 'wrote', 'writes', 'typed', 'types', 'called', 'known as', 'the words',
  'the string', 'the sentence', 'the text', 'example', 'examples', 'to', 'try to', 'tries to', 'trying to', 'attempt to',
  'attempts to', 'asks it to', 'tell it to', 'tells it to', 'telling it to', 'tell the model to', 'tells the model to',
  'wie', 'zum beispiel', 'comme', 'par exemple', 'como', 'por ejemplo', 'come', 'ad esempio', 'por exemplo',
];

function wordPattern(list: readonly string[]): RegExp {
  const folded = [...new Set(list.map((word) => foldPhrase(word)))].sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${folded.join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}

const META = wordPattern(META_WORDS);
const REPORTING_AT_END = new RegExp(`${wordPattern(REPORTING_CUES).source} ?$`, 'u');
const STRAIGHT_QUOTES = new Set(['"', '`']);
const OPENING_QUOTES = new Set(['“', '‘', '«', '„', '‚', '「', '『']);
const CLOSING_QUOTES = new Set(['”', '’', '»', '“', '」', '』']);
const WINDOW = 160;

function lineBounds(text: string, start: number, end: number): { lineStart: number; lineEnd: number } {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  return { lineStart, lineEnd: newline === -1 ? text.length : newline };
}

/** True when the span sits between quotes, in inline code, a fenced block, or a "> " quote line. */
export function isQuoted(original: string, start: number, end: number): boolean {
  const { lineStart, lineEnd } = lineBounds(original, start, end);
  if (/^\s*>/.test(original.slice(lineStart, start))) return true;
  const before = original.slice(Math.max(lineStart, start - 200), start);
  const after = original.slice(end, Math.min(lineEnd, end + 200));
  for (const quote of STRAIGHT_QUOTES) {
    const countBefore = before.split(quote).length - 1;
    if (countBefore % 2 === 1 && after.includes(quote)) return true;
  }
  const single = /(?:^|[\s(:])'[^']*$/.test(before) && /^[^']*'(?:$|[\s).,;:!?])/.test(after);
  if (single) return true;
  let lastOpen = -1;
  let lastClose = -1;
  for (let i = before.length - 1; i >= 0; i--) {
    if (lastOpen < 0 && OPENING_QUOTES.has(before[i]!)) lastOpen = i;
    if (lastClose < 0 && CLOSING_QUOTES.has(before[i]!) && !OPENING_QUOTES.has(before[i]!)) lastClose = i;
  }
  if (lastOpen > lastClose && [...after].some((char) => CLOSING_QUOTES.has(char))) return true;
  return false;
}

/** Offsets of every "```" fence, computed once per check (see `insideFence`). */
export function fencePositions(original: string): number[] {
  const positions: number[] = [];
  let at = original.indexOf('```');
  while (at !== -1 && positions.length < 10_000) {
    positions.push(at);
    at = original.indexOf('```', at + 3);
  }
  return positions;
}

function insideFence(fences: readonly number[], offset: number): boolean {
  let low = 0;
  let high = fences.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (fences[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low % 2 === 1;
}

function countMeta(text: string): number {
  const found = new Set<string>();
  for (const match of text.matchAll(META)) found.add(match[0]);
  return found.size;
}

/** Imperative position: the match opens a sentence or clause, as a command does. */
function opensClause(original: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && (original[i] === ' ' || original[i] === '\t')) i--;
  if (i < 0) return true;
  return /[.!?:;,\n*>\-–—(\[]/.test(original[i]!);
}

/**
 * Confidence factor for a phrase match: 1 when the text uses the phrase, MENTION_FACTOR when
 * it talks about it. `foldStart`/`foldEnd` locate the match in the skeleton text.
 */
export interface MentionScope {
  original: string;
  folded: string;
  fences: readonly number[];
}

export function mentionFactor(scope: MentionScope, start: number, end: number, foldStart: number, foldEnd: number): number {
  const { original, folded } = scope;
  const before = folded.slice(Math.max(0, foldStart - WINDOW), foldStart);
  const after = folded.slice(foldEnd, foldEnd + WINDOW);
  const meta = countMeta(`${before} | ${after}`);
  const reporting = REPORTING_AT_END.test(before.slice(-40));
  const quoted = isQuoted(original, start, end) || insideFence(scope.fences, start);
  if (quoted && (meta >= 1 || reporting)) return MENTION_FACTOR;
  if (!quoted && reporting && meta >= 1 && !opensClause(original, start)) return MENTION_FACTOR;
  if (!quoted && meta >= 2 && !opensClause(original, start)) return MENTION_FACTOR;
  return 1;
}

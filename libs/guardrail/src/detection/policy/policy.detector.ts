import { DomainError } from '@gateway/errors';
import type { GuardrailPolicy } from '../detection.types';
import { foldPhrase } from '../text/matching-fold.normalizer';
import { toOriginalSpan, type TextView } from '../text/text-view.model';
import { compileSafePattern, type SafePattern } from '@gateway/safe-regex';
import { canonicalTopic, TOPIC_LEXICON } from './topic-lexicon.data';

/**
 * Project policy rules (`policy_rules` in project settings): blocked terms, blocked regular
 * expressions and blocked topics. Terms and topics match on the folded skeleton, so spacing,
 * leetspeak or look-alike letters do not evade them; patterns match the cleaned text, as
 * their authors wrote them.
 */
export const DEFAULT_RISK_THRESHOLD = 0.7;
export const POLICY_LIMITS = { maxTerms: 200, maxTermLength: 200, maxPatterns: 50, maxTopics: 30 } as const;

export interface PolicyMatch {
  ruleId: string;
  start: number;
  end: number;
  confidence: number;
}

interface CompiledTopic {
  id: string;
  pattern: RegExp;
  /** Built-in lexicons need several distinct terms to be confident; a custom topic is one phrase. */
  lexicon: boolean;
}

export interface CompiledPolicy {
  riskThreshold: number;
  terms: ReadonlyArray<{ index: number; folded: string }>;
  patterns: ReadonlyArray<{ index: number; pattern: SafePattern }>;
  topics: readonly CompiledTopic[];
}

const TERM_CONFIDENCE = 0.95;
const PATTERN_CONFIDENCE = 0.95;
const MAX_MATCHES_PER_RULE = 8;

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function phrasePattern(phrases: readonly string[]): RegExp {
  const folded = [...new Set(phrases.map((phrase) => foldPhrase(phrase)).filter((phrase) => phrase.length > 0))].sort((a, b) => b.length - a.length);
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${folded.map(escape).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
}

function validationError(message: string): DomainError {
  return new DomainError('VALIDATION_FAILED', message, { errors: [message] });
}

function stringList(value: unknown, field: string, max: number): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw validationError(`${field} must be an array of strings`);
  if (value.length > max) throw validationError(`${field} accepts at most ${max} entries`);
  return value as string[];
}

const cache = new Map<string, CompiledPolicy>();
const CACHE_SIZE = 256;

/** Validates a policy (throws VALIDATION_FAILED) and compiles it; compiled policies are cached. */
export function compilePolicy(policy: Partial<GuardrailPolicy> = {}): CompiledPolicy {
  const key = JSON.stringify([policy.riskThreshold, policy.blockedTerms, policy.blockedPatterns, policy.blockedTopics]);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;

  const riskThreshold = policy.riskThreshold ?? DEFAULT_RISK_THRESHOLD;
  if (typeof riskThreshold !== 'number' || !Number.isFinite(riskThreshold) || riskThreshold < 0 || riskThreshold > 1) {
    throw validationError('riskThreshold must be a number between 0 and 1');
  }
  const terms = stringList(policy.blockedTerms, 'blockedTerms', POLICY_LIMITS.maxTerms).flatMap((term, index) => {
    if (term.length > POLICY_LIMITS.maxTermLength) throw validationError(`blockedTerms entries must be at most ${POLICY_LIMITS.maxTermLength} characters`);
    const folded = foldPhrase(term);
    return folded.length === 0 ? [] : [{ index, folded }];
  });
  const patterns = stringList(policy.blockedPatterns, 'blockedPatterns', POLICY_LIMITS.maxPatterns).map((source, index) => ({
    index,
    pattern: compileSafePattern(source),
  }));
  const topics = stringList(policy.blockedTopics, 'blockedTopics', POLICY_LIMITS.maxTopics).flatMap((name): CompiledTopic[] => {
    const canonical = canonicalTopic(name);
    if (canonical !== null) return [{ id: canonical, pattern: phrasePattern(TOPIC_LEXICON[canonical]!), lexicon: true }];
    const slug = foldPhrase(name).replace(/ /g, '_');
    if (slug.length === 0) return [];
    if (name.length > POLICY_LIMITS.maxTermLength) throw validationError(`blockedTopics entries must be at most ${POLICY_LIMITS.maxTermLength} characters`);
    return [{ id: slug, pattern: phrasePattern([name]), lexicon: false }];
  });

  const compiled: CompiledPolicy = { riskThreshold, terms, patterns, topics };
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/** Context kept around each window so assertions at a match's edges see real neighbours. */
const WINDOW_MARGIN = 8;

/**
 * The text ranges a pattern has to scan: everywhere when it has no required literal, else
 * merged windows around each occurrence of the literal, wide enough for any match.
 */
function patternWindows(text: string, pattern: SafePattern, lowered: () => string): Array<[number, number]> {
  if (pattern.requiredLiteral === null) return [[0, text.length]];
  const lower = lowered();
  if (lower.length !== text.length) return [[0, text.length]];
  const reach = pattern.maxWidth + WINDOW_MARGIN;
  const windows: Array<[number, number]> = [];
  let at = lower.indexOf(pattern.requiredLiteral);
  while (at !== -1) {
    const from = Math.max(0, at - reach);
    const to = Math.min(text.length, at + pattern.requiredLiteral.length + reach);
    const last = windows[windows.length - 1];
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else windows.push([from, to]);
    at = lower.indexOf(pattern.requiredLiteral, at + 1);
  }
  return windows;
}

function isBoundary(text: string, index: number): boolean {
  const char = text[index];
  return char === undefined || !/[\p{L}\p{N}]/u.test(char);
}

export function detectPolicyViolations(policy: CompiledPolicy, clean: TextView, folded: TextView): PolicyMatch[] {
  const found: PolicyMatch[] = [];
  const skeleton = folded.text;

  for (const { index, folded: term } of policy.terms) {
    let count = 0;
    let at = skeleton.indexOf(term);
    while (at !== -1 && count < MAX_MATCHES_PER_RULE) {
      if (isBoundary(skeleton, at - 1) && isBoundary(skeleton, at + term.length)) {
        found.push({ ruleId: `policy.blocked_term.${index}`, ...toOriginalSpan(folded, at, at + term.length), confidence: TERM_CONFIDENCE });
        count++;
      }
      at = skeleton.indexOf(term, at + 1);
    }
  }

  let lower: string | null = null;
  for (const { index, pattern } of policy.patterns) {
    let count = 0;
    for (const [from, to] of patternWindows(clean.text, pattern, () => (lower ??= clean.text.toLowerCase()))) {
      const slice = from === 0 && to === clean.text.length ? clean.text : clean.text.slice(from, to);
      for (const match of slice.matchAll(pattern.regex)) {
        if (match[0].length === 0) continue;
        const start = from + match.index;
        const end = start + match[0].length;
        // A match touching a window edge may owe its existence to the cut (\b, ^, $): skip it;
        // windows carry a margin, so real matches never touch a cut edge.
        if ((start === from && from > 0) || (end === to && to < clean.text.length)) continue;
        found.push({ ruleId: `policy.blocked_pattern.${index}`, ...toOriginalSpan(clean, start, end), confidence: PATTERN_CONFIDENCE });
        if (++count >= MAX_MATCHES_PER_RULE) break;
      }
      if (count >= MAX_MATCHES_PER_RULE) break;
    }
  }

  for (const topic of policy.topics) {
    const distinct = new Set<string>();
    let first: { start: number; end: number } | null = null;
    for (const match of skeleton.matchAll(topic.pattern)) {
      distinct.add(match[0]);
      first ??= toOriginalSpan(folded, match.index, match.index + match[0].length);
      if (distinct.size >= 3) break;
    }
    if (first === null) continue;
    // One lexicon word may be incidental ("bet" in "I bet"); each further distinct word adds certainty.
    const confidence = topic.lexicon ? [0, 0.45, 0.75, 0.9][distinct.size]! : 0.8;
    found.push({ ruleId: `policy.blocked_topic.${topic.id}`, ...first, confidence });
  }
  return found;
}

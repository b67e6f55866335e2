import { compileSafePattern, type SafePattern } from '@gateway/safe-regex';
import type { ProjectPolicy } from './project-policy';
import { foldPhrase, foldVariants } from './text-fold.normalizer';

/**
 * The project's policy rules applied inside the consumer's network. Confidences and the score
 * follow the hosted guardrail's policy category (weight 1): a blocked term or pattern 0.95, a
 * topic phrase 0.8; risk = 1 − Π(1 − confidence) over the rules hit; blocked when risk reaches
 * the project's risk_threshold (default 0.7).
 */
export const TERM_CONFIDENCE = 0.95;
export const PATTERN_CONFIDENCE = 0.95;
export const TOPIC_CONFIDENCE = 0.8;

export interface CompiledPolicy {
  source: ProjectPolicy;
  terms: readonly Phrase[];
  topics: readonly Phrase[];
  patterns: ReadonlyArray<{ ruleId: string; pattern: SafePattern }>;
}

interface Phrase {
  ruleId: string;
  /** Folded words, padded: `' project falcon '`. */
  folded: string;
  /** The words run together (`' projectfalcon '`), which is what spaced-out letters fold into. */
  compact: string;
}

export interface PolicyVerdict {
  blocked: boolean;
  riskScore: number;
  /** Rule ids only (`policy.blocked_term.0`): they name no content, so they may leave the network. */
  ruleIds: string[];
}

/**
 * Compiles a policy. Patterns go through the same linear-time screening the hosted guardrail
 * uses (@gateway/safe-regex); one that fails it throws VALIDATION_FAILED.
 */
export function compilePolicy(policy: ProjectPolicy): CompiledPolicy {
  const phrases = (list: string[], kind: string) =>
    list.flatMap((phrase, index) => {
      const folded = foldPhrase(phrase);
      return folded ? [{ ruleId: `policy.${kind}.${index}`, folded, compact: ` ${folded.trim().replace(/ /g, '')} ` }] : [];
    });
  return {
    source: policy,
    terms: phrases(policy.blockedTerms, 'blocked_term'),
    topics: phrases(policy.blockedTopics, 'blocked_topic'),
    patterns: policy.blockedPatterns.map((source, index) => ({ ruleId: `policy.blocked_pattern.${index}`, pattern: compileSafePattern(source) })),
  };
}

/** Evaluates every text a request would send out; each text is matched on its own. */
export function evaluatePolicy(policy: CompiledPolicy, texts: readonly string[]): PolicyVerdict {
  const hits = new Map<string, number>();
  const hit = (ruleId: string, confidence: number) => hits.set(ruleId, Math.max(confidence, hits.get(ruleId) ?? 0));
  const phrasesPending = () => policy.terms.some((term) => !hits.has(term.ruleId)) || policy.topics.some((topic) => !hits.has(topic.ruleId));
  for (const text of texts) {
    if (text.length === 0) continue;
    if (phrasesPending()) {
      const variants = foldVariants(text);
      const found = (phrase: Phrase) => variants.some((variant) => variant.includes(phrase.folded) || variant.includes(phrase.compact));
      for (const term of policy.terms) if (!hits.has(term.ruleId) && found(term)) hit(term.ruleId, TERM_CONFIDENCE);
      for (const topic of policy.topics) if (!hits.has(topic.ruleId) && found(topic)) hit(topic.ruleId, TOPIC_CONFIDENCE);
    }
    const cleaned = text.normalize('NFKC').replace(/\p{Cf}+/gu, '');
    let lower: string | undefined;
    for (const { ruleId, pattern } of policy.patterns) {
      if (hits.has(ruleId)) continue;
      // Every match contains the required literal: without it the scan can be skipped.
      if (pattern.requiredLiteral !== null && !(lower ??= cleaned.toLowerCase()).includes(pattern.requiredLiteral)) continue;
      for (const match of cleaned.matchAll(pattern.regex)) {
        if (match[0].length > 0) {
          hit(ruleId, PATTERN_CONFIDENCE);
          break;
        }
      }
    }
  }
  let clean = 1;
  for (const confidence of hits.values()) clean *= 1 - confidence;
  const riskScore = Math.round((1 - clean) * 10_000) / 10_000;
  return { blocked: hits.size > 0 && riskScore >= policy.source.riskThreshold, riskScore, ruleIds: [...hits.keys()].sort() };
}

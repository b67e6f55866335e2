import { COMPLEX_SCORE_THRESHOLD, scoreContributions } from './complexity-score.policy';
import type { RoutingFeatures, Tier } from './routing.types';

/**
 * Tier rules, first match wins:
 * 1. `secure` when the guardrail flagged the input as sensitive (PII or a secret) or a
 *    `vpc_only` MCP tool is offered: both mean the request may only reach a private model,
 *    whatever its complexity.
 * 2. `complex` when the weighted score reaches COMPLEX_SCORE_THRESHOLD (complexity-score.policy.ts).
 * 3. `simple` otherwise.
 * The explanation lists every contribution so a caller can see why, not just what.
 */
export function classify(features: RoutingFeatures): { tier: Tier; explanation: string[] } {
  const explanation = scoreContributions(features).map((c) => `${c.reason}: +${c.points}`);
  const score = features.score;

  if (features.sensitive || features.vpcOnlyTools) {
    if (features.sensitive) explanation.push('sensitive content flagged by the guardrail (PII or secret)');
    if (features.vpcOnlyTools) explanation.push('vpc_only MCP tool offered: private models only');
    explanation.push(`tier secure (overrides complexity score ${score})`);
    return { tier: 'secure', explanation };
  }
  if (score >= COMPLEX_SCORE_THRESHOLD) {
    explanation.push(`complexity score ${score} >= ${COMPLEX_SCORE_THRESHOLD}: tier complex`);
    return { tier: 'complex', explanation };
  }
  explanation.push(`complexity score ${score} < ${COMPLEX_SCORE_THRESHOLD}: tier simple`);
  return { tier: 'simple', explanation };
}

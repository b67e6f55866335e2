import type { RoutingFeatures } from './routing.types';

/**
 * The explainable complexity score. Each feature adds fixed points; a request is `complex` when
 * the total reaches COMPLEX_SCORE_THRESHOLD. Weights are chosen so that any one strong signal
 * (long input, code, a document) is enough alone, while cues need company: one reasoning cue
 * ("explain why the sky is blue") stays simple, two cues or a cue plus a medium-length input
 * become complex.
 *
 * | feature                                   | points            |
 * |-------------------------------------------|-------------------|
 * | estimated prompt >= 1,500 tokens (long)   | 3                 |
 * | estimated prompt >= 400 tokens (medium)   | 1.5               |
 * | each distinct reasoning cue               | 1.5 (at most 3)   |
 * | each distinct multi-step cue              | 1.5 (at most 3)   |
 * | code in the input                         | 3                 |
 * | one or more document attachments          | 3                 |
 */
export const COMPLEX_SCORE_THRESHOLD = 3;
export const LONG_INPUT_TOKENS = 1_500;
export const MEDIUM_INPUT_TOKENS = 400;
export const LONG_INPUT_POINTS = 3;
export const MEDIUM_INPUT_POINTS = 1.5;
export const CUE_POINTS = 1.5;
export const MAX_CUE_POINTS_PER_KIND = 3;
export const CODE_POINTS = 3;
export const DOCUMENT_POINTS = 3;

export interface ScoreContribution {
  points: number;
  reason: string;
}

type ScoredFeatures = Omit<RoutingFeatures, 'score' | 'sensitive' | 'vpcOnlyTools'>;

/** The non-zero contributions to the score, each with the sentence that explains it. */
export function scoreContributions(features: ScoredFeatures): ScoreContribution[] {
  const contributions: ScoreContribution[] = [];
  const tokens = features.estimatedPromptTokens;
  if (tokens >= LONG_INPUT_TOKENS) {
    contributions.push({ points: LONG_INPUT_POINTS, reason: `long input: ~${tokens} prompt tokens >= ${LONG_INPUT_TOKENS}` });
  } else if (tokens >= MEDIUM_INPUT_TOKENS) {
    contributions.push({ points: MEDIUM_INPUT_POINTS, reason: `medium input: ~${tokens} prompt tokens >= ${MEDIUM_INPUT_TOKENS}` });
  }
  if (features.reasoningCues.length > 0) {
    const points = Math.min(MAX_CUE_POINTS_PER_KIND, CUE_POINTS * features.reasoningCues.length);
    contributions.push({ points, reason: `reasoning cues: ${features.reasoningCues.join(', ')}` });
  }
  if (features.multiStepCues.length > 0) {
    const points = Math.min(MAX_CUE_POINTS_PER_KIND, CUE_POINTS * features.multiStepCues.length);
    contributions.push({ points, reason: `multi-step cues: ${features.multiStepCues.join(', ')}` });
  }
  if (features.hasCode) {
    contributions.push({ points: CODE_POINTS, reason: 'code in the input' });
  }
  if (features.documentAttachments > 0) {
    contributions.push({ points: DOCUMENT_POINTS, reason: `${features.documentAttachments} document attachment(s)` });
  }
  return contributions;
}

export function complexityScore(features: ScoredFeatures): number {
  return scoreContributions(features).reduce((sum, contribution) => sum + contribution.points, 0);
}

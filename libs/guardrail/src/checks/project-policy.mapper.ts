import { z } from 'zod';
import { DomainError } from '@gateway/errors';
import type { GuardrailPolicy } from '../detection';

/**
 * The guardrail-relevant part of a project's settings, as control-plane stores them:
 * `risk_threshold` and `policy_rules: {blocked_terms, blocked_patterns, blocked_topics}`.
 * Other settings keys (routing tiers, budget, ...) are not the guardrail's concern.
 */
const projectPolicySettingsSchema = z.object({
  risk_threshold: z.number().min(0).max(1).nullish(),
  policy_rules: z
    .object({
      blocked_terms: z.array(z.string()).nullish(),
      blocked_patterns: z.array(z.string()).nullish(),
      blocked_topics: z.array(z.string()).nullish(),
    })
    .nullish(),
});

/**
 * Maps stored project settings to a guardrail policy. Settings come over the network from
 * control-plane, so they are validated here too: a malformed policy fails the check
 * (VALIDATION_FAILED naming the setting) rather than running with rules silently dropped.
 */
export function policyFromProjectSettings(projectId: number, settings: Record<string, unknown> | undefined): Partial<GuardrailPolicy> {
  const parsed = projectPolicySettingsSchema.safeParse(settings ?? {});
  if (!parsed.success) {
    const errors = parsed.error.issues.map((issue) => `settings.${issue.path.join('.')}: ${issue.message}`);
    throw new DomainError('VALIDATION_FAILED', `Project ${projectId} has invalid guardrail settings: ${errors.join(', ')}`, { errors });
  }
  const { risk_threshold: riskThreshold, policy_rules: rules } = parsed.data;
  const policy: Partial<GuardrailPolicy> = {
    blockedTerms: rules?.blocked_terms ?? [],
    blockedPatterns: rules?.blocked_patterns ?? [],
    blockedTopics: rules?.blocked_topics ?? [],
  };
  if (riskThreshold !== null && riskThreshold !== undefined) policy.riskThreshold = riskThreshold;
  return policy;
}

import type { controlplane, guardrail } from '@gateway/proto';

/** The project settings keys the execution path reads (validated by control-plane on write). */
export interface ProjectSettings {
  routing_tiers?: Partial<Record<'simple' | 'complex' | 'secure', string>>;
  risk_threshold?: number;
  monthly_budget_usd?: number | null;
  shadow_model?: string | null;
  policy_rules?: { blocked_terms?: string[]; blocked_patterns?: string[]; blocked_topics?: string[] };
}

export function settingsOf(policy: controlplane.ProjectPolicy): ProjectSettings {
  return (policy.project?.settings ?? {}) as ProjectSettings;
}

export function findModel(policy: controlplane.ProjectPolicy, identifier: string): controlplane.ModelDefinition | undefined {
  return policy.models.find((model) => model.identifier === identifier);
}

/** The guardrail policy of a project: its custom rules and risk threshold (default 0.7 in the guardrail). */
export function guardrailPolicyOf(settings: ProjectSettings): guardrail.Policy {
  const rules = settings.policy_rules ?? {};
  return {
    riskThreshold: typeof settings.risk_threshold === 'number' ? settings.risk_threshold : undefined,
    blockedTerms: rules.blocked_terms ?? [],
    blockedPatterns: rules.blocked_patterns ?? [],
    blockedTopics: rules.blocked_topics ?? [],
  };
}

export function infrastructureOf(model: controlplane.ModelDefinition | undefined): string {
  const value = (model?.additionalConfig as Record<string, unknown> | undefined)?.infrastructure;
  return typeof value === 'string' ? value : '';
}

/**
 * Spend reserved before a model call (USD): the prompt at ~4 characters per token plus a
 * completion of up to `completionTokens`, priced at the most expensive model the call may reach
 * (primary or a fallback). Settled to the provider-reported cost afterwards, so the estimate only
 * needs to be an upper bound for typical calls; it is what keeps N parallel calls from all
 * passing a cap only one fits.
 */
export function reservationEstimateUsd(promptChars: number, completionTokens: number, models: (controlplane.ModelDefinition | undefined)[]): number {
  const promptTokens = Math.ceil(promptChars / 4);
  let worst = 0;
  for (const model of models) {
    if (!model) continue;
    worst = Math.max(worst, (promptTokens * model.inputCostPer1k + completionTokens * model.outputCostPer1k) / 1000);
  }
  return worst;
}

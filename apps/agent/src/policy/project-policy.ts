import { z } from 'zod';

/**
 * GET /api/v1/sdk/policy (API key) on the hosted gateway: the policy the agent applies locally.
 * Validated on arrival like any network input; limits follow control-plane's settings rules.
 */
export const DEFAULT_RISK_THRESHOLD = 0.7;

const tier = z.string().min(1).max(256).nullish();

export const projectPolicySchema = z.object({
  project_id: z.number().int().positive(),
  risk_threshold: z.number().min(0).max(1).nullish(),
  routing_tiers: z.object({ simple: tier, complex: tier, secure: tier }).nullish(),
  policy_rules: z
    .object({
      blocked_terms: z.array(z.string().max(200)).max(200).nullish(),
      blocked_patterns: z.array(z.string().max(1_000)).max(50).nullish(),
      blocked_topics: z.array(z.string().max(200)).max(30).nullish(),
    })
    .nullish(),
});

export type ProjectPolicyResponse = z.infer<typeof projectPolicySchema>;

export interface ProjectPolicy {
  projectId: number;
  riskThreshold: number;
  routingTiers: { simple?: string; complex?: string; secure?: string };
  blockedTerms: string[];
  blockedPatterns: string[];
  blockedTopics: string[];
}

export function toProjectPolicy(response: ProjectPolicyResponse): ProjectPolicy {
  const tiers = response.routing_tiers ?? {};
  return {
    projectId: response.project_id,
    riskThreshold: response.risk_threshold ?? DEFAULT_RISK_THRESHOLD,
    routingTiers: {
      ...(tiers.simple ? { simple: tiers.simple } : {}),
      ...(tiers.complex ? { complex: tiers.complex } : {}),
      ...(tiers.secure ? { secure: tiers.secure } : {}),
    },
    blockedTerms: response.policy_rules?.blocked_terms ?? [],
    blockedPatterns: response.policy_rules?.blocked_patterns ?? [],
    blockedTopics: response.policy_rules?.blocked_topics ?? [],
  };
}

import { evaluatePolicy, type CompiledPolicy } from '../policy/local-policy.evaluator';
import { collectTexts, wantsPrivateRoute, type ScreenedEndpoint } from './screened-endpoints';

/** The gateway's own reasons, so a caller cannot tell where a request was stopped. */
export const RISK_REASON = 'Request blocked by risk check';
export const NO_PRIVATE_MODEL_REASON = 'No private model configured for sensitive routing';

export type ScreenDecision =
  | { action: 'forward' }
  | {
      action: 'block';
      /** The execution-result reason (spec wording). */
      reason: string;
      /** The safety-check reason code. */
      checkReason: 'policy_violation' | 'routing_policy';
      riskScore: number;
      ruleIds: string[];
    };

/**
 * Decides whether a request may leave the network: the project's policy rules over every text it
 * carries, then the routing intent (vpc_only tools need the secure tier's private model; with no
 * secure tier the hosted gateway would block too, so the content need not travel to learn that).
 */
export function screenRequest(endpoint: ScreenedEndpoint, payload: unknown, policy: CompiledPolicy): ScreenDecision {
  const verdict = evaluatePolicy(policy, collectTexts(payload));
  if (verdict.blocked) return { action: 'block', reason: RISK_REASON, checkReason: 'policy_violation', riskScore: verdict.riskScore, ruleIds: verdict.ruleIds };
  if (endpoint === 'executions' && wantsPrivateRoute(payload) && !policy.source.routingTiers.secure) {
    return { action: 'block', reason: NO_PRIVATE_MODEL_REASON, checkReason: 'routing_policy', riskScore: verdict.riskScore, ruleIds: ['routing.vpc_only_without_secure_tier'] };
  }
  return { action: 'forward' };
}

import type { guardrail } from '@gateway/proto';
import type { CheckResult, GuardrailPolicy } from '../detection';

/** Request policy (proto) to the engine's policy; an absent risk_threshold keeps the default. */
export function fromProtoPolicy(policy: guardrail.Policy | undefined): Partial<GuardrailPolicy> | undefined {
  if (policy === undefined) return undefined;
  return {
    ...(policy.riskThreshold === undefined ? {} : { riskThreshold: policy.riskThreshold }),
    blockedTerms: policy.blockedTerms,
    blockedPatterns: policy.blockedPatterns,
    blockedTopics: policy.blockedTopics,
  };
}

export function toCheckResponse(result: CheckResult): guardrail.CheckResponse {
  return {
    allowed: result.allowed,
    reason: result.reason ?? '',
    riskScore: result.riskScore,
    piiDetected: result.piiDetected,
    injectionAttempt: result.injectionAttempt,
    secretLeaked: result.secretLeaked,
    policyViolation: result.policyViolation,
    piiEntities: result.piiEntities.map((entity) => ({ type: entity.type, start: entity.start, end: entity.end, confidence: entity.confidence })),
    // Offsets only: a finding never carries the matched text (a secret must not travel on).
    findings: result.findings.map((finding) => ({
      category: finding.category,
      ruleId: finding.ruleId,
      start: finding.start,
      end: finding.end,
      confidence: finding.confidence,
      family: finding.family ?? '',
    })),
    obfuscated: result.obfuscated,
  };
}

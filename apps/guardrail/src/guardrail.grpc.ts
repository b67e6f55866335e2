import type { ServiceHandlers } from '@gateway/grpc';
import type { guardrail } from '@gateway/proto';
import type { RunCheckUseCase } from './checks/run-check.usecase';
import type { CheckResult, GuardrailPolicy } from './detection';

/** Request policy (proto) to the engine's policy; an absent risk_threshold keeps the default. */
function fromProtoPolicy(policy: guardrail.Policy | undefined): Partial<GuardrailPolicy> | undefined {
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

export interface CheckObserver {
  (direction: string, result: CheckResult): void;
}

/** GuardrailService: maps the message, runs one check, maps the result. */
export function guardrailHandlers(checks: RunCheckUseCase, observe: CheckObserver = () => undefined): ServiceHandlers<typeof guardrail.GuardrailServiceService> {
  return {
    check: async (req, ctx) => {
      const result = await checks.execute({
        text: req.text,
        direction: req.direction,
        policy: fromProtoPolicy(req.policy),
        projectId: req.projectId,
        caller: ctx.principal.kind === 'api_key' ? { kind: 'api_key', projectId: ctx.principal.projectId } : { kind: 'service' },
      });
      observe(req.direction || 'input', result);
      return toCheckResponse(result);
    },
  };
}

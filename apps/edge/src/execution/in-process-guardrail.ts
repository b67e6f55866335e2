import { policyFromProjectSettings, RunCheckUseCase, toCheckResponse, type CheckObserver, type GuardrailPolicy } from '@gateway/guardrail';
import type { controlplane, guardrail } from '@gateway/proto';
import { context, getTracer, SpanKind, SpanStatusCode } from '@gateway/telemetry';

const tracer = getTracer('edge');

/**
 * The guardrail scans of the execution path, run in edge's own process (as is routing: the
 * pipeline calls @gateway/routing directly). Both are pure CPU work on data edge already holds
 * (the request and the project's cached policy), and each costs less than a gRPC hop to the
 * guardrail or router service would (a 4 KB scan ~1.2 ms, a short prompt ~0.1 ms; a hop ~0.8 ms
 * of latency plus serialisation on both sides). The guardrail and router services still serve
 * the same engines over gRPC for internal teams. Adds the decision metric and an INTERNAL span.
 */
export class InProcessGuardrail {
  // The project's policy is always passed along, so the use case never looks one up.
  private readonly checks = new RunCheckUseCase(async () => undefined);
  /** A cached ProjectPolicy object is replaced, never mutated, when its project changes. */
  private readonly guardrailPolicies = new WeakMap<controlplane.ProjectPolicy, Partial<GuardrailPolicy>>();

  constructor(private readonly observe: CheckObserver = () => undefined) {}

  /** One safety check with the project's rules and risk threshold. */
  async check(policy: controlplane.ProjectPolicy, text: string, direction: 'input' | 'output'): Promise<guardrail.CheckResponse> {
    const span = tracer.startSpan('guardrail check', { kind: SpanKind.INTERNAL, attributes: { 'gateway.direction': direction } }, context.active());
    try {
      const result = await this.checks.execute({ text, direction, policy: this.guardrailPolicyOf(policy), projectId: 0, caller: { kind: 'service' } });
      const response = toCheckResponse(result);
      span.setAttribute('gateway.outcome', response.allowed ? 'allowed' : response.reason || 'blocked');
      this.observe(direction, response);
      return response;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  }

  private guardrailPolicyOf(policy: controlplane.ProjectPolicy): Partial<GuardrailPolicy> {
    let mapped = this.guardrailPolicies.get(policy);
    if (mapped === undefined) {
      mapped = policyFromProjectSettings(policy.project?.id ?? 0, policy.project?.settings);
      this.guardrailPolicies.set(policy, mapped);
    }
    return mapped;
  }
}

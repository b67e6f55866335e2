import type { ServiceHandlers } from '@gateway/grpc';
import type { guardrail } from '@gateway/proto';
import { fromProtoPolicy, toCheckResponse, type CheckObserver, type RunCheckUseCase } from '@gateway/guardrail';

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
      observe(req.direction, result);
      return toCheckResponse(result);
    },
  };
}

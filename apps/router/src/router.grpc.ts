import type { ServiceHandlers } from '@gateway/grpc';
import { DomainError } from '@gateway/errors';
import type { controlplane, router } from '@gateway/proto';
import { routeRequest, type RegistryModel, type RouteDecision } from './routing';

export interface PolicySource {
  getProjectPolicy(request: controlplane.ProjectRef): Promise<controlplane.ProjectPolicy>;
}

export function toRegistryModel(model: controlplane.ModelDefinition): RegistryModel {
  return {
    identifier: model.identifier,
    provider: model.provider,
    isPublic: model.isPublic,
    inputCostPer1k: model.inputCostPer1k,
    outputCostPer1k: model.outputCostPer1k,
    additionalConfig: model.additionalConfig ?? {},
  };
}

function toProto(decision: RouteDecision): router.RouteDecision {
  return {
    status: decision.status,
    tier: decision.tier,
    model: decision.status === 'resolved' ? decision.model : '',
    fallbackPath: decision.fallbackPath,
    estimatedCost: decision.status === 'resolved' ? decision.estimatedCostUsd : undefined,
    reason: decision.status === 'resolved' ? '' : decision.reason,
    features: decision.features,
    explanation: decision.explanation,
  };
}

export function routerHandlers(policies: PolicySource): Partial<ServiceHandlers<typeof router.RouterServiceService>> {
  return {
    route: async (req, ctx) => {
      if (ctx.principal.kind === 'api_key' && ctx.principal.projectId !== req.projectId) throw new DomainError('NOT_FOUND', 'Not found');
      const policy = await policies.getProjectPolicy({ projectId: req.projectId, actor: undefined });
      const settings = (policy.project?.settings ?? {}) as { routing_tiers?: Record<string, string> };
      const decision = routeRequest(
        { input: req.input, tools: req.tools as never, sensitive: req.sensitive, attachments: req.attachments },
        { routingTiers: settings.routing_tiers ?? {} },
        policy.models.map(toRegistryModel),
      );
      return toProto(decision);
    },
  };
}

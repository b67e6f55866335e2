import type { ServiceHandlers } from '@gateway/grpc';
import { DomainError } from '@gateway/errors';
import type { controlplane, router } from '@gateway/proto';
import { routeRequest, type RegistryModel, type RouteDecision, type RouteTool } from './routing';

/** A project's settings and registry (the cached control-plane answer in production). */
export interface PolicySource {
  get(projectId: number): Promise<controlplane.ProjectPolicy>;
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

/** Tools arrive as Structs; only their `type` and `vpc_only` matter to routing. */
function toRouteTools(tools: Array<Record<string, unknown>>): RouteTool[] {
  return tools.map((tool, index) => {
    if (typeof tool?.type !== 'string') throw new DomainError('VALIDATION_FAILED', `tools[${index}].type must be function or mcp`);
    return tool as RouteTool;
  });
}

/** settings.routing_tiers as stored; values that are not strings count as unset. */
function routingTiersOf(settings: Record<string, unknown> | undefined): Partial<Record<'simple' | 'complex' | 'secure', string>> {
  const raw = settings?.routing_tiers;
  if (raw === null || typeof raw !== 'object') return {};
  const tiers: Partial<Record<'simple' | 'complex' | 'secure', string>> = {};
  for (const tier of ['simple', 'complex', 'secure'] as const) {
    const value = (raw as Record<string, unknown>)[tier];
    if (typeof value === 'string') tiers[tier] = value;
  }
  return tiers;
}

export function routerHandlers(policies: PolicySource): Partial<ServiceHandlers<typeof router.RouterServiceService>> {
  return {
    route: async (req, ctx) => {
      if (ctx.principal.kind === 'api_key' && ctx.principal.projectId !== req.projectId) throw new DomainError('NOT_FOUND', 'Not found');
      if (!Number.isInteger(req.projectId) || req.projectId <= 0) throw new DomainError('VALIDATION_FAILED', 'project_id must be a positive integer');
      const tools = toRouteTools(req.tools);
      const policy = await policies.get(req.projectId);
      const forceModel = req.forceModel?.trim() || undefined;
      const decision = routeRequest(
        { input: req.input, tools, sensitive: req.sensitive, attachments: req.attachments, forceModel },
        { routingTiers: routingTiersOf(policy.project?.settings) },
        policy.models.map(toRegistryModel),
      );
      return toProto(decision);
    },
  };
}

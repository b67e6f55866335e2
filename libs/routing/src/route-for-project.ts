import { DomainError } from '@gateway/errors';
import type { controlplane, router } from '@gateway/proto';
import { routeRequest, type RegistryModel, type RouteDecision, type RouteTool } from './routing';

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

/**
 * One routing decision for a project, from its policy (settings and model registry, as
 * control-plane's GetProjectPolicy answers it). The router service serves this over gRPC; edge
 * calls it in-process on the execution path with its own cached policy. The caller has checked
 * that the project id is valid and that it may act on that project.
 */
export function routeForProject(request: router.RouteRequest, policy: controlplane.ProjectPolicy): router.RouteDecision {
  const tools = toRouteTools(request.tools);
  const forceModel = request.forceModel?.trim() || undefined;
  const decision = routeRequest(
    { input: request.input, tools, sensitive: request.sensitive, attachments: request.attachments, forceModel },
    { routingTiers: routingTiersOf(policy.project?.settings) },
    policy.models.map(toRegistryModel),
  );
  return toProto(decision);
}

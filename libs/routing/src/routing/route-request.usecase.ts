import { DomainError } from '@gateway/errors';
import { estimateCostUsd, expectedCompletionTokens } from './cost-estimate.calculator';
import { buildFallbackPath } from './fallback-path.builder';
import { extractFeatures } from './request-features.extractor';
import {
  BLOCKED_NO_PRIVATE_MODEL_REASON,
  UNCONFIGURED_REASON,
  type RegistryModel,
  type RouteDecision,
  type RouteInput,
  type RoutingSettings,
} from './routing.types';
import { classify } from './tier.classifier';

/**
 * Classifies the request and resolves the model of its tier. Outcomes:
 * - `blocked` (secure tier only): no model configured for `secure`, the identifier is not
 *   registered, or it is a public model. Sensitive data never silently falls back to a public
 *   model or to another tier.
 * - `unconfigured`: the simple/complex tier has no model, or names an unregistered one.
 *   No cross-tier guessing: the project's settings decide, and the reason tells the caller to
 *   fix them.
 * - `resolved`: the model, its fallback path (private models only on the secure tier, which is
 *   also where vpc_only tools land) and the estimated cost in USD.
 *
 * `forceModel` (replay) replaces the tier's model but not the privacy rule: a forced public
 * model on a secure request is blocked. An unregistered forced model is a caller error.
 */
export function routeRequest(input: RouteInput, settings: RoutingSettings, registry: RegistryModel[]): RouteDecision {
  const features = extractFeatures(input);
  const { tier, explanation } = classify(features);
  const byIdentifier = new Map(registry.map((model) => [model.identifier, model]));
  const privateOnly = tier === 'secure';

  let identifier: string | undefined;
  if (input.forceModel !== undefined) {
    if (!byIdentifier.has(input.forceModel)) {
      throw new DomainError('VALIDATION_FAILED', `Model not authorized or found: ${input.forceModel}`);
    }
    identifier = input.forceModel;
    explanation.push(`force_model ${identifier} replaces the ${tier} tier's model`);
  } else {
    identifier = settings.routingTiers?.[tier]?.trim() || undefined;
  }
  const model = identifier === undefined ? undefined : byIdentifier.get(identifier);

  if (!model) {
    explanation.push(
      identifier === undefined
        ? `no model configured for the ${tier} tier`
        : `model ${identifier} of the ${tier} tier is not registered on the project`,
    );
    return privateOnly
      ? { status: 'blocked', tier, reason: BLOCKED_NO_PRIVATE_MODEL_REASON, fallbackPath: [], features, explanation }
      : { status: 'unconfigured', tier, reason: UNCONFIGURED_REASON, fallbackPath: [], features, explanation };
  }
  if (privateOnly && model.isPublic) {
    explanation.push(`model ${model.identifier} is public; the secure tier needs a private model`);
    return { status: 'blocked', tier, reason: BLOCKED_NO_PRIVATE_MODEL_REASON, fallbackPath: [], features, explanation };
  }

  const fallbackPath = buildFallbackPath(model.identifier, registry, { privateOnly });
  const promptTokens = features.estimatedPromptTokens;
  const completionTokens = expectedCompletionTokens(promptTokens);
  const estimatedCostUsd = estimateCostUsd(model, promptTokens, completionTokens);
  explanation.push(`resolved ${model.identifier} (${model.isPublic ? 'public' : 'private'}, ${model.provider})`);
  explanation.push(fallbackPath.length > 0 ? `fallback path: ${fallbackPath.join(' -> ')}` : 'no fallback configured');
  explanation.push(`estimated cost $${estimatedCostUsd} for ~${promptTokens} prompt + ~${completionTokens} completion tokens`);
  return { status: 'resolved', tier, model: model.identifier, fallbackPath, estimatedCostUsd, features, explanation };
}

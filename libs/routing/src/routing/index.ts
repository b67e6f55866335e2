// Public surface of the router's routing domain: the gRPC adapter calls routeRequest and maps
// RouteDecision onto the simulation / routing-decision messages.
export type {
  RegistryModel,
  RouteDecision,
  RouteInput,
  RouteTool,
  RoutingFeatures,
  RoutingSettings,
  Tier,
} from './routing.types';
export { BLOCKED_NO_PRIVATE_MODEL_REASON, TIERS, UNCONFIGURED_REASON } from './routing.types';
export { estimatePromptTokens, extractFeatures } from './request-features.extractor';
export { classify } from './tier.classifier';
export { COMPLEX_SCORE_THRESHOLD, complexityScore, scoreContributions } from './complexity-score.policy';
export type { ScoreContribution } from './complexity-score.policy';
export { buildFallbackPath } from './fallback-path.builder';
export type { FallbackPathOptions } from './fallback-path.builder';
export { estimateCostUsd, expectedCompletionTokens } from './cost-estimate.calculator';
export { routeRequest } from './route-request.usecase';

/**
 * Types of the router's pure routing domain. No transport types here: the gRPC adapter maps
 * its messages onto these shapes (see index.ts for the public surface).
 */

export type Tier = 'simple' | 'complex' | 'secure';

export const TIERS: readonly Tier[] = ['simple', 'complex', 'secure'];

/** One model registry entry as the router needs it; prices are USD per 1,000 tokens. */
export interface RegistryModel {
  identifier: string;
  provider: string;
  /** `false` marks a private or internal model: the only kind the secure tier may use. */
  isPublic: boolean;
  inputCostPer1k: number;
  outputCostPer1k: number;
  /** Free-form; the router reads `fallback_identifier` (string) from it. */
  additionalConfig: Record<string, unknown>;
}

/** `settings.routing_tiers` of the project: each value is a registered model identifier. */
export interface RoutingSettings {
  routingTiers: Partial<Record<Tier, string>>;
}

export interface RouteTool {
  type: string;
  /** Routing intent on `type: mcp` tools: the request may only reach private models. */
  vpc_only?: boolean;
  [key: string]: unknown;
}

export interface RouteInput {
  input: string;
  tools?: RouteTool[];
  /** The guardrail found PII or a secret in the input. */
  sensitive: boolean;
  /** Number of document attachments sent with the request. */
  attachments?: number;
  /** Replay `force_model`: use this registered model instead of the tier's model. */
  forceModel?: string;
}

export interface RoutingFeatures {
  /** Length of the input in Unicode code points (not UTF-16 units). */
  chars: number;
  /** See estimatePromptTokens: ~4 chars per token, 1 per CJK character, plus tool schemas. */
  estimatedPromptTokens: number;
  /** Distinct reasoning cues found, in list order. */
  reasoningCues: string[];
  /** Distinct multi-step cues found, in list order (`numbered steps` for a numbered list). */
  multiStepCues: string[];
  hasCode: boolean;
  documentAttachments: number;
  sensitive: boolean;
  /** At least one `type: mcp` tool with `vpc_only: true`. */
  vpcOnlyTools: boolean;
  /** Weighted complexity score (see complexity-score.policy.ts); >= 3 means complex. */
  score: number;
}

interface DecisionBase {
  tier: Tier;
  /** Model identifiers tried in order if the primary fails; never contains the primary. */
  fallbackPath: string[];
  features: RoutingFeatures;
  /** Human-readable reasons, in the order the decision was made. */
  explanation: string[];
}

export type RouteDecision =
  | (DecisionBase & { status: 'resolved'; model: string; estimatedCostUsd: number })
  | (DecisionBase & { status: 'blocked'; reason: string })
  | (DecisionBase & { status: 'unconfigured'; reason: string });

/** Reasons exactly as the spec words them (note the em dash in the second one). */
export const BLOCKED_NO_PRIVATE_MODEL_REASON = 'No private model configured for sensitive routing';
export const UNCONFIGURED_REASON = 'No model configured — set routing tiers or fallbacks in project settings';

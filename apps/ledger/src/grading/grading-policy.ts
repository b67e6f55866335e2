import type { GradeModel, GradeTraceInput } from './grading.types';

const TIERS = ['simple', 'complex', 'secure'] as const;
type Tier = (typeof TIERS)[number];

/** What grading needs from a project's settings and model registry (control-plane owns both). */
export interface GradingPolicy {
  registry: GradeModel[];
  routingTiers: GradeTraceInput['routingTiers'];
  /** `additional_config.infrastructure` of a registered model, if it has one. */
  infrastructureOf(model: string): string | undefined;
}

export interface GradingPolicySource {
  /** The project's policy; an unknown project grades against an empty registry. */
  forProject(projectId: number): Promise<GradingPolicy>;
}

export interface RegistryEntry {
  identifier: string;
  inputCostPer1k: number;
  outputCostPer1k: number;
  additionalConfig?: Record<string, unknown>;
}

export const EMPTY_GRADING_POLICY: GradingPolicy = { registry: [], routingTiers: {}, infrastructureOf: () => undefined };

/**
 * A model's tier is the routing tier that names it in `settings.routing_tiers`; a model no tier
 * names may declare one in `additional_config.tier`. Unknown shapes are ignored, not guessed.
 */
export function gradingPolicyFrom(settings: Record<string, unknown> | undefined, models: RegistryEntry[]): GradingPolicy {
  const rawTiers = settings?.['routing_tiers'];
  const routingTiers: Partial<Record<Tier, string>> = {};
  if (rawTiers && typeof rawTiers === 'object' && !Array.isArray(rawTiers)) {
    for (const tier of TIERS) {
      const identifier = (rawTiers as Record<string, unknown>)[tier];
      if (typeof identifier === 'string' && identifier !== '') routingTiers[tier] = identifier;
    }
  }
  const tierOf = (model: RegistryEntry): Tier | null => {
    const configured = TIERS.find((tier) => routingTiers[tier] === model.identifier);
    if (configured) return configured;
    const declared = model.additionalConfig?.['tier'];
    return typeof declared === 'string' && (TIERS as readonly string[]).includes(declared) ? (declared as Tier) : null;
  };
  const infrastructure = new Map<string, string>();
  for (const model of models) {
    const label = model.additionalConfig?.['infrastructure'];
    if (typeof label === 'string' && label.trim() !== '') infrastructure.set(model.identifier, label.trim());
  }
  return {
    registry: models.map((model) => ({
      identifier: model.identifier,
      tier: tierOf(model),
      inputCostPer1k: finiteOrZero(model.inputCostPer1k),
      outputCostPer1k: finiteOrZero(model.outputCostPer1k),
    })),
    routingTiers,
    infrastructureOf: (model) => infrastructure.get(model),
  };
}

function finiteOrZero(value: number): number {
  return Number.isFinite(value) && value > 0 ? value : 0;
}

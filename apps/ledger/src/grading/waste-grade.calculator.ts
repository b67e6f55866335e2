import { stableStringify, type StepRecord } from '../summary';
import {
  OBVIOUSLY_SIMPLE_MAX_CHARS,
  SIGNIFICANT_OVERSPEND_SHARE,
  WASTE_PRICE_RATIO,
} from '@gateway/proto';
import type { Grade, GradeModel, GradeTraceInput } from './grading.types';

type SufficientTier = 'simple' | 'complex';

export interface WasteAssessment {
  grade: Grade;
  modelSteps: number;
  wastefulSteps: number;
  /** USD that a sufficient model would have saved. */
  overspendUsd: number;
  /** overspendUsd / cost of all model steps (0 when they cost nothing). */
  overspendShare: number;
  findings: string[];
}

/** Waste dimension; rules in GRADING_RULES (libs/proto/src/grading-rules.ts). */
export function assessWaste(input: Pick<GradeTraceInput, 'steps' | 'registry' | 'routingTiers'>): WasteAssessment {
  const byIdentifier = new Map(input.registry.map((model) => [model.identifier, model]));
  const modelSteps = input.steps.filter((step) => (step.type === 'run' || step.type === 'tool_call') && step.model);
  const findings: string[] = [];
  let wastefulSteps = 0;
  let overspendUsd = 0;
  let modelCostUsd = 0;

  for (const step of modelSteps) {
    const cost = Number.isFinite(step.costUsd) ? Math.max(0, step.costUsd) : 0;
    modelCostUsd += cost;
    const tier = neededTier(step);
    if (!tier) continue;
    const used = byIdentifier.get(step.model!);
    const sufficient = sufficientModel(tier, input.registry, input.routingTiers);
    if (!used || !sufficient || sufficient.identifier === used.identifier) continue;

    const ratio = priceRatio(step, sufficient, used);
    if (ratio === null || ratio > WASTE_PRICE_RATIO) continue;
    wastefulSteps += 1;
    const saved = cost * (1 - ratio);
    overspendUsd += saved;
    findings.push(
      `step ${step.id}: ${used.identifier} used for a ${tier} input; ${sufficient.identifier} (${tier} tier) ` +
        `costs ~${Math.round((1 - ratio) * 100)}% less (over-spend $${roundUsd(saved)})`,
    );
  }

  const overspendShare = modelCostUsd > 0 ? overspendUsd / modelCostUsd : 0;
  let grade: Grade;
  if (modelSteps.length >= 2 && wastefulSteps === modelSteps.length) grade = 'F';
  else if (wastefulSteps >= 2 && overspendShare >= SIGNIFICANT_OVERSPEND_SHARE) grade = 'D';
  else if (wastefulSteps >= 2) grade = 'C';
  else if (wastefulSteps === 1) grade = 'B';
  else grade = 'A';

  return { grade, modelSteps: modelSteps.length, wastefulSteps, overspendUsd: roundUsd(overspendUsd), overspendShare, findings };
}

/**
 * The tier the step needed. Routed steps carry the router's tier. Unrouted steps (direct runs)
 * are judged only when obviously simple (short, no code block): the ledger does not re-run the
 * router's classifier, so anything less clear gets the benefit of the doubt. `secure` is never
 * judged: privacy is a requirement, not over-spending.
 */
function neededTier(step: StepRecord): SufficientTier | null {
  if (step.tier === 'simple' || step.tier === 'complex') return step.tier;
  if (step.tier !== null) return null;
  const input = step.input ?? '';
  if (input.trim() === '' || input.length > OBVIOUSLY_SIMPLE_MAX_CHARS || input.includes('```')) return null;
  return 'simple';
}

/** The model configured for the tier, else the cheapest registered model marked for it. */
function sufficientModel(
  tier: SufficientTier,
  registry: GradeModel[],
  routingTiers: GradeTraceInput['routingTiers'],
): GradeModel | undefined {
  const configured = routingTiers[tier];
  const byConfig = configured ? registry.find((model) => model.identifier === configured) : undefined;
  if (byConfig) return byConfig;
  return registry
    .filter((model) => model.tier === tier)
    .sort((a, b) => a.inputCostPer1k + a.outputCostPer1k - (b.inputCostPer1k + b.outputCostPer1k))[0];
}

/**
 * Price of the sufficient model relative to the used one for this step's token mix. Token
 * counts are not stored on the step, so they are estimated as characters ÷ 4 of the input and
 * the output; an empty step weighs input and output equally. null when the used model is free.
 */
function priceRatio(step: StepRecord, sufficient: GradeModel, used: GradeModel): number | null {
  const outputText = typeof step.output === 'string' ? step.output : step.output == null ? '' : stableStringify(step.output);
  let promptTokens = Math.ceil((step.input ?? '').length / 4);
  let completionTokens = Math.ceil(outputText.length / 4);
  if (promptTokens + completionTokens === 0) {
    promptTokens = 1;
    completionTokens = 1;
  }
  const price = (model: GradeModel) => promptTokens * model.inputCostPer1k + completionTokens * model.outputCostPer1k;
  const usedPrice = price(used);
  return usedPrice > 0 ? price(sufficient) / usedPrice : null;
}

function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}

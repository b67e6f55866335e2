import type { ledger } from '@gateway/proto';
import type { ReplayOverrides } from '../jobs/replay-job.types';

export interface ModelPrice {
  inputCostPer1k: number;
  outputCostPer1k: number;
}

export interface PlannedCall {
  /** Unique within one replay; the idempotency key of the recorded step and the resume marker. */
  key: string;
  source: ledger.Step;
  model: string;
  /** Plan key of the replayed step this one answers (tool loops keep their shape). */
  parentKey: string | null;
  /** USD, from the source step's tokens at the target model's prices. */
  estimatedCostUsd: number;
  /** Over max_cost: not re-run. */
  skipped: boolean;
}

const isModelCall = (step: ledger.Step) => (step.type === 'run' || step.type === 'tool_call') && step.model !== '';
const outputText = (step: ledger.Step) => (typeof step.output === 'string' ? step.output : step.output === undefined || step.output === null ? '' : JSON.stringify(step.output));

/** Token counts of the source step; estimated at ~4 characters per token when it reported none. */
export function sourceTokens(step: ledger.Step): { prompt: number; completion: number } {
  const promptChars = step.conversationJson ? step.conversationJson.length : step.input.length;
  return {
    prompt: step.promptTokens > 0 ? step.promptTokens : Math.ceil(promptChars / 4),
    completion: step.completionTokens > 0 ? step.completionTokens : Math.ceil(outputText(step).length / 4),
  };
}

export function estimateCostUsd(step: ledger.Step, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const tokens = sourceTokens(step);
  return (tokens.prompt / 1000) * price.inputCostPer1k + (tokens.completion / 1000) * price.outputCostPer1k;
}

/**
 * The model calls one replay makes, in the source trace's order:
 * - every model call of the source (`run` and `tool_call` steps) is re-run with its recorded
 *   messages, on `forcedModel` (force_model or one of compare_models) or else its own model;
 * - a fan-out (two or more model calls with the same parent and the same input: one prompt sent
 *   to several models) is re-run on `force_models` when given: one call per listed model;
 * - a call whose estimated cost exceeds max_cost is planned as skipped.
 * Check, log and blocked steps are not replayed.
 */
export function planReplay(steps: ledger.Step[], overrides: ReplayOverrides, forcedModel: string | null, priceOf: (model: string) => ModelPrice | undefined): PlannedCall[] {
  const calls = steps.filter(isModelCall).sort((a, b) => a.id - b.id);
  const groups = new Map<string, ledger.Step[]>();
  for (const step of calls) {
    const key = `${step.parentStepId ?? 'root'}\u0000${step.input}`;
    groups.set(key, [...(groups.get(key) ?? []), step]);
  }
  const keyOfSource = new Map<number, string>();
  const plan: PlannedCall[] = [];
  const add = (source: ledger.Step, model: string, key: string) => {
    const estimatedCostUsd = estimateCostUsd(source, priceOf(model));
    const parentKey = source.parentStepId === undefined ? null : (keyOfSource.get(source.parentStepId) ?? null);
    plan.push({ key, source, model, parentKey, estimatedCostUsd, skipped: overrides.max_cost !== undefined && estimatedCostUsd > overrides.max_cost });
  };
  const done = new Set<number>();
  for (const step of calls) {
    if (done.has(step.id)) continue;
    const group = groups.get(`${step.parentStepId ?? 'root'}\u0000${step.input}`)!;
    if (group.length > 1 && overrides.force_models?.length) {
      overrides.force_models.forEach((model, index) => add(step, model, `${step.id}:fanout:${index}`));
      for (const member of group) {
        done.add(member.id);
        keyOfSource.set(member.id, `${step.id}:fanout:0`);
      }
      continue;
    }
    done.add(step.id);
    keyOfSource.set(step.id, String(step.id));
    add(step, forcedModel ?? step.model, String(step.id));
  }
  return plan;
}

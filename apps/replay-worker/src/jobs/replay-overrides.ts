import { createHash } from 'node:crypto';
import { DomainError } from '@gateway/errors';
import type { ReplayOverrides } from './replay-job.types';

export const MUTUALLY_EXCLUSIVE = 'force_model and compare_models are mutually exclusive';
export const MAX_FORCE_MODELS = 10;

export interface RawOverrides {
  forceModel?: string;
  compareModels: string[];
  forceModels: string[];
  maxCost?: number;
}

const identifier = (value: string) => value.trim();

/**
 * Validates the overrides of POST /replay (422 on a rule, with every message) and returns them
 * in canonical form: only the fields that were set, identifiers trimmed. Models must be
 * registered on the project (`Model not authorized or found: <identifier>`).
 */
export function validateOverrides(raw: RawOverrides, registered: ReadonlySet<string>, maxCompareModels: number): ReplayOverrides {
  const errors: string[] = [];
  const overrides: ReplayOverrides = {};
  const forceModel = raw.forceModel === undefined ? undefined : identifier(raw.forceModel);
  const compare = raw.compareModels.map(identifier);
  const fanout = raw.forceModels.map(identifier);
  if (forceModel !== undefined && compare.length > 0) errors.push(MUTUALLY_EXCLUSIVE);
  if (forceModel === '') errors.push('force_model must be a model identifier');
  if (compare.some((model) => !model) || fanout.some((model) => !model)) errors.push('Model identifiers can\'t be blank');
  if (compare.length > maxCompareModels) errors.push(`compare_models may name at most ${maxCompareModels} models`);
  if (new Set(compare).size !== compare.length) errors.push('compare_models must not repeat a model');
  if (fanout.length > MAX_FORCE_MODELS) errors.push(`force_models may name at most ${MAX_FORCE_MODELS} models`);
  if (raw.maxCost !== undefined && (!Number.isFinite(raw.maxCost) || raw.maxCost < 0)) errors.push('max_cost must be a non-negative number (USD)');
  const unknown = [...new Set([...(forceModel ? [forceModel] : []), ...compare, ...fanout].filter((model) => model && !registered.has(model)))];
  for (const model of unknown) errors.push(`Model not authorized or found: ${model}`);
  if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors: errors.length > 1 ? errors : undefined });
  if (forceModel !== undefined) overrides.force_model = forceModel;
  if (compare.length > 0) overrides.compare_models = compare;
  if (fanout.length > 0) overrides.force_models = fanout;
  if (raw.maxCost !== undefined) overrides.max_cost = raw.maxCost;
  return overrides;
}

/** Same project, trace and overrides → same key (field order and unset fields do not matter). */
export function replayCacheKey(projectId: number, traceId: string, overrides: ReplayOverrides): string {
  const canonical = JSON.stringify([projectId, traceId.toLowerCase(), overrides.force_model ?? null, overrides.compare_models ?? null, overrides.force_models ?? null, overrides.max_cost ?? null]);
  return createHash('sha256').update(canonical).digest('hex');
}

import { DomainError } from '@gateway/errors';
import type { RegistryModel } from './routing.types';

/**
 * Completion length is unknown before the call. Heuristic: half the prompt, at least 64 tokens
 * (a short answer still costs something) and at most 1,024 (a typical max_tokens budget), so a
 * huge document does not predict a huge answer.
 */
export const MIN_EXPECTED_COMPLETION_TOKENS = 64;
export const MAX_EXPECTED_COMPLETION_TOKENS = 1_024;

export function expectedCompletionTokens(promptTokens: number): number {
  return Math.min(MAX_EXPECTED_COMPLETION_TOKENS, Math.max(MIN_EXPECTED_COMPLETION_TOKENS, Math.ceil(promptTokens / 2)));
}

/**
 * USD = prompt/1000 × input price + completion/1000 × output price (registry prices are USD per
 * 1,000 tokens). Rounded to 1e-10 USD to drop floating-point noise without losing precision on
 * cheap models.
 */
export function estimateCostUsd(model: RegistryModel, promptTokens: number, expectedCompletionTokens: number): number {
  for (const [name, value] of [
    ['promptTokens', promptTokens],
    ['expectedCompletionTokens', expectedCompletionTokens],
    ['inputCostPer1k', model.inputCostPer1k],
    ['outputCostPer1k', model.outputCostPer1k],
  ] as const) {
    if (!Number.isFinite(value) || value < 0) {
      throw new DomainError('VALIDATION_FAILED', `${name} must be a non-negative number`);
    }
  }
  const usd = (promptTokens / 1000) * model.inputCostPer1k + (expectedCompletionTokens / 1000) * model.outputCostPer1k;
  return Math.round(usd * 1e10) / 1e10;
}

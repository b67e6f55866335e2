import { DomainError } from '@gateway/errors';
import { estimateCostUsd, expectedCompletionTokens } from './cost-estimate.calculator';
import type { RegistryModel } from './routing.types';

const gpt: RegistryModel = { identifier: 'gpt', provider: 'openai', isPublic: true, inputCostPer1k: 0.01, outputCostPer1k: 0.03, additionalConfig: {} };

describe('expectedCompletionTokens', () => {
  it('is half the prompt, clamped to 64..1024', () => {
    expect(expectedCompletionTokens(0)).toBe(64);
    expect(expectedCompletionTokens(10)).toBe(64);
    expect(expectedCompletionTokens(301)).toBe(151);
    expect(expectedCompletionTokens(100_000)).toBe(1024);
  });
});

describe('estimateCostUsd', () => {
  it('multiplies tokens by the per-1k prices', () => {
    // 1000 × 0.01/1k + 500 × 0.03/1k = 0.01 + 0.015
    expect(estimateCostUsd(gpt, 1000, 500)).toBe(0.025);
  });

  it('drops floating-point noise but keeps sub-cent precision', () => {
    const cheap = { ...gpt, inputCostPer1k: 0.00015, outputCostPer1k: 0.0006 };
    expect(estimateCostUsd(cheap, 7, 64)).toBe(0.00003945);
    expect(estimateCostUsd(gpt, 10, 20)).toBe(0.0007);
  });

  it('is zero for a free (self-hosted) model', () => {
    expect(estimateCostUsd({ ...gpt, inputCostPer1k: 0, outputCostPer1k: 0 }, 1000, 1000)).toBe(0);
  });

  it('rejects negative or non-finite numbers', () => {
    expect(() => estimateCostUsd(gpt, -1, 10)).toThrow(DomainError);
    expect(() => estimateCostUsd({ ...gpt, outputCostPer1k: Number.NaN }, 1, 10)).toThrow('outputCostPer1k must be a non-negative number');
  });
});

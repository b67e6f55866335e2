import type { ModelTarget } from '../provider.types';
import { costUsd, estimateUsage } from './cost.calculator';

const target = (additionalConfig: Record<string, unknown> = {}): ModelTarget => ({
  identifier: 'm',
  provider: 'openai',
  inputCostPer1k: 0.01,
  outputCostPer1k: 0.03,
  additionalConfig,
});

describe('costUsd', () => {
  it('prices prompt and completion tokens per 1k', () => {
    expect(costUsd({ promptTokens: 1000, completionTokens: 500, cachedTokens: 0 }, target())).toBeCloseTo(0.01 + 0.015, 12);
  });

  it('charges cached tokens at full price without a registry discount', () => {
    expect(costUsd({ promptTokens: 1000, completionTokens: 0, cachedTokens: 800 }, target())).toBeCloseTo(0.01, 12);
  });

  it('charges cached prompt tokens at (1 - cached_input_discount) of the input price', () => {
    // 200 uncached at 0.01/1k + 800 cached at 0.0025/1k
    expect(costUsd({ promptTokens: 1000, completionTokens: 0, cachedTokens: 800 }, target({ cached_input_discount: 0.75 }))).toBeCloseTo(0.002 + 0.002, 12);
    expect(costUsd({ promptTokens: 1000, completionTokens: 0, cachedTokens: 800 }, target({ cached_input_discount: '0.5' }))).toBeCloseTo(0.002 + 0.004, 12);
  });

  it('clamps nonsense discounts and cached counts', () => {
    expect(costUsd({ promptTokens: 100, completionTokens: 0, cachedTokens: 500 }, target({ cached_input_discount: 7 }))).toBe(0);
    expect(costUsd({ promptTokens: 1000, completionTokens: 0, cachedTokens: 0 }, target({ cached_input_discount: -1 }))).toBeCloseTo(0.01, 12);
  });
});

describe('estimateUsage', () => {
  it('estimates about four characters per token', () => {
    const usage = estimateUsage([{ role: 'user', content: 'x'.repeat(40) }], 'y'.repeat(20), []);
    expect(usage).toEqual({ promptTokens: 10, completionTokens: 5, cachedTokens: 0 });
  });
});

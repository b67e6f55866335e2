import type { ledger } from '@gateway/proto';
import { estimateCostUsd, planReplay } from './replay-plan';

function step(fields: Partial<ledger.Step>): ledger.Step {
  return {
    id: 1, traceId: 't', type: 'run', parentStepId: undefined, input: 'hello', output: 'answer', model: 'smart', tier: 'simple', cost: 0, latencyMs: 10,
    promptTokens: 100, completionTokens: 50, blockedReason: '', toolCalls: [], toolName: '', toolLatencyMs: undefined, error: '', createdAt: '',
    conversationJson: '', offeredTools: undefined, infrastructure: '', cachedTokens: 0, toolFidelityScore: undefined, piiDetected: false,
    injectionAttempt: false, secretLeaked: false, riskScore: 0, startedAt: '', retentionUntil: '', ...fields,
  } as ledger.Step;
}

const PRICES: Record<string, { inputCostPer1k: number; outputCostPer1k: number }> = {
  smart: { inputCostPer1k: 0.01, outputCostPer1k: 0.02 },
  fast: { inputCostPer1k: 0.001, outputCostPer1k: 0.002 },
  other: { inputCostPer1k: 0.002, outputCostPer1k: 0.004 },
};
const priceOf = (model: string) => PRICES[model];

describe('planReplay', () => {
  it('re-runs model calls only, in order, on their own model by default', () => {
    const steps = [step({ id: 3, model: 'fast' }), step({ id: 1 }), step({ id: 2, type: 'log', model: '' }), step({ id: 4, type: 'blocked', model: '' })];
    expect(planReplay(steps, {}, null, priceOf).map((c) => [c.key, c.model, c.skipped])).toEqual([['1', 'smart', false], ['3', 'fast', false]]);
  });

  it('forces one model on every call and keeps tool-loop parents', () => {
    const steps = [step({ id: 1, type: 'tool_call' }), step({ id: 2, parentStepId: 1, input: 'again' })];
    expect(planReplay(steps, { force_model: 'fast' }, 'fast', priceOf).map((c) => [c.key, c.model, c.parentKey])).toEqual([['1', 'fast', null], ['2', 'fast', '1']]);
  });

  it('replaces a fan-out group with one call per force_models entry', () => {
    const steps = [step({ id: 1, model: 'smart' }), step({ id: 2, model: 'fast' }), step({ id: 3, input: 'next', parentStepId: 2 })];
    const plan = planReplay(steps, { force_models: ['other', 'fast', 'smart'] }, null, priceOf);
    expect(plan.map((c) => [c.key, c.model, c.parentKey])).toEqual([['1:fanout:0', 'other', null], ['1:fanout:1', 'fast', null], ['1:fanout:2', 'smart', null], ['3', 'smart', '1:fanout:0']]);
  });

  it('skips calls whose estimate at the target model exceeds max_cost', () => {
    const steps = [step({ id: 1, promptTokens: 1000, completionTokens: 1000 }), step({ id: 2, input: 'tiny', promptTokens: 10, completionTokens: 10 })];
    const plan = planReplay(steps, { max_cost: 0.01 }, null, priceOf);
    expect(plan.map((c) => [c.key, c.skipped])).toEqual([['1', true], ['2', false]]);
    expect(plan[0].estimatedCostUsd).toBeCloseTo(0.03, 10);
  });

  it('estimates tokens from characters when the source step reported none', () => {
    expect(estimateCostUsd(step({ promptTokens: 0, completionTokens: 0, input: 'x'.repeat(4000), output: 'y'.repeat(2000) }), PRICES.fast)).toBeCloseTo(0.001 + 0.001, 10);
    expect(estimateCostUsd(step({}), undefined)).toBe(0);
  });
});

import { makeStep } from '../summary/step-record.fixture';
import { complexStep, fineStep, REGISTRY, ROUTING_TIERS, wastefulStep } from './grading.fixture';
import type { StepRecord } from '../summary';
import { assessWaste } from './waste-grade.calculator';

const assess = (steps: StepRecord[], routingTiers = ROUTING_TIERS) => assessWaste({ steps, registry: REGISTRY, routingTiers });

describe('assessWaste', () => {
  it('A: every step used the model of its tier (or the trace has no model step)', () => {
    expect(assess([fineStep(1), complexStep(2)]).grade).toBe('A');
    expect(assess([]).grade).toBe('A');
    expect(assess([makeStep({ id: 1, type: 'log', model: null })]).grade).toBe('A');
  });

  it('B: exactly one wasteful step', () => {
    const result = assess([wastefulStep(1), fineStep(2), complexStep(3)]);
    expect(result).toMatchObject({ grade: 'B', wastefulSteps: 1, modelSteps: 3 });
    expect(result.findings[0]).toMatch(/^step 1: opus used for a simple input; mini \(simple tier\) costs ~99% less \(over-spend \$0\.0099/);
  });

  it('C: two wasteful steps, over-spend under half the model cost', () => {
    const result = assess([wastefulStep(1), wastefulStep(2), complexStep(3)]);
    expect(result.grade).toBe('C');
    expect(result.overspendShare).toBeLessThan(0.5);
  });

  it('D: two wasteful steps and most of the spend avoidable', () => {
    const result = assess([wastefulStep(1), wastefulStep(2), fineStep(3)]);
    expect(result.grade).toBe('D');
    expect(result.overspendShare).toBeGreaterThan(0.9);
  });

  it('F: wrong model for every step', () => {
    expect(assess([wastefulStep(1), wastefulStep(2)]).grade).toBe('F');
  });

  it('gives one step that is the whole trace a B, not an F', () => {
    expect(assess([wastefulStep(1)]).grade).toBe('B');
  });

  it('counts a complex step on a pricier model than the complex tier', () => {
    const registry = [...REGISTRY, { identifier: 'ultra', tier: null, inputCostPer1k: 0.06, outputCostPer1k: 0.12 }];
    const result = assessWaste({ steps: [complexStep(1, { model: 'ultra' })], registry, routingTiers: ROUTING_TIERS });
    expect(result.wastefulSteps).toBe(1);
  });

  it('never judges secure steps, a cheaper model than the tier, or an unregistered model', () => {
    expect(assess([makeStep({ id: 1, model: 'opus', tier: 'secure' }), makeStep({ id: 2, model: 'opus', tier: 'secure' })]).wastefulSteps).toBe(0);
    expect(assess([complexStep(1, { model: 'mid' })]).wastefulSteps).toBe(0);
    expect(assess([wastefulStep(1, { model: 'deleted' })]).wastefulSteps).toBe(0);
  });

  it('ignores a sufficient model that is barely cheaper (more than 90% of the price)', () => {
    const registry = [
      { identifier: 'a', tier: 'simple', inputCostPer1k: 0.0095, outputCostPer1k: 0.0095 },
      { identifier: 'b', tier: null, inputCostPer1k: 0.01, outputCostPer1k: 0.01 },
    ];
    const steps = [makeStep({ id: 1, model: 'b', tier: 'simple' })];
    expect(assessWaste({ steps, registry, routingTiers: { simple: 'a' } }).wastefulSteps).toBe(0);
  });

  it('judges an unrouted step only when its input is obviously simple', () => {
    expect(assess([makeStep({ id: 1, model: 'opus', tier: null, input: 'hi' })]).wastefulSteps).toBe(1);
    expect(assess([makeStep({ id: 1, model: 'opus', tier: null, input: 'x'.repeat(401) })]).wastefulSteps).toBe(0);
    expect(assess([makeStep({ id: 1, model: 'opus', tier: null, input: 'fix ```a```' })]).wastefulSteps).toBe(0);
  });

  it('finds the sufficient model by registry tier when routing_tiers lacks it', () => {
    const result = assess([wastefulStep(1)], { complex: 'opus' });
    expect(result.findings[0]).toContain('mini (simple tier)');
  });

  it('judges tool_call steps that carry a model', () => {
    expect(assess([wastefulStep(1, { type: 'tool_call' }), wastefulStep(2, { type: 'tool_call' })]).grade).toBe('F');
  });
});

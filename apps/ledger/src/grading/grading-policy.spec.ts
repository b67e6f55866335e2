import { EMPTY_GRADING_POLICY, gradingPolicyFrom } from './grading-policy';

describe('gradingPolicyFrom', () => {
  const models = [
    { identifier: 'mini', inputCostPer1k: 0.1, outputCostPer1k: 0.2, additionalConfig: { infrastructure: ' aws ' } },
    { identifier: 'large', inputCostPer1k: 1, outputCostPer1k: 2, additionalConfig: {} },
    { identifier: 'vault', inputCostPer1k: Number.NaN, outputCostPer1k: -1, additionalConfig: { tier: 'secure' } },
    { identifier: 'spare', inputCostPer1k: 0.5, outputCostPer1k: 0.5, additionalConfig: { tier: 'galaxy' } },
  ];

  it('takes tiers from routing_tiers, then additional_config.tier, and ignores unknown tiers', () => {
    const policy = gradingPolicyFrom({ routing_tiers: { simple: 'mini', complex: 'large', secure: null, other: 'x' } }, models);
    expect(policy.routingTiers).toEqual({ simple: 'mini', complex: 'large' });
    expect(policy.registry.map((model) => [model.identifier, model.tier])).toEqual([
      ['mini', 'simple'],
      ['large', 'complex'],
      ['vault', 'secure'],
      ['spare', null],
    ]);
  });

  it('turns non-finite or negative prices into 0 and trims infrastructure labels', () => {
    const policy = gradingPolicyFrom(undefined, models);
    expect(policy.registry[2]).toMatchObject({ inputCostPer1k: 0, outputCostPer1k: 0 });
    expect(policy.infrastructureOf('mini')).toBe('aws');
    expect(policy.infrastructureOf('large')).toBeUndefined();
  });

  it('has an empty fallback', () => {
    expect(EMPTY_GRADING_POLICY.registry).toEqual([]);
    expect(EMPTY_GRADING_POLICY.infrastructureOf('x')).toBeUndefined();
  });
});

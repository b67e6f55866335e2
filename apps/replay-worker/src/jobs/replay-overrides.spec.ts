import { DomainError } from '@gateway/errors';
import { MUTUALLY_EXCLUSIVE, replayCacheKey, validateOverrides } from './replay-overrides';

const REGISTERED = new Set(['fast', 'smart', 'vault']);
const raw = (fields: Partial<Parameters<typeof validateOverrides>[0]>) => ({ compareModels: [], forceModels: [], ...fields });

function refused(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return error as DomainError;
  }
  throw new Error('expected VALIDATION_FAILED');
}

describe('validateOverrides', () => {
  it('keeps only the fields that were set, trimmed', () => {
    expect(validateOverrides(raw({}), REGISTERED, 5)).toEqual({});
    expect(validateOverrides(raw({ forceModel: ' fast ', maxCost: 0.5 }), REGISTERED, 5)).toEqual({ force_model: 'fast', max_cost: 0.5 });
    expect(validateOverrides(raw({ compareModels: ['fast', 'smart'], forceModels: ['vault'] }), REGISTERED, 5)).toEqual({ compare_models: ['fast', 'smart'], force_models: ['vault'] });
  });

  it('refuses force_model with compare_models', () => {
    expect(refused(() => validateOverrides(raw({ forceModel: 'fast', compareModels: ['smart'] }), REGISTERED, 5)).message).toBe(MUTUALLY_EXCLUSIVE);
  });

  it('refuses models the project does not have, naming each once', () => {
    const error = refused(() => validateOverrides(raw({ compareModels: ['fast', 'ghost'], forceModels: ['ghost', 'other'] }), REGISTERED, 5));
    expect(error.errors).toEqual(['Model not authorized or found: ghost', 'Model not authorized or found: other']);
    expect(refused(() => validateOverrides(raw({ forceModel: 'nope' }), REGISTERED, 5)).message).toBe('Model not authorized or found: nope');
  });

  it('refuses repeated or too many compare models, blank identifiers and a negative max_cost', () => {
    expect(refused(() => validateOverrides(raw({ compareModels: ['fast', 'fast'] }), REGISTERED, 5)).message).toMatch(/repeat/);
    expect(refused(() => validateOverrides(raw({ compareModels: ['fast', 'smart', 'vault'] }), REGISTERED, 2)).message).toMatch(/at most 2/);
    expect(refused(() => validateOverrides(raw({ forceModel: '  ' }), REGISTERED, 5)).message).toMatch(/force_model/);
    expect(refused(() => validateOverrides(raw({ maxCost: -1 }), REGISTERED, 5)).message).toMatch(/max_cost/);
  });
});

describe('replayCacheKey', () => {
  it('is the same for the same trace and overrides, different otherwise', () => {
    const trace = '7d1e1a0a-0000-4000-8000-000000000001';
    expect(replayCacheKey(1, trace, { force_model: 'fast' })).toBe(replayCacheKey(1, trace.toUpperCase(), { force_model: 'fast' }));
    expect(replayCacheKey(1, trace, { force_model: 'fast' })).not.toBe(replayCacheKey(1, trace, { force_model: 'smart' }));
    expect(replayCacheKey(1, trace, {})).not.toBe(replayCacheKey(2, trace, {}));
    expect(replayCacheKey(1, trace, { compare_models: ['a', 'b'] })).not.toBe(replayCacheKey(1, trace, { compare_models: ['b', 'a'] }));
    expect(replayCacheKey(1, trace, { max_cost: 1 })).not.toBe(replayCacheKey(1, trace, {}));
  });
});

import { buildFallbackPath } from './fallback-path.builder';
import type { RegistryModel } from './routing.types';

function model(identifier: string, fallback?: string, isPublic = true): RegistryModel {
  return {
    identifier,
    provider: 'openai',
    isPublic,
    inputCostPer1k: 0.001,
    outputCostPer1k: 0.002,
    additionalConfig: fallback === undefined ? {} : { fallback_identifier: fallback },
  };
}

describe('buildFallbackPath', () => {
  it('follows the chain in order, excluding the start', () => {
    const registry = [model('a', 'b'), model('b', 'c'), model('c')];
    expect(buildFallbackPath('a', registry)).toEqual(['b', 'c']);
  });

  it('stops on a two-model cycle A→B→A', () => {
    expect(buildFallbackPath('a', [model('a', 'b'), model('b', 'a')])).toEqual(['b']);
  });

  it('stops on a longer cycle back into the middle of the chain', () => {
    expect(buildFallbackPath('a', [model('a', 'b'), model('b', 'c'), model('c', 'b')])).toEqual(['b', 'c']);
  });

  it('ignores a self-loop', () => {
    expect(buildFallbackPath('a', [model('a', 'a')])).toEqual([]);
  });

  it('stops at a missing link (unregistered identifier)', () => {
    expect(buildFallbackPath('a', [model('a', 'b'), model('b', 'ghost'), model('c')])).toEqual(['b']);
  });

  it('ignores blank and non-string fallback identifiers', () => {
    const blank = { ...model('a'), additionalConfig: { fallback_identifier: '  ' } };
    const numeric = { ...model('b'), additionalConfig: { fallback_identifier: 42 } };
    expect(buildFallbackPath('a', [blank, model('c')])).toEqual([]);
    expect(buildFallbackPath('b', [numeric])).toEqual([]);
  });

  it('is empty for an unregistered start', () => {
    expect(buildFallbackPath('ghost', [model('a', 'b'), model('b')])).toEqual([]);
  });

  it('keeps only private models when asked, still following through public ones', () => {
    const registry = [model('vault', 'cloud', false), model('cloud', 'onprem'), model('onprem', undefined, false)];
    expect(buildFallbackPath('vault', registry)).toEqual(['cloud', 'onprem']);
    expect(buildFallbackPath('vault', registry, { privateOnly: true })).toEqual(['onprem']);
  });
});

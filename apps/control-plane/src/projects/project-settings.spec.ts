import { DomainError } from '@gateway/errors';
import { mergeSettings, referencedModels, validateSettings } from './project-settings';

function errorsOf(settings: Record<string, unknown>, registered: string[] = []): string[] {
  try {
    validateSettings(settings, new Set(registered));
    return [];
  } catch (error) {
    return (error as DomainError).errors ?? [];
  }
}

describe('project settings', () => {
  it('merges deeply, preserving keys not sent (also inside routing_tiers)', () => {
    const current = { routing_tiers: { simple: 'a', complex: 'b' }, risk_threshold: 0.5, policy_rules: { blocked_terms: ['x'] } };
    expect(mergeSettings(current, { routing_tiers: { complex: 'c' }, monthly_budget_usd: 10 })).toEqual({
      routing_tiers: { simple: 'a', complex: 'c' },
      risk_threshold: 0.5,
      policy_rules: { blocked_terms: ['x'] },
      monthly_budget_usd: 10,
    });
    expect(mergeSettings(current, { routing_tiers: { simple: null } })).toMatchObject({ routing_tiers: { simple: null, complex: 'b' } });
  });

  it('accepts valid settings', () => {
    expect(
      errorsOf(
        { routing_tiers: { simple: 'm1', secure: null }, risk_threshold: 0, monthly_budget_usd: null, shadow_model: 'm1', policy_rules: { blocked_terms: ['acme'], blocked_patterns: ['id-\\d{4}'], blocked_topics: ['weapons'] }, custom: { a: 1 } },
        ['m1'],
      ),
    ).toEqual([]);
  });

  it('names a routing tier or shadow model that is not registered', () => {
    expect(errorsOf({ routing_tiers: { simple: 'ghost' } }, ['m1'])).toEqual(['Model not authorized or found: ghost']);
    expect(errorsOf({ shadow_model: 'ghost' })).toEqual(['Model not authorized or found: ghost']);
    expect(errorsOf({ routing_tiers: { fast: 'm1' } }, ['m1'])).toEqual(['Routing tier fast is unknown (use simple, complex or secure)']);
    expect(errorsOf({ routing_tiers: 'm1' })).toEqual(['Routing tiers must be an object with keys simple, complex, secure']);
  });

  it('validates numbers and policy rules', () => {
    expect(errorsOf({ risk_threshold: 1.5 })).toEqual(['Risk threshold must be a number between 0 and 1']);
    expect(errorsOf({ risk_threshold: '0.5' })).toEqual(['Risk threshold must be a number between 0 and 1']);
    expect(errorsOf({ monthly_budget_usd: -1 })).toEqual(['Monthly budget usd must be a non-negative number or null']);
    expect(errorsOf({ policy_rules: { blocked_terms: 'x' } })).toEqual(['Blocked terms must be a list of strings']);
    expect(errorsOf({ policy_rules: { blocked_patterns: ['(a+)+'] } })).toEqual(['Blocked pattern "(a+)+" repeats a group that itself repeats or alternates (nested quantifier)']);
    expect(errorsOf({ policy_rules: { blocked_patterns: ['[oops'] } })).toEqual(['Blocked pattern "[oops" has an unterminated character class']);
    expect(errorsOf({ policy_rules: { other: [] } })).toEqual(['Policy rules key other is unknown (use blocked_terms, blocked_patterns, blocked_topics)']);
  });

  it('lists the models settings reference', () => {
    expect(referencedModels({ routing_tiers: { simple: 'a', complex: 'a', secure: null }, shadow_model: 'b' })).toEqual(
      new Map([
        ['a', ['routing_tiers.simple', 'routing_tiers.complex']],
        ['b', ['shadow_model']],
      ]),
    );
  });
});

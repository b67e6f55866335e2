import { compilePolicy, evaluatePolicy } from './local-policy.evaluator';
import type { ProjectPolicy } from './project-policy';
import { foldPhrase, foldVariants } from './text-fold.normalizer';

function policy(overrides: Partial<ProjectPolicy> = {}): ProjectPolicy {
  return { projectId: 1, riskThreshold: 0.7, routingTiers: {}, blockedTerms: [], blockedPatterns: [], blockedTopics: [], ...overrides };
}

const verdict = (texts: string[], overrides: Partial<ProjectPolicy>) => evaluatePolicy(compilePolicy(policy(overrides)), texts);

describe('folding', () => {
  it('folds case, accents, punctuation and invisible characters into padded words', () => {
    expect(foldPhrase('Projéct  FALCON!')).toBe(' project falcon ');
    expect(foldVariants('pro\u200Bject-falcon')).toEqual([' project falcon ']);
    expect(foldPhrase(' -- ')).toBe('');
  });

  it('joins spaced-out letters and adds leetspeak variants', () => {
    expect(foldVariants('P r o j e c t  F a l c o n')[0]).toBe(' projectfalcon ');
    expect(foldVariants('Pr0ject Fa1con')).toContain(' project falcon ');
  });
});

describe('local policy evaluation', () => {
  it('blocks a blocked term as a whole word, also disguised', () => {
    const terms = { blockedTerms: ['Project Falcon'] };
    expect(verdict(['Status of Project Falcon?'], terms)).toEqual({ blocked: true, riskScore: 0.95, ruleIds: ['policy.blocked_term.0'] });
    expect(verdict(['Status of pr0ject fa1con?'], terms).blocked).toBe(true);
    expect(verdict(['The falcon projects are unrelated.'], terms).blocked).toBe(false);
    expect(verdict(['projectfalconry'], terms).blocked).toBe(false);
  });

  it('catches spaced-out letters and run-together words', () => {
    expect(verdict(['about c r i m s o n today'], { blockedTerms: ['crimson'] }).blocked).toBe(true);
    expect(verdict(['Status of P r o j e c t  F a l c o n?'], { blockedTerms: ['Project Falcon'] }).blocked).toBe(true);
    expect(verdict(['Status of ProjectFalcon?'], { blockedTerms: ['Project Falcon'] }).blocked).toBe(true);
    expect(verdict(['a b c d'], { blockedTerms: ['crimson'] }).blocked).toBe(false);
  });

  it('blocks patterns case-insensitively', () => {
    expect(verdict(['ticket acme-1234'], { blockedPatterns: ['\\bACME-\\d{4}\\b'] })).toMatchObject({ blocked: true, ruleIds: ['policy.blocked_pattern.0'] });
    expect(verdict(['ticket acme-12345'], { blockedPatterns: ['\\bACME-\\d{4}\\b'] }).blocked).toBe(false);
  });

  it('scores topics at 0.8, so a stricter project threshold lets one through', () => {
    expect(verdict(['we discussed the Crimson Ledger today'], { blockedTopics: ['crimson ledger'] })).toEqual({ blocked: true, riskScore: 0.8, ruleIds: ['policy.blocked_topic.0'] });
    expect(verdict(['we discussed the Crimson Ledger today'], { blockedTopics: ['crimson ledger'], riskThreshold: 0.9 }).blocked).toBe(false);
  });

  it('combines several rules by noisy-OR across all texts of a request', () => {
    const result = verdict(['the crimson ledger', 'nothing here', 'ACME-0001'], { blockedTopics: ['crimson ledger'], blockedPatterns: ['acme-\\d{4}'], riskThreshold: 0.99 });
    expect(result).toEqual({ blocked: true, riskScore: 0.99, ruleIds: ['policy.blocked_pattern.0', 'policy.blocked_topic.0'] });
  });

  it('allows clean text and an empty policy', () => {
    expect(verdict(['What is the capital of France?'], { blockedTerms: ['Project Falcon'], blockedPatterns: ['secret-\\d{4}'] })).toEqual({ blocked: false, riskScore: 0, ruleIds: [] });
    expect(verdict(['anything'], {})).toEqual({ blocked: false, riskScore: 0, ruleIds: [] });
  });

  it('refuses to compile a policy with a pattern that could backtrack', () => {
    expect(() => compilePolicy(policy({ blockedPatterns: ['(a+)+$'] }))).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('stays fast on adversarial text for a pattern with an unbounded repeat', () => {
    const started = performance.now();
    expect(verdict(['a'.repeat(50_000)], { blockedPatterns: ['\\w+x'] }).blocked).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

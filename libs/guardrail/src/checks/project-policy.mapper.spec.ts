import { policyFromProjectSettings } from './project-policy.mapper';

describe('policyFromProjectSettings', () => {
  it('maps policy_rules and risk_threshold, ignoring other settings', () => {
    const settings = {
      routing_tiers: { simple: 'mock-mini' },
      risk_threshold: 0.5,
      policy_rules: { blocked_terms: ['Project Falcon'], blocked_patterns: ['\\bACME-\\d{4}\\b'], blocked_topics: ['gambling'] },
    };
    expect(policyFromProjectSettings(1, settings)).toEqual({
      riskThreshold: 0.5,
      blockedTerms: ['Project Falcon'],
      blockedPatterns: ['\\bACME-\\d{4}\\b'],
      blockedTopics: ['gambling'],
    });
  });

  it('leaves the threshold to the default when the project sets none', () => {
    expect(policyFromProjectSettings(1, undefined)).toEqual({ blockedTerms: [], blockedPatterns: [], blockedTopics: [] });
    expect(policyFromProjectSettings(1, { risk_threshold: null, policy_rules: { blocked_terms: ['x'] } })).toEqual({ blockedTerms: ['x'], blockedPatterns: [], blockedTopics: [] });
  });

  it('refuses malformed settings with VALIDATION_FAILED naming the project and the key', () => {
    expect(() => policyFromProjectSettings(4, { risk_threshold: 7 })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringMatching(/^Project 4 .*settings\.risk_threshold/) }));
    expect(() => policyFromProjectSettings(4, { policy_rules: { blocked_topics: [1] } })).toThrow(expect.objectContaining({ message: expect.stringContaining('settings.policy_rules.blocked_topics.0') }));
  });
});

import { foldForMatching } from '../text/matching-fold.normalizer';
import { cleanUnicode } from '../text/unicode.normalizer';
import { compilePolicy, DEFAULT_RISK_THRESHOLD, detectPolicyViolations } from './policy.detector';

function violations(input: string, policy: Parameters<typeof compilePolicy>[0]) {
  const clean = cleanUnicode(input).view;
  return detectPolicyViolations(compilePolicy(policy), clean, foldForMatching(clean).view).map((match) => ({
    ruleId: match.ruleId,
    text: input.slice(match.start, match.end),
    confidence: match.confidence,
  }));
}

describe('policy rules', () => {
  it('defaults the threshold and validates it', () => {
    expect(compilePolicy({}).riskThreshold).toBe(DEFAULT_RISK_THRESHOLD);
    expect(() => compilePolicy({ riskThreshold: 1.5 })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => compilePolicy({ blockedTerms: [42 as unknown as string] })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
  });

  it('matches blocked terms as whole words, also when spaced out or in leetspeak', () => {
    const policy = { blockedTerms: ['Project Falcon'] };
    expect(violations('Status of Project Falcon?', policy)).toEqual([{ ruleId: 'policy.blocked_term.0', text: 'Project Falcon', confidence: 0.95 }]);
    expect(violations('Status of Pr0ject Fa1con?', policy)).toHaveLength(1);
    expect(violations('Status of P r o j e c t  F a l c o n?', policy)).toHaveLength(1);
    expect(violations('The falcon projects are unrelated.', policy)).toEqual([]);
  });

  it('matches blocked patterns case-insensitively', () => {
    expect(violations('Ticket acme-1234 and ACME-12345', { blockedPatterns: ['\\bACME-\\d{4}\\b'] }).map((match) => match.text)).toEqual(['acme-1234']);
  });

  it('scores built-in topics by the number of distinct terms', () => {
    const policy = { blockedTopics: ['gambling'] };
    expect(violations('I bet it rains', policy)[0]?.confidence).toBe(0.45);
    expect(violations('best casino with good poker odds', policy)[0]?.confidence).toBe(0.9);
    expect(violations('we discussed the Crimson Ledger today', { blockedTopics: ['crimson ledger'] })).toHaveLength(1);
  });
});

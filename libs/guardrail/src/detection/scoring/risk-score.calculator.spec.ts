import type { Finding } from '../detection.types';
import { assessRisk } from './risk-score.calculator';

const finding = (category: Finding['category'], ruleId: string, confidence: number, family?: string): Finding => ({
  category,
  ruleId,
  start: 0,
  end: 1,
  confidence,
  ...(family === undefined ? {} : { family }),
});

describe('assessRisk', () => {
  it('is zero without findings', () => {
    expect(assessRisk([])).toEqual({ riskScore: 0, categoryScores: { pii: 0, injection: 0, secret: 0, policy: 0, obfuscation: 0 }, dominant: null, reason: null });
  });

  it('blocks a validated card alone but keeps an email borderline', () => {
    expect(assessRisk([finding('pii', 'pii.credit_card', 0.9)]).riskScore).toBeGreaterThanOrEqual(0.7);
    const email = assessRisk([finding('pii', 'pii.email', 0.9)]).riskScore;
    expect(email).toBeGreaterThanOrEqual(0.2);
    expect(email).toBeLessThan(0.7);
  });

  it('combines evidence with noisy-OR and names the dominant category', () => {
    const risk = assessRisk([
      finding('pii', 'pii.email', 0.9),
      finding('pii', 'pii.phone', 0.85),
      finding('pii', 'pii.person', 0.85),
      finding('obfuscation', 'obfuscation.homoglyph', 0.7),
    ]);
    expect(risk.riskScore).toBeGreaterThanOrEqual(0.7);
    expect(risk.riskScore).toBeLessThanOrEqual(1);
    expect(risk.dominant).toBe('pii');
    expect(assessRisk([finding('injection', 'x', 0.9, 'instruction_override'), finding('pii', 'pii.email', 0.9)]).dominant).toBe('injection');
  });

  it('names a content category as the reason even when obfuscation scores higher', () => {
    const risk = assessRisk([finding('pii', 'pii.person', 0.6), finding('obfuscation', 'obfuscation.homoglyph', 0.9)]);
    expect(risk.categoryScores.obfuscation).toBeGreaterThan(risk.categoryScores.pii);
    expect(risk).toMatchObject({ dominant: 'pii', reason: 'pii_detected' });
    expect(assessRisk([finding('obfuscation', 'obfuscation.invisible_characters', 0.8)])).toMatchObject({ dominant: 'obfuscation', reason: 'injection_attempt' });
    expect(assessRisk([finding('secret', 'secret.github-pat', 0.95)]).reason).toBe('secret_leaked');
    expect(assessRisk([finding('policy', 'policy.blocked_term.0', 0.95)]).reason).toBe('policy_violation');
  });
});

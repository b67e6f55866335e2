import type { CheckReason, Finding, FindingCategory } from '../detection.types';

/**
 * Risk score (spec: below 0.2 clean, 0.2-0.7 borderline, above 0.7 blocked by default).
 *
 *   severity(f)  = weight(f) × confidence(f)                 each in [0, 1]
 *   category(k)  = 1 − Π over findings f in k of (1 − severity(f))     noisy-OR
 *   riskScore    = 1 − Π over categories k of (1 − category(k))
 *   reason       = the content category (secret, injection, policy, pii) with the highest
 *                  category(k); obfuscation alone names no content, so when it is the only
 *                  evidence the reason is injection_attempt (hiding text from the checks is an
 *                  evasion attempt, the "encoded payloads" family)
 *
 * Noisy-OR treats findings as independent evidence: it never exceeds 1, one strong finding
 * dominates, and several weak ones accumulate. Weights encode how harmful a finding of that
 * kind is when certain:
 *   - a leaked secret, a validated card / IBAN / SSN / passport number, a direct injection and a
 *     project policy hit each reach the blocked band alone (weight >= 0.85);
 *   - contact data alone is borderline: an email (0.5 × 0.9 = 0.45) or a phone number; an email
 *     plus a phone stays just below 0.7, adding a name crosses it (a full contact record);
 *   - obfuscation alone is borderline (weight 0.5) and lifts any finding it hides.
 * A check is blocked when riskScore >= the project's riskThreshold (default 0.7).
 * Which findings are scored depends on the direction (see checkText): on model output,
 * injection findings are reported but not scored.
 */
const PII_WEIGHTS: Readonly<Record<string, number>> = {
  credit_card: 0.95,
  iban: 0.95,
  us_ssn: 0.95,
  passport: 0.95,
  email: 0.5,
  phone: 0.5,
  date_of_birth: 0.5,
  street_address: 0.5,
  person: 0.4,
  ip_address: 0.35,
};

const INJECTION_WEIGHTS: Readonly<Record<string, number>> = {
  instruction_override: 0.95,
  role_hijack: 0.9,
  prompt_exfiltration: 0.9,
  template_spoofing: 0.85,
  indirect_injection: 0.9,
  encoded_payload: 0.95,
  adversarial_suffix: 0.8,
};

const CATEGORY_WEIGHTS: Readonly<Record<FindingCategory, number>> = {
  pii: 0.5,
  injection: 0.9,
  secret: 1,
  policy: 1,
  obfuscation: 0.5,
};

/** Tie-break order when two categories score the same. */
const PRECEDENCE: readonly FindingCategory[] = ['secret', 'injection', 'policy', 'pii', 'obfuscation'];

export const REASONS: Readonly<Record<FindingCategory, CheckReason>> = {
  pii: 'pii_detected',
  injection: 'injection_attempt',
  secret: 'secret_leaked',
  policy: 'policy_violation',
  obfuscation: 'injection_attempt',
};

export function findingWeight(finding: Finding): number {
  if (finding.category === 'pii') return PII_WEIGHTS[finding.ruleId.replace(/^pii\./, '')] ?? CATEGORY_WEIGHTS.pii;
  if (finding.category === 'injection' && finding.family !== undefined) return INJECTION_WEIGHTS[finding.family] ?? CATEGORY_WEIGHTS.injection;
  return CATEGORY_WEIGHTS[finding.category];
}

export interface RiskAssessment {
  riskScore: number;
  categoryScores: Record<FindingCategory, number>;
  /** The highest-scoring content category; `obfuscation` only when nothing else was found. */
  dominant: FindingCategory | null;
  /** What a blocked check reports: REASONS[dominant], null without findings. */
  reason: CheckReason | null;
}

export function assessRisk(findings: readonly Finding[]): RiskAssessment {
  const remaining: Record<FindingCategory, number> = { pii: 1, injection: 1, secret: 1, policy: 1, obfuscation: 1 };
  for (const finding of findings) {
    const severity = Math.min(1, Math.max(0, findingWeight(finding) * finding.confidence));
    remaining[finding.category] *= 1 - severity;
  }
  const categoryScores = { pii: 0, injection: 0, secret: 0, policy: 0, obfuscation: 0 } as Record<FindingCategory, number>;
  let clean = 1;
  let dominant: FindingCategory | null = null;
  for (const category of PRECEDENCE) {
    const score = 1 - remaining[category];
    categoryScores[category] = score;
    clean *= remaining[category];
    // Obfuscation lifts the score but does not name the reason while content was found.
    if (category === 'obfuscation' && dominant !== null) continue;
    if (score > 0 && (dominant === null || score > categoryScores[dominant])) dominant = category;
  }
  // Rounded so equal inputs give byte-equal results across runs and platforms.
  return { riskScore: Math.round((1 - clean) * 10_000) / 10_000, categoryScores, dominant, reason: dominant === null ? null : REASONS[dominant] };
}

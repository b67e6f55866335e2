/** Public result types of the detection engine; the gRPC adapter maps these one to one. */

export interface GuardrailPolicy {
  /** Risk at or above which a check is not allowed (spec default 0.7). */
  riskThreshold: number;
  /** Case-insensitive words or phrases; matched on the folded text so obfuscation does not evade them. */
  blockedTerms: string[];
  /** Project regular expressions (validated as bounded before use). */
  blockedPatterns: string[];
  /** Topic names; known topics expand to a lexicon, unknown ones match as phrases. */
  blockedTopics: string[];
}

export type CheckReason = 'pii_detected' | 'injection_attempt' | 'secret_leaked' | 'policy_violation' | 'obfuscation';

export type FindingCategory = 'pii' | 'injection' | 'secret' | 'policy' | 'obfuscation';

/** UTF-16 offsets into the ORIGINAL input: `input.slice(start, end)` is the entity. */
export interface PiiEntity {
  type: string;
  start: number;
  end: number;
  confidence: number;
}

/** Findings carry offsets only, never the matched text, so secrets do not leak into logs. */
export interface Finding {
  category: FindingCategory;
  ruleId: string;
  start: number;
  end: number;
  confidence: number;
  family?: string;
}

export interface CheckResult {
  allowed: boolean;
  reason?: CheckReason;
  riskScore: number;
  piiDetected: boolean;
  injectionAttempt: boolean;
  secretLeaked: boolean;
  policyViolation: boolean;
  piiEntities: PiiEntity[];
  findings: Finding[];
  obfuscated: boolean;
}

export type CheckDirection = 'input' | 'output';

export interface CheckOptions {
  /** `output` is model output (secret leakage, PII echo); adversarial-suffix detection is skipped there. */
  direction?: CheckDirection;
}

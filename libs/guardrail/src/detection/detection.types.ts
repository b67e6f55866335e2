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

/** Why a check was not allowed (spec: Safety-check result `reason`). */
export type CheckReason = 'pii_detected' | 'injection_attempt' | 'secret_leaked' | 'policy_violation';

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

export const CHECK_DIRECTIONS: readonly CheckDirection[] = ['input', 'output'];

export interface CheckOptions {
  /**
   * `input` (default): a prompt or document on its way to a model; every detector runs and
   * every finding is scored.
   * `output`: the model's answer. Secret leakage, PII (echoed or produced) and project policy
   * rules are detected and scored as on input. Injection phrases are still reported (finding
   * and `injectionAttempt` flag, for the trace's security fields) but are not scored, so they
   * never block an answer by themselves: an answer that quotes, explains or translates an
   * attack is not an attack on this model, the input it answered was already checked, and
   * whoever feeds the answer to another model checks it as that model's input. Adversarial
   * suffixes are not searched in output (generated text is not optimised gibberish).
   */
  direction?: CheckDirection;
}

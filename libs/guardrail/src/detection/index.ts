/**
 * Guardrail detection engine: PII, prompt injection, secret leakage, project policy rules and
 * obfuscation, scored into one risk value. Pure domain code with no I/O; the gRPC handler calls
 * `checkText` and maps the result.
 */
export type {
  CheckDirection,
  CheckOptions,
  CheckReason,
  CheckResult,
  Finding,
  FindingCategory,
  GuardrailPolicy,
  PiiEntity,
} from './detection.types';
export { assertCheckableInput, checkText, MAX_INPUT_CHARS, parseDirection, validatePolicy } from './check-text.usecase';
export { CHECK_DIRECTIONS } from './detection.types';
export { DEFAULT_RISK_THRESHOLD } from './policy/policy.detector';

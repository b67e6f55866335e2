// Test and evaluation helpers of the guardrail engine (fake secrets that match the rules, the
// rules themselves): for the guardrail's tests, eval corpus and benchmark, never for runtime code.
export * from './detection/secrets/fake-secret.factory';
export { ALPHABETS, SECRET_RULES } from './detection/secrets/secret.rules';

import { isDomainError } from '@gateway/errors';
import { compileSafePattern } from '@gateway/safe-regex';

/**
 * A project's `policy_rules.blocked_patterns` run inside every guardrail check, so they are
 * screened here with the guardrail's own rules (one implementation, @gateway/safe-regex): a
 * pattern stored here always compiles there. Null when the pattern is usable, else the reason.
 */
export function patternProblem(pattern: string): string | null {
  try {
    compileSafePattern(pattern);
    return null;
  } catch (error) {
    if (isDomainError(error) && error.errors?.[0]) return error.errors[0].replace(/^blocked pattern /, '');
    throw error;
  }
}

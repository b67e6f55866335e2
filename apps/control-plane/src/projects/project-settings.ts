import { DomainError } from '@gateway/errors';
import { patternProblem } from './pattern-safety';

/**
 * Project settings (spec: `routing_tiers`; the rest is "not shown" and decided here):
 *   routing_tiers      {simple?, complex?, secure?}: a registered model identifier or null
 *   risk_threshold     number 0..1 (guardrail blocks above it; default 0.7 there)
 *   monthly_budget_usd number >= 0 or null (no cap); 402 BUDGET_EXCEEDED at edge once reached
 *   shadow_model       a registered model identifier or null
 *   policy_rules       {blocked_terms?: string[], blocked_patterns?: string[], blocked_topics?: string[]}
 * Other keys are kept as sent (free-form), within MAX_SETTINGS_BYTES.
 */
export const TIERS = ['simple', 'complex', 'secure'] as const;
export const POLICY_LIMITS = { maxTerms: 200, maxTermLength: 200, maxPatterns: 50, maxTopics: 30 } as const;
const MAX_SETTINGS_BYTES = 64 * 1024;

export interface ProjectSettings {
  routing_tiers?: Partial<Record<(typeof TIERS)[number], string | null>>;
  risk_threshold?: number;
  monthly_budget_usd?: number | null;
  shadow_model?: string | null;
  policy_rules?: { blocked_terms?: string[]; blocked_patterns?: string[]; blocked_topics?: string[] };
  [key: string]: unknown;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge for settings PATCH: keys not sent are preserved, also inside nested objects. */
export function mergeSettings(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    merged[key] = isPlainObject(value) && isPlainObject(current[key]) ? mergeSettings(current[key] as Record<string, unknown>, value) : value;
  }
  return merged;
}

function stringListErrors(value: unknown, label: string, max: number, maxLength: number): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) return [`${label} must be a list of strings`];
  const errors: string[] = [];
  if (value.length > max) errors.push(`${label} has too many entries (maximum is ${max})`);
  if (value.some((item: string) => item.trim().length === 0)) errors.push(`${label} entries can't be blank`);
  if (value.some((item: string) => item.length > maxLength)) errors.push(`${label} entries are too long (maximum is ${maxLength} characters)`);
  return errors;
}

/**
 * Validates merged settings; every routing tier and the shadow model must name a model
 * registered on the project (`Model not authorized or found: <identifier>`). Throws 422 with
 * every message.
 */
export function validateSettings(settings: Record<string, unknown>, registeredIdentifiers: Set<string>): ProjectSettings {
  const errors: string[] = [];
  const tiers = settings.routing_tiers;
  if (tiers !== undefined) {
    if (!isPlainObject(tiers)) errors.push('Routing tiers must be an object with keys simple, complex, secure');
    else {
      for (const [tier, identifier] of Object.entries(tiers)) {
        if (!(TIERS as readonly string[]).includes(tier)) errors.push(`Routing tier ${tier} is unknown (use simple, complex or secure)`);
        else if (identifier === null) continue;
        else if (typeof identifier !== 'string' || identifier.trim() === '') errors.push(`Routing tier ${tier} must be a model identifier or null`);
        else if (!registeredIdentifiers.has(identifier)) errors.push(`Model not authorized or found: ${identifier}`);
      }
    }
  }
  const risk = settings.risk_threshold;
  if (risk !== undefined && (typeof risk !== 'number' || !Number.isFinite(risk) || risk < 0 || risk > 1)) errors.push('Risk threshold must be a number between 0 and 1');
  const budget = settings.monthly_budget_usd;
  if (budget !== undefined && budget !== null && (typeof budget !== 'number' || !Number.isFinite(budget) || budget < 0)) {
    errors.push('Monthly budget usd must be a non-negative number or null');
  }
  const shadow = settings.shadow_model;
  if (shadow !== undefined && shadow !== null) {
    if (typeof shadow !== 'string' || shadow.trim() === '') errors.push('Shadow model must be a model identifier or null');
    else if (!registeredIdentifiers.has(shadow)) errors.push(`Model not authorized or found: ${shadow}`);
  }
  const rules = settings.policy_rules;
  if (rules !== undefined) {
    if (!isPlainObject(rules)) errors.push('Policy rules must be an object with blocked_terms, blocked_patterns, blocked_topics');
    else {
      for (const key of Object.keys(rules)) {
        if (!['blocked_terms', 'blocked_patterns', 'blocked_topics'].includes(key)) errors.push(`Policy rules key ${key} is unknown (use blocked_terms, blocked_patterns, blocked_topics)`);
      }
      if (rules.blocked_terms !== undefined) errors.push(...stringListErrors(rules.blocked_terms, 'Blocked terms', POLICY_LIMITS.maxTerms, POLICY_LIMITS.maxTermLength));
      if (rules.blocked_topics !== undefined) errors.push(...stringListErrors(rules.blocked_topics, 'Blocked topics', POLICY_LIMITS.maxTopics, POLICY_LIMITS.maxTermLength));
      if (rules.blocked_patterns !== undefined) {
        const listErrors = stringListErrors(rules.blocked_patterns, 'Blocked patterns', POLICY_LIMITS.maxPatterns, 1_000);
        errors.push(...listErrors);
        if (listErrors.length === 0) {
          for (const pattern of rules.blocked_patterns as string[]) {
            const problem = patternProblem(pattern);
            if (problem) errors.push(`Blocked pattern ${JSON.stringify(pattern.slice(0, 60))} ${problem}`);
          }
        }
      }
    }
  }
  if (Buffer.byteLength(JSON.stringify(settings)) > MAX_SETTINGS_BYTES) errors.push(`Settings are too large (maximum is ${MAX_SETTINGS_BYTES} bytes)`);
  if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
  return settings as ProjectSettings;
}

/** Identifiers a project's settings point at (routing tiers and the shadow model), with where. */
export function referencedModels(settings: Record<string, unknown>): Map<string, string[]> {
  const references = new Map<string, string[]>();
  const add = (identifier: unknown, where: string) => {
    if (typeof identifier !== 'string' || !identifier) return;
    references.set(identifier, [...(references.get(identifier) ?? []), where]);
  };
  if (isPlainObject(settings.routing_tiers)) for (const [tier, identifier] of Object.entries(settings.routing_tiers)) add(identifier, `routing_tiers.${tier}`);
  add(settings.shadow_model, 'shadow_model');
  return references;
}

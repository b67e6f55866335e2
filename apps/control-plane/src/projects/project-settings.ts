import { z } from 'zod';
import { DomainError } from '@gateway/errors';

/** Project settings: routing tiers plus the keys this gateway adds (spec: "not shown"). */
export const projectSettingsSchema = z
  .object({
    routing_tiers: z
      .object({ simple: z.string().min(1).nullable(), complex: z.string().min(1).nullable(), secure: z.string().min(1).nullable() })
      .partial()
      .strict(),
    risk_threshold: z.number().min(0).max(1),
    monthly_budget_usd: z.number().nonnegative().nullable(),
    shadow_model: z.string().min(1).nullable(),
    policy_rules: z
      .object({
        blocked_terms: z.array(z.string().min(1).max(200)).max(500),
        blocked_patterns: z.array(z.string().min(1).max(500)).max(100),
        blocked_topics: z.array(z.string().min(1).max(100)).max(100),
      })
      .partial()
      .strict(),
  })
  .partial()
  .passthrough();

export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
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

/** Validates settings and that every routing tier names a model registered on the project. */
export function validateSettings(settings: Record<string, unknown>, registeredIdentifiers: Set<string>): ProjectSettings {
  const parsed = projectSettingsSchema.safeParse(settings);
  if (!parsed.success) {
    throw new DomainError('VALIDATION_FAILED', 'Invalid settings', { errors: parsed.error.issues.map((issue) => `settings.${issue.path.join('.')}: ${issue.message}`) });
  }
  const errors: string[] = [];
  for (const [tier, identifier] of Object.entries(parsed.data.routing_tiers ?? {})) {
    if (identifier && !registeredIdentifiers.has(identifier)) errors.push(`Model not authorized or found: ${identifier} (routing_tiers.${tier})`);
  }
  if (parsed.data.shadow_model && !registeredIdentifiers.has(parsed.data.shadow_model)) errors.push(`Model not authorized or found: ${parsed.data.shadow_model} (shadow_model)`);
  for (const pattern of parsed.data.policy_rules?.blocked_patterns ?? []) {
    try {
      new RegExp(pattern, 'u');
    } catch {
      errors.push(`settings.policy_rules.blocked_patterns: invalid pattern ${JSON.stringify(pattern)}`);
    }
  }
  if (errors.length > 0) throw new DomainError('VALIDATION_FAILED', errors.join(', '), { errors });
  return parsed.data;
}

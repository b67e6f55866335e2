import { TIERS, type ModelDefinition, type ModelDefinitionInput, type Project, type ProjectSettings, type Provider, type Tier } from './types';

/** Form state is text (what the inputs hold); these map it to and from the API bodies. */
export type Result<T> = { ok: true; value: T } | { ok: false; errors: string[] };

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean);

export interface ProjectSettingsForm {
  name: string;
  description: string;
  tiers: Record<Tier, string>;
  riskThreshold: string;
  monthlyBudget: string;
  shadowModel: string;
  blockedTerms: string;
  blockedPatterns: string;
  blockedTopics: string;
}

export function toProjectSettingsForm(project: Project): ProjectSettingsForm {
  const s = project.settings ?? {};
  const tiers = s.routing_tiers ?? {};
  const rules = s.policy_rules ?? {};
  return {
    name: project.name,
    description: project.description ?? '',
    tiers: { simple: tiers.simple ?? '', complex: tiers.complex ?? '', secure: tiers.secure ?? '' },
    riskThreshold: s.risk_threshold === undefined ? '' : String(s.risk_threshold),
    monthlyBudget: s.monthly_budget_usd === undefined || s.monthly_budget_usd === null ? '' : String(s.monthly_budget_usd),
    shadowModel: s.shadow_model ?? '',
    blockedTerms: (rules.blocked_terms ?? []).join('\n'),
    blockedPatterns: (rules.blocked_patterns ?? []).join('\n'),
    blockedTopics: (rules.blocked_topics ?? []).join('\n'),
  };
}

/**
 * The PATCH body. Settings merge at the API, so every key the form owns is sent: an empty tier
 * or shadow model is `null` (cleared), an empty budget `null` (no cap), an empty risk threshold
 * is left out (the guardrail's default applies).
 */
export function projectSettingsPatch(form: ProjectSettingsForm): Result<{ name: string; description: string; settings: ProjectSettings }> {
  const errors: string[] = [];
  const settings: ProjectSettings = {
    routing_tiers: Object.fromEntries(TIERS.map((tier) => [tier, form.tiers[tier] || null])) as Record<Tier, string>,
    shadow_model: form.shadowModel || null,
    policy_rules: { blocked_terms: lines(form.blockedTerms), blocked_patterns: lines(form.blockedPatterns), blocked_topics: lines(form.blockedTopics) },
  };
  if (form.riskThreshold.trim() !== '') {
    const risk = Number(form.riskThreshold);
    if (!Number.isFinite(risk) || risk < 0 || risk > 1) errors.push('Risk threshold must be a number between 0 and 1');
    else settings.risk_threshold = risk;
  }
  if (form.monthlyBudget.trim() === '') settings.monthly_budget_usd = null;
  else {
    const budget = Number(form.monthlyBudget);
    if (!Number.isFinite(budget) || budget < 0) errors.push('Monthly budget usd must be a non-negative number or null');
    else settings.monthly_budget_usd = budget;
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: { name: form.name, description: form.description, settings } };
}

export interface ModelForm {
  name: string;
  identifier: string;
  provider: Provider;
  baseUrl: string;
  /** Write-only: empty keeps what is stored. */
  apiKey: string;
  removeApiKey: boolean;
  isPublic: boolean;
  inputCostPer1k: string;
  outputCostPer1k: string;
  dataRetentionDays: string;
  regionRestriction: string;
  currency: string;
  infrastructure: string;
  fallbackIdentifier: string;
  /** additional_config keys other than infrastructure and fallback_identifier, as JSON. */
  extraConfig: string;
}

export function toModelForm(model?: ModelDefinition): ModelForm {
  const { infrastructure, fallback_identifier, ...extra } = model?.additional_config ?? {};
  return {
    name: model?.name ?? '',
    identifier: model?.identifier ?? '',
    provider: model?.provider ?? 'openai',
    baseUrl: model?.base_url ?? '',
    apiKey: '',
    removeApiKey: false,
    isPublic: model?.is_public ?? true,
    inputCostPer1k: model ? String(model.input_cost_per_1k) : '',
    outputCostPer1k: model ? String(model.output_cost_per_1k) : '',
    dataRetentionDays: model ? String(model.data_retention_days) : '30',
    regionRestriction: model?.region_restriction ?? 'global',
    currency: model?.currency ?? 'USD',
    infrastructure: typeof infrastructure === 'string' ? infrastructure : '',
    fallbackIdentifier: typeof fallback_identifier === 'string' ? fallback_identifier : '',
    extraConfig: Object.keys(extra).length > 0 ? JSON.stringify(extra, null, 2) : '',
  };
}

/**
 * The create or PATCH body of a model. `api_key` is sent only when typed (store or rotate) or
 * when removal is asked (`''` clears it); it is never read back.
 */
export function modelPayload(form: ModelForm): Result<ModelDefinitionInput> {
  const errors: string[] = [];
  const payload: ModelDefinitionInput = {
    name: form.name.trim(),
    identifier: form.identifier.trim(),
    provider: form.provider,
    base_url: form.baseUrl.trim(),
    is_public: form.isPublic,
    region_restriction: form.regionRestriction.trim() || 'global',
    currency: form.currency.trim() || 'USD',
  };
  const number = (text: string, label: string, apply: (value: number) => void, integer = false) => {
    if (text.trim() === '') return;
    const value = Number(text);
    if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) errors.push(integer ? `${label} must be a whole number` : `${label} must be a number`);
    else apply(value);
  };
  number(form.inputCostPer1k, 'Input cost per 1k', (value) => (payload.input_cost_per_1k = value));
  number(form.outputCostPer1k, 'Output cost per 1k', (value) => (payload.output_cost_per_1k = value));
  number(form.dataRetentionDays, 'Data retention days', (value) => (payload.data_retention_days = value), true);

  let extra: Record<string, unknown> = {};
  if (form.extraConfig.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(form.extraConfig);
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) errors.push('Additional config must be an object');
      else extra = parsed as Record<string, unknown>;
    } catch {
      errors.push('Additional config must be valid JSON');
    }
  }
  payload.additional_config = {
    ...extra,
    ...(form.infrastructure.trim() ? { infrastructure: form.infrastructure.trim() } : {}),
    ...(form.fallbackIdentifier ? { fallback_identifier: form.fallbackIdentifier } : {}),
  };
  if (form.apiKey !== '') payload.api_key = form.apiKey;
  else if (form.removeApiKey) payload.api_key = '';
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: payload };
}

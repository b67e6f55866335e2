import { modelPayload, projectSettingsPatch, toModelForm, toProjectSettingsForm } from './forms';
import type { ModelDefinition, Project } from './types';

const project: Project = {
  id: 3,
  name: 'Support bot',
  description: 'Tier 1',
  status: 'active',
  settings: { routing_tiers: { simple: 'mini', complex: 'large' }, risk_threshold: 0.6, policy_rules: { blocked_terms: ['acme secret'] } },
  total_monthly_spend: 0,
  created_at: '2026-03-01T00:00:00Z',
};

describe('project settings form', () => {
  it('reads the settings into text fields', () => {
    expect(toProjectSettingsForm(project)).toEqual({
      name: 'Support bot',
      description: 'Tier 1',
      tiers: { simple: 'mini', complex: 'large', secure: '' },
      riskThreshold: '0.6',
      monthlyBudget: '',
      shadowModel: '',
      blockedTerms: 'acme secret',
      blockedPatterns: '',
      blockedTopics: '',
    });
  });

  it('sends every owned key: cleared tiers and budget as null, rule lists line by line', () => {
    const form = { ...toProjectSettingsForm(project), monthlyBudget: '250', blockedTopics: ' weapons \n\n gambling ' };
    expect(projectSettingsPatch(form)).toEqual({
      ok: true,
      value: {
        name: 'Support bot',
        description: 'Tier 1',
        settings: {
          routing_tiers: { simple: 'mini', complex: 'large', secure: null },
          shadow_model: null,
          risk_threshold: 0.6,
          monthly_budget_usd: 250,
          policy_rules: { blocked_terms: ['acme secret'], blocked_patterns: [], blocked_topics: ['weapons', 'gambling'] },
        },
      },
    });
    const noCap = projectSettingsPatch({ ...form, monthlyBudget: '', riskThreshold: '' });
    expect(noCap.ok && noCap.value.settings.monthly_budget_usd).toBeNull();
    expect(noCap.ok && 'risk_threshold' in noCap.value.settings).toBe(false);
  });

  it('refuses a risk threshold outside 0..1 and a negative budget', () => {
    expect(projectSettingsPatch({ ...toProjectSettingsForm(project), riskThreshold: '1.5', monthlyBudget: '-1' })).toEqual({
      ok: false,
      errors: ['Risk threshold must be a number between 0 and 1', 'Monthly budget usd must be a non-negative number or null'],
    });
  });
});

const model: ModelDefinition = {
  id: 9,
  project_id: 3,
  name: 'Mini',
  identifier: 'mini',
  provider: 'openai',
  base_url: 'http://127.0.0.1:8090/v1',
  has_api_key: true,
  is_public: true,
  input_cost_per_1k: 0.00015,
  output_cost_per_1k: 0.0006,
  data_retention_days: 30,
  region_restriction: 'global',
  currency: 'USD',
  additional_config: { infrastructure: 'mock-cloud', fallback_identifier: 'large', temperature: 0 },
  fallback_identifier: 'large',
  created_at: '2026-03-01T00:00:00Z',
  updated_at: '2026-03-01T00:00:00Z',
};

describe('model form', () => {
  it('never pre-fills the api key and splits additional_config', () => {
    const form = toModelForm(model);
    expect(form.apiKey).toBe('');
    expect(form).toMatchObject({ infrastructure: 'mock-cloud', fallbackIdentifier: 'large', extraConfig: '{\n  "temperature": 0\n}', inputCostPer1k: '0.00015' });
  });

  it('leaves api_key out when the field is empty (the stored key stays)', () => {
    const result = modelPayload(toModelForm(model));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect('api_key' in result.value).toBe(false);
    expect(result.value).toEqual({
      name: 'Mini',
      identifier: 'mini',
      provider: 'openai',
      base_url: 'http://127.0.0.1:8090/v1',
      is_public: true,
      region_restriction: 'global',
      currency: 'USD',
      input_cost_per_1k: 0.00015,
      output_cost_per_1k: 0.0006,
      data_retention_days: 30,
      additional_config: { temperature: 0, infrastructure: 'mock-cloud', fallback_identifier: 'large' },
    });
  });

  it('sends a typed key, or an empty one to remove it', () => {
    const typed = modelPayload({ ...toModelForm(model), apiKey: 'sk-new' });
    expect(typed.ok && typed.value.api_key).toBe('sk-new');
    const removed = modelPayload({ ...toModelForm(model), removeApiKey: true });
    expect(removed.ok && removed.value.api_key).toBe('');
  });

  it('reports numbers and JSON that do not parse', () => {
    expect(modelPayload({ ...toModelForm(), name: 'x', identifier: 'x', inputCostPer1k: 'abc', dataRetentionDays: '1.5', extraConfig: '[1]' })).toEqual({
      ok: false,
      errors: ['Input cost per 1k must be a number', 'Data retention days must be a whole number', 'Additional config must be an object'],
    });
    expect(modelPayload({ ...toModelForm(), extraConfig: '{nope' })).toEqual({ ok: false, errors: ['Additional config must be valid JSON'] });
  });
});

import { DomainError } from '@gateway/errors';
import { routeRequest } from './route-request.usecase';
import type { RegistryModel, RoutingSettings } from './routing.types';

function model(identifier: string, overrides: Partial<RegistryModel> = {}): RegistryModel {
  return { identifier, provider: 'openai', isPublic: true, inputCostPer1k: 0.001, outputCostPer1k: 0.002, additionalConfig: {}, ...overrides };
}

const registry: RegistryModel[] = [
  model('mini', { inputCostPer1k: 0.00015, outputCostPer1k: 0.0006, additionalConfig: { fallback_identifier: 'haiku' } }),
  model('haiku', { provider: 'anthropic', additionalConfig: { fallback_identifier: 'mini' } }),
  model('opus', { provider: 'anthropic', inputCostPer1k: 0.015, outputCostPer1k: 0.075, additionalConfig: { fallback_identifier: 'mini' } }),
  model('vault', { provider: 'internal', isPublic: false, inputCostPer1k: 0, outputCostPer1k: 0, additionalConfig: { fallback_identifier: 'mini' } }),
  model('vault-b', { provider: 'internal', isPublic: false, additionalConfig: { fallback_identifier: 'vault-c' } }),
  model('vault-c', { provider: 'internal', isPublic: false }),
];
const settings: RoutingSettings = { routingTiers: { simple: 'mini', complex: 'opus', secure: 'vault' } };

const NO_PRIVATE = 'No private model configured for sensitive routing';
const UNCONFIGURED = 'No model configured — set routing tiers or fallbacks in project settings';

describe('routeRequest', () => {
  it('resolves a simple request to the simple tier model with its fallback path and cost', () => {
    const decision = routeRequest({ input: 'Say hello', sensitive: false }, settings, registry);
    expect(decision).toMatchObject({ status: 'resolved', tier: 'simple', model: 'mini', fallbackPath: ['haiku'] });
    // 3 prompt tokens, 64 expected completion tokens: 3 × 0.00015/1k + 64 × 0.0006/1k
    expect(decision.status === 'resolved' && decision.estimatedCostUsd).toBe(0.00003885);
    expect(decision.explanation).toContain('fallback path: haiku');
  });

  it('resolves a complex request to the complex tier model', () => {
    const decision = routeRequest({ input: 'Analyze the incident and explain why it happened', sensitive: false }, settings, registry);
    expect(decision).toMatchObject({ status: 'resolved', tier: 'complex', model: 'opus', fallbackPath: ['mini', 'haiku'] });
  });

  it('resolves a sensitive request to the private secure model and drops public fallbacks', () => {
    const decision = routeRequest({ input: 'My SSN is 123-45-6789', sensitive: true }, settings, registry);
    expect(decision).toMatchObject({ status: 'resolved', tier: 'secure', model: 'vault', fallbackPath: [], estimatedCostUsd: 0 });
  });

  it('keeps private fallbacks for vpc_only tools', () => {
    const decision = routeRequest(
      { input: 'Look up the customer', sensitive: false, tools: [{ type: 'mcp', server_label: 'crm', vpc_only: true }] },
      { routingTiers: { secure: 'vault-b' } },
      registry,
    );
    expect(decision).toMatchObject({ status: 'resolved', tier: 'secure', model: 'vault-b', fallbackPath: ['vault-c'] });
  });

  it('blocks a sensitive request when the secure tier is unset', () => {
    const decision = routeRequest({ input: 'password=hunter2', sensitive: true }, { routingTiers: { simple: 'mini' } }, registry);
    expect(decision).toMatchObject({ status: 'blocked', tier: 'secure', reason: NO_PRIVATE, fallbackPath: [] });
    expect(decision.explanation).toContain('no model configured for the secure tier');
  });

  it('blocks a sensitive request when the secure tier points at a public model', () => {
    const decision = routeRequest({ input: 'password=hunter2', sensitive: true }, { routingTiers: { secure: 'opus' } }, registry);
    expect(decision).toMatchObject({ status: 'blocked', tier: 'secure', reason: NO_PRIVATE });
  });

  it('blocks a vpc_only request when the secure tier model is not registered', () => {
    const decision = routeRequest(
      { input: 'hi', sensitive: false, tools: [{ type: 'mcp', vpc_only: true }] },
      { routingTiers: { secure: 'deleted-model' } },
      registry,
    );
    expect(decision).toMatchObject({ status: 'blocked', reason: NO_PRIVATE });
  });

  it('answers unconfigured when the tier has no model, without borrowing another tier', () => {
    const decision = routeRequest({ input: 'Say hello', sensitive: false }, { routingTiers: { complex: 'opus' } }, registry);
    expect(decision).toMatchObject({ status: 'unconfigured', tier: 'simple', reason: UNCONFIGURED, fallbackPath: [] });
  });

  it('answers unconfigured when the tier names an unregistered model', () => {
    const decision = routeRequest({ input: 'Say hello', sensitive: false }, { routingTiers: { simple: 'gone' } }, registry);
    expect(decision).toMatchObject({ status: 'unconfigured', reason: UNCONFIGURED });
    expect(decision.explanation).toContain('model gone of the simple tier is not registered on the project');
  });

  it('answers unconfigured with empty settings', () => {
    expect(routeRequest({ input: 'hi', sensitive: false }, { routingTiers: {} }, []).status).toBe('unconfigured');
  });

  it('survives fallback cycles in the registry', () => {
    const cyclic = [model('a', { additionalConfig: { fallback_identifier: 'b' } }), model('b', { additionalConfig: { fallback_identifier: 'a' } })];
    const decision = routeRequest({ input: 'hi', sensitive: false }, { routingTiers: { simple: 'a' } }, cyclic);
    expect(decision).toMatchObject({ status: 'resolved', model: 'a', fallbackPath: ['b'] });
  });

  it('uses a forced model but keeps the privacy rule', () => {
    expect(routeRequest({ input: 'hi', sensitive: false, forceModel: 'opus' }, settings, registry)).toMatchObject({ status: 'resolved', tier: 'simple', model: 'opus' });
    expect(routeRequest({ input: 'hi', sensitive: true, forceModel: 'opus' }, settings, registry)).toMatchObject({ status: 'blocked', reason: NO_PRIVATE });
    expect(() => routeRequest({ input: 'hi', sensitive: false, forceModel: 'nope' }, settings, registry)).toThrow(
      new DomainError('VALIDATION_FAILED', 'Model not authorized or found: nope'),
    );
  });

  it('exposes the features it decided on', () => {
    const decision = routeRequest({ input: 'Summarize', sensitive: false, attachments: 1 }, settings, registry);
    expect(decision.features).toMatchObject({ documentAttachments: 1, score: 3 });
    expect(decision.tier).toBe('complex');
  });
});

import type { CallContext } from '@gateway/grpc';
import type { Logger } from '@gateway/logging';
import { Metadata } from '@grpc/grpc-js';
import type { controlplane, router } from '@gateway/proto';
import { routerHandlers } from './router.grpc';

function model(identifier: string, isPublic: boolean, fallback?: string): controlplane.ModelDefinition {
  return {
    id: 1, projectId: 3, name: identifier, identifier, provider: 'openai', baseUrl: '', hasApiKey: true, isPublic,
    inputCostPer1k: 0.001, outputCostPer1k: 0.002, dataRetentionDays: 30, regionRestriction: 'global', currency: 'USD',
    additionalConfig: fallback ? { fallback_identifier: fallback } : {}, fallbackIdentifier: fallback ?? '', createdAt: '', updatedAt: '',
  };
}

const policy = (settings: Record<string, unknown>): controlplane.ProjectPolicy => ({
  project: { id: 3, name: 'p', description: '', status: 'active', settings, totalMonthlySpend: 0, createdAt: '', organizationId: 1 },
  models: [model('mini', true, 'large'), model('large', true, 'mini'), model('vault', false)],
});

const request = (patch: Partial<router.RouteRequest> = {}): router.RouteRequest => ({ projectId: 3, input: 'Say hello', tools: [], sensitive: false, attachments: 0, ...patch });
const service = (): CallContext => ({ principal: { kind: 'service' }, signal: new AbortController().signal, metadata: new Metadata(), deadline: undefined, logger: {} as Logger });

describe('routerHandlers', () => {
  const tiers = { routing_tiers: { simple: 'mini', complex: 'large', secure: 'vault' } };

  it('routes with the cached policy of the project', async () => {
    const asked: number[] = [];
    const handlers = routerHandlers({ get: async (projectId) => (asked.push(projectId), policy(tiers)) });
    const decision = await handlers.route!(request(), service());
    expect(asked).toEqual([3]);
    expect(decision).toMatchObject({ status: 'resolved', tier: 'simple', model: 'mini', fallbackPath: ['large'], reason: '' });
    expect(decision.estimatedCost).toBeGreaterThan(0);
  });

  it('applies force_model, keeping the privacy rule', async () => {
    const handlers = routerHandlers({ get: async () => policy(tiers) });
    expect(await handlers.route!(request({ forceModel: 'large' }), service())).toMatchObject({ status: 'resolved', model: 'large' });
    expect(await handlers.route!(request({ forceModel: 'large', sensitive: true }), service())).toMatchObject({ status: 'blocked', reason: 'No private model configured for sensitive routing' });
    await expect(handlers.route!(request({ forceModel: 'nope' }), service())).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: 'Model not authorized or found: nope' });
  });

  it('ignores routing tier values that are not strings', async () => {
    const decision = await routerHandlers({ get: async () => policy({ routing_tiers: { simple: 42 } }) }).route!(request(), service());
    expect(decision).toMatchObject({ status: 'unconfigured', tier: 'simple', reason: 'No model configured — set routing tiers or fallbacks in project settings', estimatedCost: undefined });
  });

  it('refuses tools without a type and a foreign project for an API key', async () => {
    const handlers = routerHandlers({ get: async () => policy(tiers) });
    await expect(handlers.route!(request({ tools: [{ name: 'x' }] }), service())).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const foreign: CallContext = { ...service(), principal: { kind: 'api_key', keyId: 'ak_1', projectId: 9, organizationId: 1 } };
    await expect(handlers.route!(request(), foreign)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

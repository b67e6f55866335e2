import type { controlplane } from '@gateway/proto';
import { ModelCredentialsCache } from './model-credentials.cache';

function definition(identifier: string, patch: Partial<controlplane.ModelDefinition> = {}): controlplane.ModelDefinition {
  return {
    id: 1, projectId: 1, name: identifier, identifier, provider: 'anthropic', baseUrl: '', hasApiKey: true, isPublic: true,
    inputCostPer1k: 0.25, outputCostPer1k: 1.25, dataRetentionDays: 30, regionRestriction: 'global', currency: 'USD',
    additionalConfig: { provider_model: 'claude-x' }, fallbackIdentifier: '', createdAt: '', updatedAt: '', ...patch,
  };
}

function source(models: Record<string, { model: controlplane.ModelDefinition; apiKey: string }>) {
  const calls: string[][] = [];
  return {
    calls,
    resolveModelCredentials: async (request: controlplane.ResolveModelCredentialsRequest) => {
      calls.push(request.identifiers);
      return { models: request.identifiers.filter((id) => models[id]).map((id) => models[id]) };
    },
  };
}

describe('ModelCredentialsCache', () => {
  const models = { a: { model: definition('a'), apiKey: 'sk-a' }, b: { model: definition('b', { baseUrl: 'http://vllm:8000', isPublic: false }), apiKey: '' } };

  it('maps definitions onto callable targets', async () => {
    const cache = new ModelCredentialsCache(source(models), 1_000);
    const resolved = await cache.resolve(1, ['a', 'b', 'missing']);
    expect(resolved.get('a')).toEqual({
      isPublic: true,
      target: { identifier: 'a', provider: 'anthropic', baseUrl: undefined, apiKey: 'sk-a', inputCostPer1k: 0.25, outputCostPer1k: 1.25, additionalConfig: { provider_model: 'claude-x' } },
    });
    expect(resolved.get('b')?.target).toMatchObject({ baseUrl: 'http://vllm:8000', apiKey: undefined });
    expect(resolved.get('b')?.isPublic).toBe(false);
    expect(resolved.has('missing')).toBe(false);
  });

  it('serves cached entries until the TTL passes, and asks again for unknown identifiers', async () => {
    let now = 0;
    const upstream = source(models);
    const cache = new ModelCredentialsCache(upstream, 1_000, () => now);
    await cache.resolve(1, ['a', 'missing']);
    await cache.resolve(1, ['a', 'missing']);
    now = 999;
    await cache.resolve(1, ['a']);
    now = 1_000;
    await cache.resolve(1, ['a']);
    expect(upstream.calls).toEqual([['a', 'missing'], ['missing'], ['a']]);
  });

  it('drops a project on invalidation, including an answer that was in flight', async () => {
    const upstream = source(models);
    const cache = new ModelCredentialsCache(upstream, 60_000);
    await cache.resolve(1, ['a']);
    cache.invalidate(1);
    const inFlight = cache.resolve(1, ['a']);
    cache.invalidate(1);
    await inFlight;
    await cache.resolve(1, ['a']);
    expect(upstream.calls).toEqual([['a'], ['a'], ['a']]);
  });

  it('caches nothing with a zero TTL', async () => {
    const upstream = source(models);
    const cache = new ModelCredentialsCache(upstream, 0);
    await cache.resolve(1, ['a']);
    await cache.resolve(1, ['a']);
    expect(upstream.calls).toHaveLength(2);
  });
});

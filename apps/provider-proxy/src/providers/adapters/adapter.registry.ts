import { assertUnreachable } from '@gateway/errors';
import type { ProviderName } from '../provider.types';
import { createAnthropicAdapter } from './anthropic.adapter';
import { createAzureAdapter } from './azure.adapter';
import { createBedrockAdapter } from './bedrock.adapter';
import { createGeminiAdapter } from './gemini.adapter';
import { createOpenAiAdapter } from './openai.adapter';
import type { ProviderAdapter } from './provider-adapter.types';

function createAdapter(provider: ProviderName): ProviderAdapter {
  switch (provider) {
    case 'openai':
    case 'internal': return createOpenAiAdapter(provider);
    case 'azure': return createAzureAdapter();
    case 'anthropic': return createAnthropicAdapter();
    case 'gemini': return createGeminiAdapter();
    case 'bedrock': return createBedrockAdapter();
    default: return assertUnreachable(provider);
  }
}

/** Adapters are stateless, so one instance per provider serves every request. */
export function createAdapterRegistry(): (provider: ProviderName) => ProviderAdapter | undefined {
  const adapters = new Map<ProviderName, ProviderAdapter>();
  return (provider) => {
    let adapter = adapters.get(provider);
    if (!adapter) {
      try {
        adapter = createAdapter(provider);
      } catch {
        return undefined; // an unknown provider string from the registry
      }
      adapters.set(provider, adapter);
    }
    return adapter;
  };
}

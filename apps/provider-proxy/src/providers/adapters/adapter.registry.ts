import { assertUnreachable } from '@gateway/errors';
import type { CompletionRequest, ProviderName } from '../provider.types';
import { mcpTools } from './adapter-support.util';
import { createAnthropicAdapter } from './anthropic.adapter';
import { createAzureAdapter } from './azure.adapter';
import { createBedrockAdapter } from './bedrock.adapter';
import { createGeminiAdapter } from './gemini.adapter';
import { createOpenAiAdapter } from './openai.adapter';
import { createOpenAiResponsesAdapter } from './openai-responses.adapter';
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

/**
 * Adapters are stateless, so one instance per provider serves every request. The request picks
 * the wire API where a provider has two: `openai` with MCP tools speaks the Responses API.
 */
export function createAdapterRegistry(): (provider: ProviderName, req: CompletionRequest) => ProviderAdapter | undefined {
  const adapters = new Map<ProviderName, ProviderAdapter>();
  const responses = createOpenAiResponsesAdapter();
  return (provider, req) => {
    if (provider === 'openai' && mcpTools(req).length > 0) return responses;
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

import type { CompletionRequest, ModelTarget } from '../provider.types';
import { configFailure } from '../resilience/upstream-attempt.error';
import { boundedMemo, joinUrl, mcpNotSupported, mcpTools, requireBaseUrl, upstreamModel } from './adapter-support.util';
import { openAiChatBody, parseOpenAiCompletion, parseOpenAiStream } from './openai-chat.translator';
import type { ProviderAdapter } from './provider-adapter.types';

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * Base URLs of OpenAI-compatible servers conventionally include the version (`.../v1`), as the
 * OpenAI SDKs expect. A bare origin (`http://vllm:8000`) gets `/v1` so both spellings work.
 */
export function openAiBaseWithVersion(baseUrl: string): string {
  const parsed = new URL(baseUrl);
  return parsed.pathname === '/' || parsed.pathname === '' ? joinUrl(baseUrl, 'v1') : baseUrl;
}

export function chatCompletionsUrl(baseUrl: string): string {
  return joinUrl(openAiBaseWithVersion(baseUrl), 'chat/completions');
}

/**
 * `openai`: chat completions with a Bearer key, against api.openai.com or any compatible server.
 * `internal`: the same wire format for self-hosted servers; the key is optional (vLLM without
 * --api-key, Ollama) and sent only when the registry holds one.
 *
 * MCP: chat completions has no remote-MCP tool type. `openai` requests with MCP tools go to the
 * Responses API instead (openai-responses.adapter.ts, chosen by the registry); `internal` refuses
 * them, since self-hosted compatible servers do not run remote MCP servers.
 */
export function createOpenAiAdapter(provider: 'openai' | 'internal'): ProviderAdapter {
  const endpointOf = boundedMemo(256, (base) => ({ url: chatCompletionsUrl(base), official: new URL(base).hostname === 'api.openai.com' }));
  return {
    unsupportedReason(_target: ModelTarget, req: CompletionRequest) {
      return mcpTools(req).length > 0 ? mcpNotSupported(provider) : undefined;
    },
    buildRequest(target, req, { stream }) {
      const base = requireBaseUrl(target.baseUrl, provider === 'openai' ? OPENAI_DEFAULT_BASE_URL : undefined, provider);
      if (provider === 'openai' && !target.apiKey) throw configFailure('openai model has no api_key');
      const { url, official } = endpointOf(base);
      // OpenAI deprecated max_tokens (reasoning models reject it); compatible servers may only know it.
      const maxTokensField = official ? 'max_completion_tokens' : 'max_tokens';
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json' };
      if (target.apiKey) headers.authorization = `Bearer ${target.apiKey}`;
      return {
        url,
        headers,
        body: JSON.stringify(openAiChatBody(upstreamModel(target), req, { stream, maxTokensField })),
      };
    },
    parseCompletion: parseOpenAiCompletion,
    parseStream: parseOpenAiStream,
  };
}

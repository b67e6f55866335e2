import { configFailure } from '../resilience/upstream-attempt.error';
import { configString, joinUrl, mcpNotSupported, mcpTools, upstreamModel } from './adapter-support.util';
import { openAiChatBody, parseOpenAiCompletion, parseOpenAiStream } from './openai-chat.translator';
import type { ProviderAdapter } from './provider-adapter.types';

// GA version that supports tools, stream_options.include_usage and max_completion_tokens.
const DEFAULT_API_VERSION = '2024-10-21';

/**
 * Azure OpenAI: chat completions on a deployment URL with an `api-key` header.
 * `{base}/openai/deployments/{deployment}/chat/completions?api-version=...`
 * base_url is the resource endpoint (`https://<resource>.openai.azure.com`); without it,
 * `additional_config.resource` names the resource. The deployment defaults to provider_model.
 * MCP: refused, as for every chat-completions provider.
 */
export function createAzureAdapter(): ProviderAdapter {
  return {
    unsupportedReason(_target, req) {
      return mcpTools(req).length > 0 ? mcpNotSupported('azure') : undefined;
    },
    buildRequest(target, req, { stream }) {
      const resource = configString(target, 'resource');
      const base = target.baseUrl?.trim() || (resource ? `https://${resource}.openai.azure.com` : undefined);
      if (!base) throw configFailure('azure model needs a base_url or additional_config.resource');
      if (!target.apiKey) throw configFailure('azure model has no api_key');
      const deployment = configString(target, 'deployment') ?? upstreamModel(target);
      const apiVersion = configString(target, 'api_version') ?? DEFAULT_API_VERSION;
      const url = new URL(joinUrl(base, `openai/deployments/${encodeURIComponent(deployment)}/chat/completions`));
      url.searchParams.set('api-version', apiVersion);
      return {
        url: url.toString(),
        headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', 'api-key': target.apiKey },
        // The deployment selects the model; Azure ignores a `model` field, so none is sent.
        body: JSON.stringify(openAiChatBody(undefined, req, { stream, maxTokensField: 'max_completion_tokens' })),
      };
    },
    parseCompletion: parseOpenAiCompletion,
    parseStream: parseOpenAiStream,
  };
}

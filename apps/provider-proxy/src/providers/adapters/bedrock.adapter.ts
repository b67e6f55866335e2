import type { ChatMessage, CompletionRequest, ModelTarget, ToolCall, Usage } from '../provider.types';
import { configFailure, protocolFailure, UpstreamAttemptError } from '../resilience/upstream-attempt.error';
import { decodeEventStream } from '../wire/aws-event-stream.decoder';
import { parseAwsCredentials, signSigV4 } from '../wire/aws-sigv4.signer';
import {
  asObject,
  configString,
  functionTools,
  joinUrl,
  mcpNotSupported,
  mcpTools,
  parametersOf,
  parseJsonEvent,
  parseToolArguments,
  pushMerged,
  systemPrompt,
  toCount,
  upstreamModel,
} from './adapter-support.util';
import type { AdapterStreamEvent, ParsedCompletion, ProviderAdapter } from './provider-adapter.types';

const SIGNING_SERVICE = 'bedrock';

/**
 * Amazon Bedrock Converse / ConverseStream, signed with SigV4. Credentials come from the model's
 * api_key as `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`, the region from
 * `additional_config.region` (or a regional bedrock-runtime base_url).
 *
 * MCP: refused. Converse only takes function-style `toolSpec` tools; there is no remote-MCP tool.
 */
export function createBedrockAdapter(): ProviderAdapter {
  return {
    unsupportedReason(_target: ModelTarget, req: CompletionRequest) {
      return mcpTools(req).length > 0 ? mcpNotSupported('bedrock') : undefined;
    },
    buildRequest(target, req, { stream, now }) {
      const credentials = parseAwsCredentials(target.apiKey);
      if (!credentials) throw configFailure('bedrock api_key must be ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]');
      const region = configString(target, 'region') ?? regionFromBaseUrl(target.baseUrl);
      if (!region) throw configFailure('bedrock model needs additional_config.region');
      const base = target.baseUrl?.trim() || `https://bedrock-runtime.${region}.amazonaws.com`;
      // Model ids contain ':' (anthropic.claude-3-haiku-20240307-v1:0) and must be path-encoded.
      const url = new URL(joinUrl(base, `model/${encodeURIComponent(upstreamModel(target))}/${stream ? 'converse-stream' : 'converse'}`));
      const body = JSON.stringify(converseBody(req));
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: stream ? 'application/vnd.amazon.eventstream' : 'application/json',
      };
      const signed = signSigV4({ method: 'POST', url, headers: { 'content-type': headers['content-type'] }, body, region, service: SIGNING_SERVICE, credentials, now });
      return { url: url.toString(), headers: { ...headers, ...signed.headers }, body };
    },
    parseCompletion: parseConverseCompletion,
    parseStream: parseConverseStream,
  };
}

function regionFromBaseUrl(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    return /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com$/.exec(new URL(baseUrl).hostname)?.[1];
  } catch {
    return undefined;
  }
}

type ConverseBlock = Record<string, unknown>;

export function converseBody(req: CompletionRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { messages: toConverseMessages(req.messages) };
  const system = systemPrompt(req.messages);
  if (system !== undefined) body.system = [{ text: system }];
  if (req.maxTokens !== undefined) body.inferenceConfig = { maxTokens: req.maxTokens };
  const tools = functionTools(req).map((tool) => ({
    toolSpec: {
      name: tool.function.name,
      ...(tool.function.description ? { description: tool.function.description } : {}),
      inputSchema: { json: parametersOf(tool) },
    },
  }));
  // Converse rejects a history holding toolUse/toolResult blocks unless toolConfig is present,
  // so a continuation sent without tools declares the ones the history used.
  if (tools.length === 0) {
    const used = new Set(req.messages.flatMap((m) => (m.toolCalls ?? []).map((call) => call.name)));
    for (const name of used) tools.push({ toolSpec: { name, inputSchema: { json: { type: 'object', properties: {} } } } });
  }
  if (tools.length > 0) body.toolConfig = { tools };
  return body;
}

export function toConverseMessages(messages: ChatMessage[]): Array<{ role: string; content: ConverseBlock[] }> {
  const turns: Array<{ role: string; blocks: ConverseBlock[] }> = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      pushMerged(turns, 'user', [{ toolResult: { toolUseId: message.toolCallId ?? '', content: [{ text: message.content }] } }]);
      continue;
    }
    // Converse rejects blank text blocks.
    const blocks: ConverseBlock[] = message.content !== '' ? [{ text: message.content }] : [];
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) blocks.push({ toolUse: { toolUseId: call.id, name: call.name, input: call.arguments ?? {} } });
    }
    pushMerged(turns, message.role, blocks);
  }
  return turns.map((turn) => ({ role: turn.role, content: turn.blocks }));
}

function normaliseConverseStop(reason: unknown): string {
  switch (reason) {
    case 'tool_use': return 'tool_calls';
    case 'max_tokens':
    case 'model_context_window_exceeded': return 'length';
    case 'guardrail_intervened':
    case 'content_filtered': return 'content_filter';
    default: return 'stop';
  }
}

/** As with Anthropic, inputTokens excludes prompt-cache reads and writes. */
export function converseUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage = raw as Record<string, unknown>;
  const cacheRead = toCount(usage.cacheReadInputTokens);
  return {
    promptTokens: toCount(usage.inputTokens) + cacheRead + toCount(usage.cacheWriteInputTokens),
    completionTokens: toCount(usage.outputTokens),
    cachedTokens: cacheRead,
  };
}

export function parseConverseCompletion(body: unknown): ParsedCompletion {
  const root = asObject(body);
  const message = asObject(asObject(root.output).message);
  if (!Array.isArray(message.content)) throw protocolFailure('response without output message');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const raw of message.content) {
    const block = asObject(raw);
    if (typeof block.text === 'string') text += block.text;
    else if (block.toolUse !== undefined) {
      const use = asObject(block.toolUse);
      toolCalls.push({ id: String(use.toolUseId ?? ''), name: String(use.name ?? ''), arguments: asObject(use.input) });
    }
  }
  return { text, toolCalls, usage: converseUsage(root.usage), finishReason: normaliseConverseStop(root.stopReason) };
}

const RETRYABLE_EXCEPTIONS: Record<string, number> = {
  throttlingException: 429,
  serviceUnavailableException: 503,
  internalServerException: 500,
  modelStreamErrorException: 500,
};

const utf8 = new TextDecoder();

/** Event types are frame headers; exceptions arrive as frames with `:message-type` exception. */
export async function* parseConverseStream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<AdapterStreamEvent> {
  const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
  let stopReason: unknown;
  let stopped = false;
  let usage: Usage | undefined;

  for await (const frame of decodeEventStream(chunks)) {
    const messageType = frame.headers[':message-type'];
    if (messageType === 'exception' || messageType === 'error') {
      const name = String(frame.headers[':exception-type'] ?? frame.headers[':error-code'] ?? 'unknown');
      const status = RETRYABLE_EXCEPTIONS[name] ?? 400;
      throw new UpstreamAttemptError('http', `stream exception (${name})`, { retryable: status !== 400, status });
    }
    const event = parseJsonEvent(utf8.decode(frame.payload));
    switch (frame.headers[':event-type']) {
      case 'contentBlockStart': {
        const toolUse = asObject(asObject(event.start).toolUse);
        if (toolUse.toolUseId !== undefined) {
          toolBlocks.set(Number(event.contentBlockIndex), { id: String(toolUse.toolUseId), name: String(toolUse.name ?? ''), json: '' });
        }
        break;
      }
      case 'contentBlockDelta': {
        const delta = asObject(event.delta);
        if (typeof delta.text === 'string' && delta.text !== '') yield { type: 'delta', content: delta.text };
        else if (delta.toolUse !== undefined) {
          const block = toolBlocks.get(Number(event.contentBlockIndex));
          const input = asObject(delta.toolUse).input;
          if (block && typeof input === 'string') block.json += input;
        }
        break;
      }
      case 'contentBlockStop': {
        const block = toolBlocks.get(Number(event.contentBlockIndex));
        if (block) {
          toolBlocks.delete(Number(event.contentBlockIndex));
          yield { type: 'tool_call', toolCall: { id: block.id, name: block.name, arguments: parseToolArguments(block.json) } };
        }
        break;
      }
      case 'messageStop':
        stopReason = event.stopReason;
        stopped = true;
        break;
      case 'metadata':
        usage = converseUsage(event.usage) ?? usage;
        break;
      default:
        break; // messageStart and future event types
    }
  }
  // metadata (with usage) follows messageStop; the stream is complete once both have been seen,
  // and still usable without metadata (the gateway then estimates usage).
  if (stopped) yield { type: 'end', usage, finishReason: normaliseConverseStop(stopReason) };
}

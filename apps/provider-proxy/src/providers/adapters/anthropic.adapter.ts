import type { ChatMessage, CompletionRequest, ModelTarget, ToolCall, Usage } from '../provider.types';
import { configFailure, protocolFailure, UpstreamAttemptError } from '../resilience/upstream-attempt.error';
import { parseSse } from '../wire/sse.parser';
import {
  asObject,
  configNumber,
  configString,
  functionTools,
  joinUrl,
  mcpTools,
  parametersOf,
  parseJsonEvent,
  parseToolArguments,
  pushMerged,
  requireBaseUrl,
  systemPrompt,
  toCount,
  upstreamModel,
} from './adapter-support.util';
import type { AdapterStreamEvent, ParsedCompletion, ProviderAdapter } from './provider-adapter.types';

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
const API_VERSION = '2023-06-01';
// The Messages API requires max_tokens; used when neither the request nor the registry sets one.
const DEFAULT_MAX_TOKENS = 4096;
// MCP connector, current beta: servers in `mcp_servers`, enabled through `mcp_toolset` tools.
export const ANTHROPIC_MCP_BETA = 'mcp-client-2025-11-20';

/**
 * Anthropic Messages API: `x-api-key`, `anthropic-version`, system prompt as a top-level field,
 * tool calls as `tool_use` blocks and their results as `tool_result` blocks in a user turn.
 *
 * MCP is passed natively through the MCP connector. Refused when the connector cannot honour the
 * definition: it calls tools without asking (so `require_approval` other than `never` is
 * refused), it reaches servers from Anthropic's cloud (so `vpc_only` is refused) and it only
 * accepts https URLs.
 */
export function createAnthropicAdapter(): ProviderAdapter {
  return {
    unsupportedReason(_target: ModelTarget, req: CompletionRequest) {
      for (const tool of mcpTools(req)) {
        if (tool.vpc_only) return 'MCP tools marked vpc_only are not supported by provider anthropic';
        if (tool.require_approval !== undefined && tool.require_approval !== 'never') {
          return 'MCP tools requiring approval are not supported by provider anthropic';
        }
        if (!/^https:\/\//i.test(tool.server_url)) return 'MCP server_url must use https for provider anthropic';
      }
      return undefined;
    },
    buildRequest(target, req, { stream }) {
      if (!target.apiKey) throw configFailure('anthropic model has no api_key');
      const base = requireBaseUrl(target.baseUrl, DEFAULT_BASE_URL, 'anthropic');
      const body: Record<string, unknown> = {
        model: upstreamModel(target),
        max_tokens: req.maxTokens ?? configNumber(target, 'max_tokens') ?? DEFAULT_MAX_TOKENS,
      };
      const system = systemPrompt(req.messages);
      if (system !== undefined) body.system = system;
      body.messages = toAnthropicMessages(req.messages);
      const tools: Array<Record<string, unknown>> = functionTools(req).map((tool) => ({
        name: tool.function.name,
        ...(tool.function.description ? { description: tool.function.description } : {}),
        input_schema: parametersOf(tool),
      }));
      const mcp = mcpTools(req);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
        'x-api-key': target.apiKey,
        'anthropic-version': configString(target, 'anthropic_version') ?? API_VERSION,
      };
      if (mcp.length > 0) {
        body.mcp_servers = mcp.map((tool) => ({ type: 'url', url: tool.server_url, name: tool.server_label }));
        tools.push(...mcp.map((tool) => ({ type: 'mcp_toolset', mcp_server_name: tool.server_label })));
        headers['anthropic-beta'] = ANTHROPIC_MCP_BETA;
      }
      if (tools.length > 0) body.tools = tools;
      if (stream) body.stream = true;
      return { url: joinUrl(base, 'v1/messages'), headers, body: JSON.stringify(body) };
    },
    parseCompletion: parseAnthropicCompletion,
    parseStream: parseAnthropicStream,
  };
}

type AnthropicBlock = Record<string, unknown>;

export function toAnthropicMessages(messages: ChatMessage[]): Array<{ role: string; content: AnthropicBlock[] }> {
  const turns: Array<{ role: string; blocks: AnthropicBlock[] }> = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      pushMerged(turns, 'user', [{ type: 'tool_result', tool_use_id: message.toolCallId ?? '', content: message.content }]);
      continue;
    }
    // The API rejects empty text blocks.
    const blocks: AnthropicBlock[] = message.content !== '' ? [{ type: 'text', text: message.content }] : [];
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments ?? {} });
    }
    pushMerged(turns, message.role, blocks);
  }
  return turns.map((turn) => ({ role: turn.role, content: turn.blocks }));
}

export function normaliseAnthropicStop(reason: unknown): string {
  switch (reason) {
    case 'tool_use': return 'tool_calls';
    case 'max_tokens': return 'length';
    case 'refusal': return 'content_filter';
    default: return 'stop';
  }
}

/**
 * `input_tokens` excludes prompt-cache reads and writes; our promptTokens counts all of them
 * and cachedTokens the reads (writes are billed at least at the input price).
 */
export function anthropicUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage = raw as Record<string, unknown>;
  const cacheRead = toCount(usage.cache_read_input_tokens);
  return {
    promptTokens: toCount(usage.input_tokens) + cacheRead + toCount(usage.cache_creation_input_tokens),
    completionTokens: toCount(usage.output_tokens),
    cachedTokens: cacheRead,
  };
}

export function parseAnthropicCompletion(body: unknown): ParsedCompletion {
  const root = asObject(body);
  if (!Array.isArray(root.content)) throw protocolFailure('response without content');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const raw of root.content) {
    const block = asObject(raw);
    if (block.type === 'text' && typeof block.text === 'string') text += block.text;
    else if (block.type === 'tool_use') toolCalls.push({ id: String(block.id ?? ''), name: String(block.name ?? ''), arguments: asObject(block.input) });
    // mcp_tool_use / mcp_tool_result were executed by Anthropic; thinking blocks are not output.
  }
  return { text, toolCalls, usage: anthropicUsage(root.usage), finishReason: normaliseAnthropicStop(root.stop_reason) };
}

function streamError(event: Record<string, unknown>): UpstreamAttemptError {
  const type = asObject(event.error).type;
  const status = type === 'overloaded_error' ? 529 : type === 'rate_limit_error' ? 429 : type === 'api_error' ? 500 : 400;
  return new UpstreamAttemptError('http', `stream error (${typeof type === 'string' ? type : 'unknown'})`, { retryable: status >= 429, status });
}

/** message_start carries input usage, message_delta the final output count and stop reason. */
export async function* parseAnthropicStream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<AdapterStreamEvent> {
  const toolBlocks = new Map<number, { id: string; name: string; json: string }>();
  let usage: Usage | undefined;
  let stopReason: unknown;

  for await (const sse of parseSse(chunks)) {
    const event = parseJsonEvent(sse.data);
    switch (event.type) {
      case 'message_start':
        usage = anthropicUsage(asObject(event.message).usage) ?? usage;
        break;
      case 'content_block_start': {
        const block = asObject(event.content_block);
        if (block.type === 'tool_use') toolBlocks.set(Number(event.index), { id: String(block.id ?? ''), name: String(block.name ?? ''), json: '' });
        break;
      }
      case 'content_block_delta': {
        const delta = asObject(event.delta);
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') yield { type: 'delta', content: delta.text };
        else if (delta.type === 'input_json_delta') {
          const block = toolBlocks.get(Number(event.index));
          if (block && typeof delta.partial_json === 'string') block.json += delta.partial_json;
        }
        break;
      }
      case 'content_block_stop': {
        const block = toolBlocks.get(Number(event.index));
        if (block) {
          toolBlocks.delete(Number(event.index));
          yield { type: 'tool_call', toolCall: { id: block.id, name: block.name, arguments: parseToolArguments(block.json) } };
        }
        break;
      }
      case 'message_delta': {
        stopReason = asObject(event.delta).stop_reason ?? stopReason;
        const counts = asObject(event.usage);
        const current = usage ?? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
        // Counts here are cumulative. Input counts appear only on newer API versions; when they
        // do, they replace the message_start figures.
        const inputReported = counts.input_tokens !== undefined;
        usage = {
          promptTokens: inputReported ? anthropicUsage(counts)!.promptTokens : current.promptTokens,
          completionTokens: counts.output_tokens !== undefined ? toCount(counts.output_tokens) : current.completionTokens,
          cachedTokens: inputReported ? toCount(counts.cache_read_input_tokens) : current.cachedTokens,
        };
        break;
      }
      case 'message_stop':
        yield { type: 'end', usage, finishReason: normaliseAnthropicStop(stopReason) };
        return;
      case 'error':
        throw streamError(event);
      default:
        break; // ping and future event types
    }
  }
}

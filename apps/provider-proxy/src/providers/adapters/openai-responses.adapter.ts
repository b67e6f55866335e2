import type { ChatMessage, CompletionRequest, ModelTarget, ToolCall, Usage } from '../provider.types';
import { configFailure, protocolFailure, UpstreamAttemptError } from '../resilience/upstream-attempt.error';
import { parseSse } from '../wire/sse.parser';
import {
  asObject,
  functionTools,
  joinUrl,
  mcpTools,
  parametersOf,
  parseJsonEvent,
  parseToolArguments,
  requireBaseUrl,
  systemPrompt,
  toCount,
  upstreamModel,
} from './adapter-support.util';
import { openAiBaseWithVersion } from './openai.adapter';
import type { AdapterStreamEvent, ParsedCompletion, ProviderAdapter } from './provider-adapter.types';

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * OpenAI Responses API (`POST {base}/responses`), used for `openai` models only when the request
 * carries MCP tools: chat completions has no remote-MCP tool, the Responses API does, in the very
 * shape the gateway accepts (`{type: 'mcp', server_label, server_url, require_approval}`). OpenAI
 * runs the MCP calls server-side (`mcp_list_tools` / `mcp_call` output items); function tools come
 * back as `function_call` items and their results go in as `function_call_output` items.
 *
 * Refused (422) when OpenAI cannot honour the definition: it reaches MCP servers from its own
 * cloud (so `vpc_only` is refused), approvals would need a round trip the gateway API does not
 * have (so `require_approval` other than `never` is refused), and it only calls https servers.
 * `store: false`: the gateway keeps the record, OpenAI need not.
 */
export function createOpenAiResponsesAdapter(): ProviderAdapter {
  return {
    unsupportedReason(_target: ModelTarget, req: CompletionRequest) {
      for (const tool of mcpTools(req)) {
        if (tool.vpc_only) return 'MCP tools marked vpc_only are not supported by provider openai';
        if (tool.require_approval !== undefined && tool.require_approval !== 'never') return 'MCP tools requiring approval are not supported by provider openai';
        if (!/^https:\/\//i.test(tool.server_url)) return 'MCP server_url must use https for provider openai';
      }
      return undefined;
    },
    buildRequest(target, req, { stream }) {
      if (!target.apiKey) throw configFailure('openai model has no api_key');
      const base = requireBaseUrl(target.baseUrl, OPENAI_DEFAULT_BASE_URL, 'openai');
      const body: Record<string, unknown> = { model: upstreamModel(target) };
      const instructions = systemPrompt(req.messages);
      if (instructions !== undefined) body.instructions = instructions;
      body.input = toResponsesInput(req.messages);
      body.tools = [
        ...functionTools(req).map((tool) => ({
          type: 'function',
          name: tool.function.name,
          ...(tool.function.description ? { description: tool.function.description } : {}),
          parameters: parametersOf(tool),
          // Chat completions' default: the schema is a hint, not a strict contract.
          strict: false,
        })),
        ...mcpTools(req).map((tool) => ({ type: 'mcp', server_label: tool.server_label, server_url: tool.server_url, require_approval: 'never' })),
      ];
      if (req.maxTokens !== undefined) body.max_output_tokens = req.maxTokens;
      body.store = false;
      if (stream) body.stream = true;
      return {
        url: joinUrl(openAiBaseWithVersion(base), 'responses'),
        headers: { 'content-type': 'application/json', accept: stream ? 'text/event-stream' : 'application/json', authorization: `Bearer ${target.apiKey}` },
        body: JSON.stringify(body),
      };
    },
    parseCompletion: parseResponsesCompletion,
    parseStream: parseResponsesStream,
  };
}

/** Conversation items: messages by role, tool calls and their outputs as their own items. */
export function toResponsesInput(messages: ChatMessage[]): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      items.push({ type: 'function_call_output', call_id: message.toolCallId ?? '', output: message.content });
      continue;
    }
    if (message.content !== '') items.push({ role: message.role, content: message.content });
    for (const call of message.toolCalls ?? []) {
      items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.arguments ?? {}) });
    }
  }
  return items;
}

/** `input_tokens` includes cached ones (as chat completions' prompt_tokens does). */
export function responsesUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage = raw as Record<string, unknown>;
  return {
    promptTokens: toCount(usage.input_tokens),
    completionTokens: toCount(usage.output_tokens),
    cachedTokens: toCount(asObject(usage.input_tokens_details).cached_tokens),
  };
}

function finishReason(response: Record<string, unknown>, hasToolCalls: boolean): string {
  if (hasToolCalls) return 'tool_calls';
  if (response.status === 'incomplete') {
    const reason = asObject(response.incomplete_details).reason;
    return reason === 'content_filter' ? 'content_filter' : 'length';
  }
  return 'stop';
}

function functionCallOf(item: Record<string, unknown>): ToolCall {
  return { id: String(item.call_id ?? item.id ?? ''), name: String(item.name ?? ''), arguments: parseToolArguments(item.arguments as string | undefined) };
}

/** A failed response is the provider's own outage (server_error, rate limits): retryable. */
function failedResponse(response: Record<string, unknown>): UpstreamAttemptError {
  const code = asObject(response.error).code;
  return new UpstreamAttemptError('protocol', `response failed (${typeof code === 'string' ? code : 'unknown'})`, { retryable: true });
}

export function parseResponsesCompletion(body: unknown): ParsedCompletion {
  const root = asObject(body);
  if (root.status === 'failed') throw failedResponse(root);
  if (!Array.isArray(root.output)) throw protocolFailure('response without output');
  let text = '';
  const toolCalls: ToolCall[] = [];
  for (const raw of root.output) {
    const item = asObject(raw);
    if (item.type === 'message') {
      for (const part of Array.isArray(item.content) ? item.content : []) {
        const content = asObject(part);
        if (content.type === 'output_text' && typeof content.text === 'string') text += content.text;
      }
    } else if (item.type === 'function_call') {
      toolCalls.push(functionCallOf(item));
    }
    // mcp_list_tools / mcp_call ran at OpenAI; reasoning items are not output.
  }
  return { text, toolCalls, usage: responsesUsage(root.usage), finishReason: finishReason(root, toolCalls.length > 0) };
}

/**
 * Text arrives as `response.output_text.delta`; a function call is emitted whole from its
 * `response.output_item.done`. The stream has no [DONE]: `response.completed` (or `.incomplete`)
 * carries the final response with its usage.
 */
export async function* parseResponsesStream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<AdapterStreamEvent> {
  let toolCallsSeen = false;
  for await (const sse of parseSse(chunks)) {
    const event = parseJsonEvent(sse.data);
    switch (event.type) {
      case 'response.output_text.delta':
        if (typeof event.delta === 'string' && event.delta !== '') yield { type: 'delta', content: event.delta };
        break;
      case 'response.output_item.done': {
        const item = asObject(event.item);
        if (item.type === 'function_call') {
          toolCallsSeen = true;
          yield { type: 'tool_call', toolCall: functionCallOf(item) };
        }
        break;
      }
      case 'response.completed':
      case 'response.incomplete': {
        const response = asObject(event.response);
        yield { type: 'end', usage: responsesUsage(response.usage), finishReason: finishReason(response, toolCallsSeen) };
        return;
      }
      case 'response.failed':
        throw failedResponse(asObject(event.response));
      case 'error':
        throw protocolFailure('error event in stream');
      default:
        break; // created, in_progress, output_item.added, mcp_* progress, argument deltas
    }
  }
}

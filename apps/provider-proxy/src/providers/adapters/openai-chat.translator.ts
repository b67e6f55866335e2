import type { ChatMessage, CompletionRequest, ToolCall, Usage } from '../provider.types';
import { protocolFailure } from '../resilience/upstream-attempt.error';
import { parseSse } from '../wire/sse.parser';
import { asObject, functionTools, parametersOf, parseJsonEvent, parseToolArguments, toCount } from './adapter-support.util';
import type { AdapterStreamEvent, ParsedCompletion } from './provider-adapter.types';

/**
 * The chat-completions wire format shared by openai, internal (vLLM, Ollama, ...) and azure.
 * https://platform.openai.com/docs/api-reference/chat
 */
export function toOpenAiMessages(messages: ChatMessage[]): Array<Record<string, unknown>> {
  return messages.map((message) => {
    if (message.role === 'tool') {
      return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content };
    }
    if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      return {
        role: 'assistant',
        // Chat completions wants null, not '', when the turn is only tool calls.
        content: message.content === '' ? null : message.content,
        tool_calls: message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) },
        })),
      };
    }
    return { role: message.role, content: message.content };
  });
}

export function openAiChatBody(
  model: string | undefined,
  req: CompletionRequest,
  options: { stream: boolean; maxTokensField: 'max_tokens' | 'max_completion_tokens' },
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (model !== undefined) body.model = model;
  body.messages = toOpenAiMessages(req.messages);
  const tools = functionTools(req);
  if (tools.length > 0) {
    body.tools = tools.map((tool) => ({
      type: 'function',
      function: {
        name: tool.function.name,
        ...(tool.function.description ? { description: tool.function.description } : {}),
        parameters: parametersOf(tool),
      },
    }));
  }
  if (req.maxTokens !== undefined) body[options.maxTokensField] = req.maxTokens;
  if (options.stream) {
    body.stream = true;
    // Without this the stream carries no usage and a streamed call could not be costed.
    body.stream_options = { include_usage: true };
  }
  return body;
}

export function normaliseOpenAiFinish(reason: unknown, hasToolCalls: boolean): string {
  // Some compatible servers (Ollama) report `stop` on a tool-call turn.
  if (hasToolCalls) return 'tool_calls';
  if (reason === 'function_call') return 'tool_calls';
  return typeof reason === 'string' && reason !== '' ? reason : 'stop';
}

export function openAiUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const usage = raw as Record<string, unknown>;
  return {
    promptTokens: toCount(usage.prompt_tokens),
    completionTokens: toCount(usage.completion_tokens),
    cachedTokens: toCount(asObject(usage.prompt_tokens_details).cached_tokens),
  };
}

export function parseOpenAiCompletion(body: unknown): ParsedCompletion {
  const root = asObject(body);
  const choices = Array.isArray(root.choices) ? root.choices : undefined;
  if (!choices || choices.length === 0) throw protocolFailure('response without choices');
  const choice = asObject(choices[0]);
  const message = asObject(choice.message);
  const toolCalls: ToolCall[] = (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((raw: unknown) => {
    const call = asObject(raw);
    const fn = asObject(call.function);
    return { id: String(call.id ?? ''), name: String(fn.name ?? ''), arguments: parseToolArguments(fn.arguments as string | undefined) };
  });
  return {
    text: typeof message.content === 'string' ? message.content : '',
    toolCalls,
    usage: openAiUsage(root.usage),
    finishReason: normaliseOpenAiFinish(choice.finish_reason, toolCalls.length > 0),
  };
}

interface PartialToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * Deltas are passed on as they come; tool calls are assembled from their fragments and emitted
 * whole once the choice finishes. Usage arrives in a last chunk with empty `choices`.
 */
export async function* parseOpenAiStream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<AdapterStreamEvent> {
  const partials = new Map<number, PartialToolCall>();
  let finishReason: string | undefined;
  let usage: Usage | undefined;
  let toolCallsEmitted = false;

  function* flushToolCalls(): Generator<AdapterStreamEvent> {
    if (toolCallsEmitted) return;
    toolCallsEmitted = true;
    for (const index of [...partials.keys()].sort((a, b) => a - b)) {
      const partial = partials.get(index)!;
      yield { type: 'tool_call', toolCall: { id: partial.id, name: partial.name, arguments: parseToolArguments(partial.arguments) } };
    }
  }

  for await (const event of parseSse(chunks)) {
    if (event.data === '[DONE]') {
      yield* flushToolCalls();
      yield { type: 'end', usage, finishReason: normaliseOpenAiFinish(finishReason, partials.size > 0) };
      return;
    }
    const chunk = parseJsonEvent(event.data);
    if (chunk.error !== undefined) throw protocolFailure('error event in stream');
    const chunkUsage = openAiUsage(chunk.usage);
    if (chunkUsage) usage = chunkUsage;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    for (const rawChoice of choices) {
      const choice = asObject(rawChoice);
      const delta = asObject(choice.delta);
      if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'delta', content: delta.content };
      if (Array.isArray(delta.tool_calls)) {
        for (const rawCall of delta.tool_calls) {
          const call = asObject(rawCall);
          const index = typeof call.index === 'number' ? call.index : partials.size;
          const fn = asObject(call.function);
          const partial = partials.get(index) ?? { id: '', name: '', arguments: '' };
          if (typeof call.id === 'string' && call.id !== '') partial.id = call.id;
          if (typeof fn.name === 'string' && fn.name !== '') partial.name = fn.name;
          if (typeof fn.arguments === 'string') partial.arguments += fn.arguments;
          partials.set(index, partial);
        }
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') {
        finishReason = choice.finish_reason;
        yield* flushToolCalls();
      }
    }
  }
  // Some compatible servers close without [DONE]; a finished choice is still a complete answer.
  if (finishReason !== undefined) {
    yield* flushToolCalls();
    yield { type: 'end', usage, finishReason: normaliseOpenAiFinish(finishReason, partials.size > 0) };
  }
}

import { streamPieces } from '../answer.generator';
import type { MockAnswer, MockConversation, MockTool, MockTurn, MockUsage, RenderedJson, RenderedStream } from '../mock.types';
import { MockHttpError } from '../mock.types';

/** OpenAI's error envelope, also used by compatible servers and (in this shape) by Azure. */
export function openAiError(status: number, message: string, type = 'invalid_request_error', code: string | null = null): MockHttpError {
  return new MockHttpError(status, { error: { message, type, param: null, code } });
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Parses and validates a chat-completions body like the real API: tool messages must answer a
 * preceding assistant `tool_calls` entry, and every such call must be answered before the next turn.
 */
export function parseOpenAiChat(raw: unknown, modelFromPath?: string): MockConversation {
  const body = record(raw);
  const model = modelFromPath ?? body.model;
  if (typeof model !== 'string' || model === '') throw openAiError(400, 'you must provide a model parameter');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw openAiError(400, "'messages' must contain at least one message");

  const turns: MockTurn[] = [];
  let system = '';
  const pending = new Set<string>();
  let answerable = new Set<string>();
  for (const rawMessage of body.messages) {
    const message = record(rawMessage);
    const role = message.role;
    const content = typeof message.content === 'string' ? message.content : message.content === null || message.content === undefined ? '' : JSON.stringify(message.content);
    if (role === 'tool') {
      const id = message.tool_call_id;
      if (typeof id !== 'string' || !answerable.has(id)) {
        throw openAiError(400, "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.");
      }
      pending.delete(id);
      turns.push({ role: 'tool', text: content });
      continue;
    }
    if (pending.size > 0) {
      throw openAiError(
        400,
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`,
      );
    }
    answerable = new Set();
    if (role === 'system' || role === 'developer') {
      system += content;
    } else if (role === 'user') {
      turns.push({ role: 'user', text: content });
    } else if (role === 'assistant') {
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      for (const rawCall of calls) {
        const call = record(rawCall);
        const fn = record(call.function);
        if (typeof call.id !== 'string' || typeof fn.name !== 'string' || typeof fn.arguments !== 'string') {
          throw openAiError(400, "Invalid 'tool_calls': each call needs an id and a function with a name and string arguments.");
        }
        pending.add(call.id);
        answerable.add(call.id);
      }
      turns.push({ role: 'assistant', text: content });
    } else {
      throw openAiError(400, `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', and 'developer'.`);
    }
  }
  if (pending.size > 0) {
    throw openAiError(400, `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending].join(', ')}`);
  }

  const tools: MockTool[] = [];
  for (const rawTool of Array.isArray(body.tools) ? body.tools : []) {
    const tool = record(rawTool);
    if (tool.type !== 'function') throw openAiError(400, `Invalid value: '${String(tool.type)}'. Supported values are: 'function' and 'custom'.`);
    const fn = record(tool.function);
    if (typeof fn.name !== 'string' || fn.name === '') throw openAiError(400, "Missing required parameter: 'tools[].function.name'.");
    tools.push({ name: fn.name, parameters: record(fn.parameters) });
  }
  return {
    model,
    stream: body.stream === true,
    system,
    turns,
    tools,
    mcpServers: [],
    includeStreamUsage: record(body.stream_options).include_usage === true,
  };
}

function message(answer: MockAnswer): Record<string, unknown> {
  if (answer.kind === 'text') return { role: 'assistant', content: answer.text, refusal: null };
  return {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: answer.id, type: 'function', function: { name: answer.name, arguments: JSON.stringify(answer.arguments) } }],
  };
}

function usageBody(usage: MockUsage): Record<string, unknown> {
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens },
  };
}

export function renderOpenAiJson(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedJson {
  const body: Record<string, unknown> = {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: conversation.model,
    choices: [{ index: 0, message: message(answer), logprobs: null, finish_reason: answer.kind === 'text' ? 'stop' : 'tool_calls' }],
  };
  if (usage) body.usage = usageBody(usage);
  return { status: 200, body };
}

export function renderOpenAiStream(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedStream {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: conversation.model, choices, ...extra })}\n\n`;
  const frames: string[] = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])];
  const firstContent = frames.length;
  if (answer.kind === 'text') {
    for (const piece of streamPieces(answer.text)) frames.push(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
  } else {
    const args = JSON.stringify(answer.arguments);
    const half = Math.ceil(args.length / 2);
    frames.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, id: answer.id, type: 'function', function: { name: answer.name, arguments: '' } }] }, finish_reason: null }]));
    frames.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(0, half) } }] }, finish_reason: null }]));
    frames.push(chunk([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }, finish_reason: null }]));
  }
  frames.push(chunk([{ index: 0, delta: {}, finish_reason: answer.kind === 'text' ? 'stop' : 'tool_calls' }]));
  if (usage && conversation.includeStreamUsage) frames.push(chunk([], { usage: usageBody(usage) }));
  frames.push('data: [DONE]\n\n');
  return { contentType: 'text/event-stream', frames, firstContent };
}

import { streamPieces } from '../answer.generator';
import type { MockAnswer, MockConversation, MockTool, MockTurn, MockUsage, RenderedJson, RenderedStream } from '../mock.types';
import { openAiError } from './openai.format';

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Message content: a string, or input_text / output_text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof record(part).text === 'string' ? String(record(part).text) : '')).join('');
}

/**
 * Parses a Responses API body (`POST /v1/responses`) like the real API: `input` as a string or
 * items; a `function_call_output` must answer an earlier `function_call`, and every call must be
 * answered; tools are `function` (flat name/parameters) or `mcp` (server_label, https server_url).
 * MCP servers are simulated as having been called server-side.
 */
export function parseOpenAiResponses(raw: unknown): MockConversation {
  const body = record(raw);
  if (typeof body.model !== 'string' || body.model === '') throw openAiError(400, "Missing required parameter: 'model'.", 'invalid_request_error', 'missing_required_parameter');
  const turns: MockTurn[] = [];
  if (typeof body.input === 'string') turns.push({ role: 'user', text: body.input });
  else if (Array.isArray(body.input)) {
    const open = new Set<string>();
    const answered = new Set<string>();
    for (const rawItem of body.input) {
      const item = record(rawItem);
      if (item.type === 'function_call') {
        if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') {
          throw openAiError(400, "Invalid 'input': a function_call item needs call_id, name and string arguments.");
        }
        open.add(item.call_id);
        turns.push({ role: 'assistant', text: '' });
      } else if (item.type === 'function_call_output') {
        if (typeof item.call_id !== 'string' || !open.has(item.call_id)) throw openAiError(400, `No tool call found for function call output with call_id ${String(item.call_id)}.`);
        answered.add(item.call_id);
        turns.push({ role: 'tool', text: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
      } else if (item.type === undefined || item.type === 'message') {
        if (item.role !== 'user' && item.role !== 'assistant' && item.role !== 'system' && item.role !== 'developer') {
          throw openAiError(400, `Invalid value: '${String(item.role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`);
        }
        if (item.role === 'user' || item.role === 'assistant') turns.push({ role: item.role, text: textOf(item.content) });
      } else {
        throw openAiError(400, `Invalid value: '${String(item.type)}'.`);
      }
    }
    const unanswered = [...open].filter((id) => !answered.has(id));
    if (unanswered.length > 0) throw openAiError(400, `No tool output found for function call ${unanswered[0]}.`);
  } else {
    throw openAiError(400, "Missing required parameter: 'input'.", 'invalid_request_error', 'missing_required_parameter');
  }

  const tools: MockTool[] = [];
  const mcpServers: string[] = [];
  for (const rawTool of Array.isArray(body.tools) ? body.tools : []) {
    const tool = record(rawTool);
    if (tool.type === 'function') {
      if (typeof tool.name !== 'string' || tool.name === '') throw openAiError(400, "Missing required parameter: 'tools[].name'.");
      tools.push({ name: tool.name, parameters: record(tool.parameters) });
    } else if (tool.type === 'mcp') {
      if (typeof tool.server_label !== 'string' || typeof tool.server_url !== 'string' || !tool.server_url.startsWith('https://')) {
        throw openAiError(400, "Invalid 'tools[]': an mcp tool needs a server_label and an https server_url.");
      }
      mcpServers.push(tool.server_label);
    } else {
      throw openAiError(400, `Invalid value: '${String(tool.type)}'. Supported values are: 'function', 'mcp', 'file_search', 'web_search_preview', and others.`);
    }
  }
  return { model: body.model, stream: body.stream === true, system: typeof body.instructions === 'string' ? body.instructions : '', turns, tools, mcpServers, includeStreamUsage: true };
}

function usageBody(usage: MockUsage): Record<string, unknown> {
  return {
    input_tokens: usage.promptTokens,
    input_tokens_details: { cached_tokens: usage.cachedTokens },
    output_tokens: usage.completionTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
}

function mcpItems(conversation: MockConversation, id: string): Array<Record<string, unknown>> {
  return conversation.mcpServers.flatMap((server) => [
    { id: `mcpl_${id}_${server}`, type: 'mcp_list_tools', server_label: server, tools: [{ name: 'mock_lookup', input_schema: { type: 'object', properties: {} } }] },
    { id: `mcp_${id}_${server}`, type: 'mcp_call', server_label: server, name: 'mock_lookup', arguments: '{}', output: `result from ${server}`, error: null },
  ]);
}

function answerItem(answer: MockAnswer, id: string): Record<string, unknown> {
  if (answer.kind === 'text') {
    return { id: `msg_${id}`, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: answer.text, annotations: [] }] };
  }
  return { id: `fc_${id}`, type: 'function_call', status: 'completed', call_id: answer.id, name: answer.name, arguments: JSON.stringify(answer.arguments) };
}

function responseBody(conversation: MockConversation, output: unknown[], usage: MockUsage | undefined, id: string, status: string): Record<string, unknown> {
  const body: Record<string, unknown> = { id: `resp_${id}`, object: 'response', created_at: Math.floor(Date.now() / 1000), status, model: conversation.model, output };
  if (usage && status === 'completed') body.usage = usageBody(usage);
  return body;
}

export function renderResponsesJson(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedJson {
  return { status: 200, body: responseBody(conversation, [...mcpItems(conversation, id), answerItem(answer, id)], usage, id, 'completed') };
}

export function renderResponsesStream(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedStream {
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...data })}\n\n`;
  const frames: string[] = [event('response.created', { response: responseBody(conversation, [], undefined, id, 'in_progress') })];
  const output = mcpItems(conversation, id);
  output.forEach((item, index) => frames.push(event('response.output_item.done', { output_index: index, item })));
  const item = answerItem(answer, id);
  const outputIndex = output.length;
  let firstContent: number;
  if (answer.kind === 'text') {
    frames.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } }));
    firstContent = frames.length;
    for (const piece of streamPieces(answer.text)) frames.push(event('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta: piece }));
    frames.push(event('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text: answer.text }));
  } else {
    const args = String(item.arguments);
    const half = Math.ceil(args.length / 2);
    frames.push(event('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } }));
    frames.push(event('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: args.slice(0, half) }));
    frames.push(event('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta: args.slice(half) }));
    frames.push(event('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: args }));
    firstContent = frames.length;
  }
  frames.push(event('response.output_item.done', { output_index: outputIndex, item }));
  frames.push(event('response.completed', { response: responseBody(conversation, [...output, item], usage, id, 'completed') }));
  return { contentType: 'text/event-stream', frames, firstContent };
}

import { streamPieces } from '../answer.generator';
import type { MockAnswer, MockConversation, MockTool, MockTurn, MockUsage, RenderedJson, RenderedStream } from '../mock.types';
import { MockHttpError } from '../mock.types';

export const MCP_BETA = 'mcp-client-2025-11-20';

export function anthropicError(status: number, message: string, type = 'invalid_request_error'): MockHttpError {
  return new MockHttpError(status, { type: 'error', error: { type, message } });
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((block) => (record(block).type === 'text' ? String(record(block).text ?? '') : '')).join('');
}

/**
 * Validates a Messages API body as the real API does: model and max_tokens required, only
 * user/assistant roles, no empty text blocks, and every tool_use answered by a tool_result in
 * the very next user turn (and no tool_result without its tool_use).
 */
export function parseAnthropicMessages(raw: unknown, betaHeader: string | undefined): MockConversation {
  const body = record(raw);
  if (typeof body.model !== 'string' || body.model === '') throw anthropicError(400, 'model: Field required');
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1) throw anthropicError(400, 'max_tokens: Field required');
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw anthropicError(400, 'messages: at least one message is required');

  const turns: MockTurn[] = [];
  let openToolUses = new Set<string>();
  body.messages.forEach((rawMessage, index) => {
    const message = record(rawMessage);
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw anthropicError(400, `messages.${index}.role: Input should be 'user' or 'assistant'`);
    }
    if (index === 0 && message.role !== 'user') throw anthropicError(400, 'messages: first message must use the "user" role');
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : Array.isArray(message.content) ? message.content : [];
    const answered = new Set<string>();
    const toolUses = new Set<string>();
    for (const rawBlock of blocks) {
      const block = record(rawBlock);
      if (block.type === 'text' && (typeof block.text !== 'string' || block.text === '')) {
        throw anthropicError(400, `messages.${index}: text content blocks must be non-empty`);
      }
      if (block.type === 'tool_result') {
        if (message.role !== 'user' || !openToolUses.has(String(block.tool_use_id))) {
          throw anthropicError(400, `messages.${index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
        }
        answered.add(String(block.tool_use_id));
        turns.push({ role: 'tool', text: typeof block.content === 'string' ? block.content : textOf(block.content) });
      }
      if (block.type === 'tool_use') {
        if (message.role !== 'assistant' || typeof block.id !== 'string' || typeof block.name !== 'string') {
          throw anthropicError(400, `messages.${index}: invalid tool_use block`);
        }
        toolUses.add(block.id);
      }
    }
    const missing = [...openToolUses].filter((id) => !answered.has(id));
    if (missing.length > 0) {
      throw anthropicError(400, `messages.${index}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
    }
    openToolUses = toolUses;
    const text = textOf(blocks);
    if (text !== '' || message.role === 'assistant') turns.push({ role: message.role, text });
  });

  const mcpServers: string[] = [];
  if (body.mcp_servers !== undefined) {
    if (!betaHeader?.split(',').map((value) => value.trim()).includes(MCP_BETA)) {
      throw anthropicError(400, 'mcp_servers: Extra inputs are not permitted');
    }
    for (const rawServer of Array.isArray(body.mcp_servers) ? body.mcp_servers : []) {
      const server = record(rawServer);
      if (server.type !== 'url' || typeof server.name !== 'string' || typeof server.url !== 'string' || !server.url.startsWith('https://')) {
        throw anthropicError(400, 'mcp_servers: each server needs type "url", a name and an https url');
      }
      mcpServers.push(server.name);
    }
  }
  const tools: MockTool[] = [];
  for (const rawTool of Array.isArray(body.tools) ? body.tools : []) {
    const tool = record(rawTool);
    if (tool.type === 'mcp_toolset') {
      if (!mcpServers.includes(String(tool.mcp_server_name))) throw anthropicError(400, `tools: unknown mcp_server_name ${String(tool.mcp_server_name)}`);
      continue;
    }
    if (typeof tool.name !== 'string' || tool.name === '') throw anthropicError(400, 'tools.name: Field required');
    if (tool.input_schema === undefined) throw anthropicError(400, 'tools.input_schema: Field required');
    tools.push({ name: tool.name, parameters: record(tool.input_schema) });
  }
  const system = typeof body.system === 'string' ? body.system : textOf(body.system);
  return { model: body.model, stream: body.stream === true, system, turns, tools, mcpServers, includeStreamUsage: true };
}

/** input_tokens excludes cache reads, as in the real API. */
function usageBody(usage: MockUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.promptTokens - usage.cachedTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: usage.cachedTokens,
    output_tokens: outputTokens,
  };
}

function contentBlocks(conversation: MockConversation, answer: MockAnswer, id: string): Array<Record<string, unknown>> {
  const blocks: Array<Record<string, unknown>> = [];
  // With MCP servers, simulate the connector having called one tool server-side first.
  for (const server of conversation.mcpServers) {
    const useId = `mcptoolu_${id}_${server}`;
    blocks.push({ type: 'mcp_tool_use', id: useId, name: 'mock_lookup', server_name: server, input: {} });
    blocks.push({ type: 'mcp_tool_result', tool_use_id: useId, is_error: false, content: [{ type: 'text', text: `result from ${server}` }] });
  }
  if (answer.kind === 'text') blocks.push({ type: 'text', text: answer.text });
  else blocks.push({ type: 'tool_use', id: answer.id, name: answer.name, input: answer.arguments });
  return blocks;
}

export function renderAnthropicJson(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedJson {
  const body: Record<string, unknown> = {
    id,
    type: 'message',
    role: 'assistant',
    model: conversation.model,
    content: contentBlocks(conversation, answer, id),
    stop_reason: answer.kind === 'text' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
  };
  if (usage) body.usage = usageBody(usage, usage.completionTokens);
  return { status: 200, body };
}

export function renderAnthropicStream(conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined, id: string): RenderedStream {
  const event = (name: string, data: Record<string, unknown>) => `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
  const frames: string[] = [];
  frames.push(
    event('message_start', {
      message: { id, type: 'message', role: 'assistant', model: conversation.model, content: [], stop_reason: null, stop_sequence: null, ...(usage ? { usage: usageBody(usage, 1) } : {}) },
    }),
  );
  frames.push(event('ping', {}));
  let index = 0;
  let firstContent = -1;
  for (const block of contentBlocks(conversation, answer, id)) {
    if (block.type === 'text') {
      frames.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      if (firstContent === -1) firstContent = frames.length;
      for (const piece of streamPieces(String(block.text))) frames.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
    } else if (block.type === 'tool_use') {
      frames.push(event('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } }));
      const json = JSON.stringify(block.input);
      const half = Math.ceil(json.length / 2);
      if (firstContent === -1) firstContent = frames.length;
      frames.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(0, half) } }));
      frames.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: json.slice(half) } }));
    } else {
      frames.push(event('content_block_start', { index, content_block: block }));
    }
    frames.push(event('content_block_stop', { index }));
    index += 1;
  }
  frames.push(
    event('message_delta', {
      delta: { stop_reason: answer.kind === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null },
      ...(usage ? { usage: { output_tokens: usage.completionTokens } } : {}),
    }),
  );
  frames.push(event('message_stop', {}));
  return { contentType: 'text/event-stream', frames, firstContent };
}

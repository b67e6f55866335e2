import { streamPieces } from '../answer.generator';
import type { MockAnswer, MockConversation, MockTool, MockTurn, MockUsage, RenderedJson, RenderedStream } from '../mock.types';
import { MockHttpError } from '../mock.types';
import { encodeConverseEvent } from './event-stream.encoder';

export function bedrockError(status: number, type: string, message: string): MockHttpError {
  return new MockHttpError(status, { message }, { 'x-amzn-errortype': type });
}

function validation(message: string): MockHttpError {
  return bedrockError(400, 'ValidationException', message);
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Validates a Converse body: user/assistant turns of content blocks, no blank text, toolResult
 * blocks answering the previous assistant's toolUse ids, and toolConfig present whenever the
 * history holds tool blocks (the real service refuses such a request otherwise).
 */
export function parseConverseRequest(raw: unknown, modelId: string, stream: boolean): MockConversation {
  const body = record(raw);
  if (!Array.isArray(body.messages) || body.messages.length === 0) throw validation('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
  const turns: MockTurn[] = [];
  let previousToolUses = new Set<string>();
  let historyHasTools = false;
  body.messages.forEach((rawMessage, index) => {
    const message = record(rawMessage);
    if (message.role !== 'user' && message.role !== 'assistant') throw validation(`1 validation error detected: Value at 'messages.${index + 1}.member.role' failed to satisfy constraint`);
    if (index === 0 && message.role !== 'user') throw validation('A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    const blocks = Array.isArray(message.content) ? message.content.map(record) : [];
    if (blocks.length === 0) throw validation(`The content field in the Message object at messages.${index} is empty. Add a ContentBlock object to the content field and try again.`);
    const toolUses = new Set<string>();
    let text = '';
    for (const block of blocks) {
      if (typeof block.text === 'string') {
        if (block.text.trim() === '') throw validation('The text field in the ContentBlock object is blank. Add text to the text field, and try again.');
        text += block.text;
      } else if (block.toolUse !== undefined) {
        const use = record(block.toolUse);
        if (message.role !== 'assistant' || typeof use.toolUseId !== 'string' || typeof use.name !== 'string') throw validation('Invalid toolUse block.');
        toolUses.add(use.toolUseId);
        historyHasTools = true;
      } else if (block.toolResult !== undefined) {
        const result = record(block.toolResult);
        if (message.role !== 'user' || !previousToolUses.has(String(result.toolUseId))) {
          throw validation('The number of toolResult blocks at messages.' + index + '.content exceeds the number of toolUse blocks of previous turn.');
        }
        historyHasTools = true;
        const content = Array.isArray(result.content) ? result.content.map(record) : [];
        turns.push({ role: 'tool', text: content.map((part) => (typeof part.text === 'string' ? part.text : JSON.stringify(part.json ?? ''))).join('') });
      }
    }
    if (text !== '' || message.role === 'assistant') turns.push({ role: message.role, text });
    previousToolUses = toolUses;
  });

  const toolConfig = body.toolConfig === undefined ? undefined : record(body.toolConfig);
  if (historyHasTools && !toolConfig) throw validation('The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  const tools: MockTool[] = [];
  for (const rawTool of Array.isArray(toolConfig?.tools) ? (toolConfig.tools as unknown[]) : []) {
    const spec = record(record(rawTool).toolSpec);
    if (typeof spec.name !== 'string' || record(spec.inputSchema).json === undefined) throw validation('Each toolSpec needs a name and inputSchema.json.');
    tools.push({ name: spec.name, parameters: record(record(spec.inputSchema).json) });
  }
  const system = (Array.isArray(body.system) ? body.system : []).map((block) => String(record(block).text ?? '')).join('');
  return { model: modelId, stream, system, turns, tools, mcpServers: [], includeStreamUsage: true };
}

/** inputTokens excludes cache reads, which are reported apart. */
function usageBody(usage: MockUsage): Record<string, unknown> {
  return {
    inputTokens: usage.promptTokens - usage.cachedTokens,
    outputTokens: usage.completionTokens,
    totalTokens: usage.promptTokens + usage.completionTokens,
    ...(usage.cachedTokens > 0 ? { cacheReadInputTokens: usage.cachedTokens, cacheWriteInputTokens: 0 } : {}),
  };
}

export function renderConverseJson(_conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined): RenderedJson {
  const content = answer.kind === 'text' ? [{ text: answer.text }] : [{ toolUse: { toolUseId: answer.id, name: answer.name, input: answer.arguments } }];
  const body: Record<string, unknown> = {
    output: { message: { role: 'assistant', content } },
    stopReason: answer.kind === 'text' ? 'end_turn' : 'tool_use',
    metrics: { latencyMs: 1 },
  };
  if (usage) body.usage = usageBody(usage);
  return { status: 200, body };
}

export function renderConverseStream(_conversation: MockConversation, answer: MockAnswer, usage: MockUsage | undefined): RenderedStream {
  const frames: Buffer[] = [encodeConverseEvent('messageStart', { role: 'assistant' })];
  const firstContent = frames.length;
  if (answer.kind === 'text') {
    for (const piece of streamPieces(answer.text)) frames.push(encodeConverseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text: piece } }));
  } else {
    const input = JSON.stringify(answer.arguments);
    const half = Math.ceil(input.length / 2);
    frames.push(encodeConverseEvent('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: answer.id, name: answer.name } } }));
    frames.push(encodeConverseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: input.slice(0, half) } } }));
    frames.push(encodeConverseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: input.slice(half) } } }));
  }
  frames.push(encodeConverseEvent('contentBlockStop', { contentBlockIndex: 0 }));
  frames.push(encodeConverseEvent('messageStop', { stopReason: answer.kind === 'text' ? 'end_turn' : 'tool_use' }));
  if (usage) frames.push(encodeConverseEvent('metadata', { usage: usageBody(usage), metrics: { latencyMs: 1 } }));
  return { contentType: 'application/vnd.amazon.eventstream', frames, firstContent };
}

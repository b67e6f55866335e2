import { DomainError } from '@gateway/errors';
import type { ledger, providerproxy } from '@gateway/proto';

export interface ToolResultInput {
  tool_call_id: string;
  content: string;
  name?: string;
}

/**
 * The message history that continues a tool-call loop: the conversation the parent step sent to
 * the model, the model's tool calls, then one tool message per result. Every result must answer
 * a call of the parent step, so a caller cannot inject turns the model never asked for.
 */
export function continueConversation(parent: ledger.Step, results: ToolResultInput[]): providerproxy.ChatMessage[] {
  if (parent.type !== 'tool_call' || parent.toolCalls.length === 0) {
    throw new DomainError('VALIDATION_FAILED', 'parent_step_id must be the step_id of a tool_calls_pending response');
  }
  const calls = new Map(parent.toolCalls.map((call) => [call.id, call]));
  for (const result of results) {
    if (!calls.has(result.tool_call_id)) throw new DomainError('VALIDATION_FAILED', `Unknown tool_call_id: ${result.tool_call_id}`);
  }
  const history = parseHistory(parent);
  history.push({
    role: 'assistant',
    content: typeof parent.output === 'string' ? parent.output : '',
    toolCalls: parent.toolCalls.map((call) => ({ id: call.id, name: call.name, arguments: call.arguments ?? {} })),
    toolCallId: '',
    name: '',
  });
  for (const result of results) {
    history.push({ role: 'tool', content: result.content, toolCalls: [], toolCallId: result.tool_call_id, name: result.name ?? calls.get(result.tool_call_id)!.name });
  }
  return history;
}

export function userMessage(input: string): providerproxy.ChatMessage {
  return { role: 'user', content: input, toolCalls: [], toolCallId: '', name: '' };
}

function parseHistory(parent: ledger.Step): providerproxy.ChatMessage[] {
  if (parent.conversationJson) {
    const parsed = JSON.parse(parent.conversationJson) as providerproxy.ChatMessage[];
    if (Array.isArray(parsed)) return parsed;
  }
  return [userMessage(parent.input)];
}

import { DomainError } from '@gateway/errors';
import { parseCompletionInput } from './completion-input.schema';

const valid = {
  projectId: 7,
  modelPath: ['gpt', 'claude', 'gpt'],
  messages: [
    { role: 'system', content: 'Be terse.', toolCalls: [], toolCallId: '', name: '' },
    { role: 'user', content: 'Weather in Paris?', toolCalls: [], toolCallId: '', name: '' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }], toolCallId: '', name: '' },
    { role: 'tool', content: '{"temp":21}', toolCalls: [], toolCallId: 'call_1', name: '' },
  ],
  tools: [
    { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } },
    { type: 'mcp', server_label: 'crm', server_url: 'https://mcp.example.com/sse', require_approval: 'never', vpc_only: false },
  ],
  maxTokens: 256,
  privateModelsOnly: false,
};

function errorsOf(raw: unknown): string[] {
  try {
    parseCompletionInput(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('VALIDATION_FAILED');
    return (error as DomainError).errors ?? [];
  }
  throw new Error('expected VALIDATION_FAILED');
}

describe('parseCompletionInput', () => {
  it('maps a valid request onto the domain shapes, dropping duplicate path entries', () => {
    const input = parseCompletionInput(valid);
    expect(input.modelPath).toEqual(['gpt', 'claude']);
    expect(input.messages[1]).toEqual({ role: 'user', content: 'Weather in Paris?' });
    expect(input.messages[2]).toEqual({ role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } }] });
    expect(input.messages[3]).toEqual({ role: 'tool', content: '{"temp":21}', toolCallId: 'call_1' });
    expect(input.tools[1]).toEqual({ type: 'mcp', server_label: 'crm', server_url: 'https://mcp.example.com/sse', require_approval: 'never', vpc_only: false });
    expect(input.maxTokens).toBe(256);
  });

  it('gives tool calls without arguments an empty object', () => {
    const input = parseCompletionInput({
      ...valid,
      messages: [valid.messages[1], { ...valid.messages[2], toolCalls: [{ id: 'c', name: 'now', arguments: undefined }] }],
    });
    expect(input.messages[1].toolCalls).toEqual([{ id: 'c', name: 'now', arguments: {} }]);
  });

  it.each([
    ['an empty model path', { modelPath: [] }, 'model_path needs at least one model'],
    ['a blank model identifier', { modelPath: [' '] }, "model_path[0] can't be blank"],
    ['no project', { projectId: 0 }, 'project_id must be a positive integer'],
    ['no messages', { messages: [] }, 'messages needs at least one message'],
    ['an unknown role', { messages: [{ role: 'robot', content: 'x' }] }, 'messages[0].role must be one of system, user, assistant, tool'],
    ['a tool message without tool_call_id', { messages: [{ role: 'tool', content: 'x' }] }, "messages[0].tool_call_id can't be blank on a tool message"],
    ['tool calls on a user message', { messages: [{ role: 'user', content: 'x', toolCalls: [{ id: 'a', name: 'b', arguments: {} }] }] }, 'messages[0].tool_calls are only allowed on assistant messages'],
    ['non-object tool arguments', { messages: [{ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'b', arguments: [1] }] }] }, 'messages[0].tool_calls[0].arguments must be an object'],
    ['a tool of unknown type', { tools: [{ type: 'retrieval' }] }, 'tools[0].type must be function or mcp'],
    ['a function name with spaces', { tools: [{ type: 'function', function: { name: 'get weather' } }] }, 'tools[0].function.name must be 1 to 64 letters, digits, underscores or dashes'],
    ['non-object parameters', { tools: [{ type: 'function', function: { name: 'f', parameters: 'x' } }] }, 'tools[0].function.parameters must be an object'],
    ['an MCP tool without a URL', { tools: [{ type: 'mcp', server_label: 'crm', server_url: 'not a url' }] }, 'tools[0].server_url must be a URL'],
    ['a non-boolean vpc_only', { tools: [{ type: 'mcp', server_label: 'crm', server_url: 'https://x.test', vpc_only: 'yes' }] }, 'tools[0].vpc_only must be a boolean'],
    ['a zero max_tokens', { maxTokens: 0 }, 'max_tokens must be a positive integer'],
  ])('refuses %s', (_name, patch, message) => {
    expect(errorsOf({ ...valid, ...patch })).toContain(message);
  });

  it('refuses system-only conversations and duplicate tools', () => {
    expect(errorsOf({ ...valid, messages: [valid.messages[0]] })).toEqual(['messages needs at least one non-system message']);
    expect(errorsOf({ ...valid, tools: [valid.tools[0], valid.tools[0]] })).toEqual(['tools[1] duplicates function get_weather']);
  });
});

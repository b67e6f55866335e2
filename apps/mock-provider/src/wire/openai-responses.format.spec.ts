import { parseOpenAiResponses, renderResponsesJson, renderResponsesStream } from './openai-responses.format';

const call = { type: 'function_call', call_id: 'call_1', name: 'f', arguments: '{}' };
const mcp = { type: 'mcp', server_label: 'crm', server_url: 'https://mcp.example', require_approval: 'never' };

describe('OpenAI Responses API format', () => {
  it('parses instructions, items, function and MCP tools', () => {
    const parsed = parseOpenAiResponses({
      model: 'gpt-4.1',
      instructions: 'S',
      input: [{ role: 'user', content: 'U' }, call, { type: 'function_call_output', call_id: 'call_1', output: 'R' }],
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }, mcp],
    });
    expect(parsed).toMatchObject({ model: 'gpt-4.1', system: 'S', mcpServers: ['crm'], tools: [{ name: 'f' }] });
    expect(parsed.turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it.each([
    ['a stray function_call_output', { model: 'm', input: [{ type: 'function_call_output', call_id: 'x', output: 'R' }] }, 'No tool call found'],
    ['an unanswered function_call', { model: 'm', input: [{ role: 'user', content: 'U' }, call] }, 'No tool output found'],
    ['an MCP server over http', { model: 'm', input: 'U', tools: [{ ...mcp, server_url: 'http://plain' }] }, 'https server_url'],
    ['no input', { model: 'm' }, "'input'"],
  ])('rejects %s with 400', (_name, body, message) => {
    expect(() => parseOpenAiResponses(body)).toThrow(expect.objectContaining({ status: 400, body: { error: expect.objectContaining({ message: expect.stringContaining(message) }) } }));
  });

  it('renders MCP items before the answer, with usage', () => {
    const conversation = parseOpenAiResponses({ model: 'm', input: 'U', tools: [mcp] });
    const usage = { promptTokens: 5, completionTokens: 2, cachedTokens: 1 };
    const { body } = renderResponsesJson(conversation, { kind: 'text', text: 'Hi' }, usage, '1') as { body: { output: Array<{ type: string }>; usage: unknown } };
    expect(body.output.map((item) => item.type)).toEqual(['mcp_list_tools', 'mcp_call', 'message']);
    expect(body.usage).toMatchObject({ input_tokens: 5, input_tokens_details: { cached_tokens: 1 }, output_tokens: 2 });
    const stream = renderResponsesStream(conversation, { kind: 'text', text: 'Hi there' }, usage, '1');
    expect(String(stream.frames[stream.firstContent])).toContain('response.output_text.delta');
    expect(String(stream.frames.at(-1))).toContain('"type":"response.completed"');
  });
});

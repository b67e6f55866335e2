import { bytes, collect, modelTarget, NOW, toolContinuation, weatherTool } from './adapter.fixture';
import { createAdapterRegistry } from './adapter.registry';
import { createOpenAiResponsesAdapter, parseResponsesCompletion, parseResponsesStream } from './openai-responses.adapter';

const mcp = { type: 'mcp' as const, server_label: 'crm', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' };
const sse = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

describe('openai responses adapter (MCP)', () => {
  const adapter = createOpenAiResponsesAdapter();

  it('is chosen for openai requests with MCP tools only', () => {
    const registry = createAdapterRegistry();
    const withMcp = { messages: [], tools: [mcp] };
    const plain = { messages: [], tools: [weatherTool] };
    const responsesUrl = registry('openai', withMcp)!.buildRequest(modelTarget(), withMcp, { stream: false, ...NOW }).url;
    expect(responsesUrl).toBe('https://api.openai.com/v1/responses');
    expect(registry('openai', plain)!.buildRequest(modelTarget(), plain, { stream: false, ...NOW }).url).toBe('https://api.openai.com/v1/chat/completions');
    expect(registry('internal', withMcp)!.unsupportedReason(modelTarget({ provider: 'internal' }), withMcp)).toBe('MCP tools are not supported by provider internal');
  });

  it('sends instructions, input items, function and MCP tools, without storing the response', () => {
    const request = adapter.buildRequest(modelTarget({ baseUrl: 'http://mock:8090', additionalConfig: { provider_model: 'gpt-4.1' } }), { ...toolContinuation, tools: [weatherTool, mcp], maxTokens: 99 }, { stream: true, ...NOW });
    expect(request.url).toBe('http://mock:8090/v1/responses');
    expect(request.headers.authorization).toBe('Bearer key-123');
    expect(JSON.parse(request.body)).toEqual({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '{"temp":21}' },
        { type: 'function_call_output', call_id: 'call_2', output: 'sunny' },
      ],
      tools: [
        { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: weatherTool.function.parameters, strict: false },
        { type: 'mcp', server_label: 'crm', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' },
      ],
      max_output_tokens: 99,
      store: false,
      stream: true,
    });
  });

  it.each([
    [{ ...mcp, vpc_only: true }, 'MCP tools marked vpc_only are not supported by provider openai'],
    [{ ...mcp, require_approval: 'always' }, 'MCP tools requiring approval are not supported by provider openai'],
    [{ ...mcp, server_url: 'http://mcp.example.com' }, 'MCP server_url must use https for provider openai'],
  ])('refuses MCP definitions OpenAI cannot honour (%#)', (tool, reason) => {
    expect(adapter.unsupportedReason(modelTarget(), { messages: [], tools: [tool] })).toBe(reason);
  });

  it('reads text, function calls and usage, skipping server-side MCP items', () => {
    const parsed = parseResponsesCompletion({
      object: 'response',
      status: 'completed',
      output: [
        { type: 'mcp_list_tools', server_label: 'crm', tools: [] },
        { type: 'mcp_call', server_label: 'crm', name: 'lookup', arguments: '{}', output: 'found' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello ' }, { type: 'output_text', text: 'there' }] },
      ],
      usage: { input_tokens: 30, input_tokens_details: { cached_tokens: 10 }, output_tokens: 5 },
    });
    expect(parsed).toEqual({ text: 'Hello there', toolCalls: [], usage: { promptTokens: 30, completionTokens: 5, cachedTokens: 10 }, finishReason: 'stop' });
    const call = parseResponsesCompletion({ status: 'completed', output: [{ type: 'function_call', call_id: 'call_9', name: 'f', arguments: '{"a":1}' }] });
    expect(call).toMatchObject({ toolCalls: [{ id: 'call_9', name: 'f', arguments: { a: 1 } }], finishReason: 'tool_calls' });
    expect(parseResponsesCompletion({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] }).finishReason).toBe('length');
    expect(() => parseResponsesCompletion({ status: 'failed', error: { code: 'server_error' }, output: [] })).toThrow('response failed (server_error)');
  });

  it('streams text deltas, whole function calls and the usage of response.completed', async () => {
    const events = await collect(
      parseResponsesStream(
        bytes(
          sse('response.created', { response: { status: 'in_progress' } }),
          sse('response.output_text.delta', { delta: 'Hi ' }),
          sse('response.output_text.delta', { delta: 'you' }),
          sse('response.function_call_arguments.delta', { delta: '{"a"' }),
          sse('response.output_item.done', { item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{"a":2}' } }),
          sse('response.completed', { response: { status: 'completed', usage: { input_tokens: 7, output_tokens: 3 } } }),
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'delta', content: 'Hi ' },
      { type: 'delta', content: 'you' },
      { type: 'tool_call', toolCall: { id: 'c1', name: 'f', arguments: { a: 2 } } },
      { type: 'end', usage: { promptTokens: 7, completionTokens: 3, cachedTokens: 0 }, finishReason: 'tool_calls' },
    ]);
  });

  it('ends nothing on a stream cut before response.completed, and fails on response.failed', async () => {
    expect(await collect(parseResponsesStream(bytes(sse('response.output_text.delta', { delta: 'x' }))))).toEqual([{ type: 'delta', content: 'x' }]);
    await expect(collect(parseResponsesStream(bytes(sse('response.failed', { response: { error: { code: 'rate_limit_exceeded' } } }))))).rejects.toThrow('response failed (rate_limit_exceeded)');
  });
});

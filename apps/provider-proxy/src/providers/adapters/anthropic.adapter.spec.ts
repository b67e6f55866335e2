import { bytes, collect, modelTarget, NOW, toolContinuation } from './adapter.fixture';
import { ANTHROPIC_MCP_BETA, createAnthropicAdapter } from './anthropic.adapter';

describe('anthropic adapter', () => {
  const anthropic = createAnthropicAdapter();
  const target = modelTarget({ provider: 'anthropic', additionalConfig: { provider_model: 'claude-3-5-haiku-latest' } });

  it('sends x-api-key, anthropic-version, a top-level system prompt and a default max_tokens', () => {
    const request = anthropic.buildRequest(target, { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }] }, { stream: false, ...NOW });
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers['x-api-key']).toBe('key-123');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers['anthropic-beta']).toBeUndefined();
    expect(JSON.parse(request.body)).toEqual({
      model: 'claude-3-5-haiku-latest',
      max_tokens: 4096,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
  });

  it('sends tool_use blocks and answers them with tool_result blocks in one user turn', () => {
    const body = JSON.parse(anthropic.buildRequest(target, toolContinuation, { stream: false, ...NOW }).body);
    expect(body.tools).toEqual([{ name: 'get_weather', description: 'Weather for a city', input_schema: toolContinuation.tools![0].type === 'function' ? toolContinuation.tools![0].function.parameters : undefined }]);
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'call_2', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: '{"temp":21}' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'sunny' },
        ],
      },
    ]);
  });

  it('passes MCP servers natively through the MCP connector', () => {
    const req = { messages: [{ role: 'user' as const, content: 'hi' }], tools: [{ type: 'mcp' as const, server_label: 'docs', server_url: 'https://mcp.example/sse', require_approval: 'never' }] };
    expect(anthropic.unsupportedReason(target, req)).toBeUndefined();
    const request = anthropic.buildRequest(target, req, { stream: false, ...NOW });
    expect(request.headers['anthropic-beta']).toBe(ANTHROPIC_MCP_BETA);
    const body = JSON.parse(request.body);
    expect(body.mcp_servers).toEqual([{ type: 'url', url: 'https://mcp.example/sse', name: 'docs' }]);
    expect(body.tools).toEqual([{ type: 'mcp_toolset', mcp_server_name: 'docs' }]);
  });

  it('refuses MCP definitions the connector cannot honour', () => {
    const mcp = (extra: Record<string, unknown>) => ({ messages: [], tools: [{ type: 'mcp' as const, server_label: 's', server_url: 'https://x', ...extra }] });
    expect(anthropic.unsupportedReason(target, mcp({ require_approval: 'always' }))).toMatch(/approval.*anthropic/);
    expect(anthropic.unsupportedReason(target, mcp({ vpc_only: true }))).toMatch(/vpc_only.*anthropic/);
    expect(anthropic.unsupportedReason(target, mcp({ server_url: 'http://plain' }))).toMatch(/https.*anthropic/);
  });

  it('counts prompt-cache reads and writes as prompt tokens and skips server-side MCP blocks', () => {
    const parsed = anthropic.parseCompletion({
      content: [
        { type: 'mcp_tool_use', id: 'm1', name: 'x', server_name: 's', input: {} },
        { type: 'mcp_tool_result', tool_use_id: 'm1', content: [] },
        { type: 'text', text: 'Hello' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Oslo' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, cache_read_input_tokens: 100, cache_creation_input_tokens: 5, output_tokens: 7 },
    });
    expect(parsed).toEqual({
      text: 'Hello',
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      usage: { promptTokens: 115, completionTokens: 7, cachedTokens: 100 },
      finishReason: 'tool_calls',
    });
  });

  it('streams text and tool input, with usage from message_start and message_delta', async () => {
    const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
    const events = await collect(
      anthropic.parseStream(
        bytes(
          event('message_start', { message: { usage: { input_tokens: 12, cache_read_input_tokens: 3, output_tokens: 1 } } }),
          event('ping', {}),
          event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
          event('content_block_stop', { index: 0 }),
          event('content_block_start', { index: 1, content_block: { type: 'tool_use', id: 'toolu_9', name: 'f', input: {} } }),
          event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '{"q":' } }),
          event('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: '"x"}' } }),
          event('content_block_stop', { index: 1 }),
          event('message_delta', { delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } }),
          event('message_stop', {}),
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'delta', content: 'Hi' },
      { type: 'tool_call', toolCall: { id: 'toolu_9', name: 'f', arguments: { q: 'x' } } },
      { type: 'end', usage: { promptTokens: 15, completionTokens: 9, cachedTokens: 3 }, finishReason: 'tool_calls' },
    ]);
  });

  it('turns an overloaded error event into a retryable failure', async () => {
    const stream = anthropic.parseStream(bytes('event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'));
    await expect(collect(stream)).rejects.toMatchObject({ retryable: true, status: 529 });
  });
});

import { bytes, collect, modelTarget, NOW, toolContinuation, weatherTool } from './adapter.fixture';
import { chatCompletionsUrl, createOpenAiAdapter } from './openai.adapter';

describe('openai adapter', () => {
  const openai = createOpenAiAdapter('openai');
  const internal = createOpenAiAdapter('internal');

  it('targets the public API by default with a Bearer key and max_completion_tokens', () => {
    const request = openai.buildRequest(modelTarget({ additionalConfig: { provider_model: 'gpt-4o-mini' } }), { messages: [{ role: 'user', content: 'hi' }], maxTokens: 50 }, { stream: false, ...NOW });
    expect(request.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(request.headers.authorization).toBe('Bearer key-123');
    expect(JSON.parse(request.body)).toEqual({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 50 });
  });

  it('accepts compatible base URLs with or without /v1 and uses max_tokens there', () => {
    expect(chatCompletionsUrl('http://vllm:8000')).toBe('http://vllm:8000/v1/chat/completions');
    expect(chatCompletionsUrl('http://vllm:8000/v1/')).toBe('http://vllm:8000/v1/chat/completions');
    const request = openai.buildRequest(modelTarget({ baseUrl: 'http://groq.local/openai/v1' }), { messages: [], maxTokens: 5 }, { stream: false, ...NOW });
    expect(JSON.parse(request.body).max_tokens).toBe(5);
  });

  it('sends no Authorization header for an internal model without key', () => {
    const request = internal.buildRequest(modelTarget({ provider: 'internal', apiKey: undefined, baseUrl: 'http://10.0.0.5:8000/v1' }), { messages: [] }, { stream: false, ...NOW });
    expect(request.headers.authorization).toBeUndefined();
    expect(() => internal.buildRequest(modelTarget({ provider: 'internal', baseUrl: undefined }), { messages: [] }, { stream: false, ...NOW })).toThrow('needs a base_url');
  });

  it('asks for usage in streams', () => {
    const body = JSON.parse(openai.buildRequest(modelTarget(), { messages: [] }, { stream: true, ...NOW }).body);
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
  });

  it('translates tools and the tool-result history', () => {
    const body = JSON.parse(openai.buildRequest(modelTarget(), toolContinuation, { stream: false, ...NOW }).body);
    expect(body.tools).toEqual([{ type: 'function', function: weatherTool.function }]);
    expect(body.messages.slice(2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
      { role: 'tool', tool_call_id: 'call_2', content: 'sunny' },
    ]);
  });

  it('refuses MCP tools, naming the provider', () => {
    const req = { messages: [], tools: [{ type: 'mcp' as const, server_label: 's', server_url: 'https://mcp.example' }] };
    expect(openai.unsupportedReason(modelTarget(), req)).toBe('MCP tools are not supported by provider openai');
    expect(internal.unsupportedReason(modelTarget(), req)).toBe('MCP tools are not supported by provider internal');
  });

  it('parses tool calls into objects, keeping unparseable arguments under _raw', () => {
    const parsed = openai.parseCompletion({
      choices: [{ message: { content: null, tool_calls: [{ id: 'c1', function: { name: 'f', arguments: '{"a":1}' } }, { id: 'c2', function: { name: 'g', arguments: '{oops' } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 } },
    });
    expect(parsed.toolCalls).toEqual([{ id: 'c1', name: 'f', arguments: { a: 1 } }, { id: 'c2', name: 'g', arguments: { _raw: '{oops' } }]);
    expect(parsed.usage).toEqual({ promptTokens: 10, completionTokens: 3, cachedTokens: 4 });
    expect(parsed.finishReason).toBe('tool_calls');
    expect(() => openai.parseCompletion({ error: {} })).toThrow('response without choices');
  });

  it('assembles streamed tool-call fragments and reads the final usage chunk', async () => {
    const chunk = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
    const events = await collect(
      openai.parseStream(
        bytes(
          chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }),
          chunk({ choices: [{ index: 0, delta: { content: 'Hel' } }] }),
          chunk({ choices: [{ index: 0, delta: { content: 'lo' } }] }),
          chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{"a"' } }] } }] }),
          chunk({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: ':2}' } }] } }] }),
          chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
          chunk({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 5 } }),
          'data: [DONE]\n\n',
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'delta', content: 'Hel' },
      { type: 'delta', content: 'lo' },
      { type: 'tool_call', toolCall: { id: 'c1', name: 'f', arguments: { a: 2 } } },
      { type: 'end', usage: { promptTokens: 7, completionTokens: 5, cachedTokens: 0 }, finishReason: 'tool_calls' },
    ]);
  });

  it('yields no end event for a stream cut before it finished', async () => {
    const events = await collect(openai.parseStream(bytes('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n')));
    expect(events).toEqual([{ type: 'delta', content: 'Hi' }]);
  });
});

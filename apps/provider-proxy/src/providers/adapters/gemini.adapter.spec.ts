import { bytes, collect, modelTarget, NOW, toolContinuation } from './adapter.fixture';
import { createGeminiAdapter, toGeminiSchema } from './gemini.adapter';

describe('gemini adapter', () => {
  const gemini = createGeminiAdapter();
  const target = modelTarget({ provider: 'gemini', additionalConfig: { provider_model: 'gemini-2.0-flash' } });

  it('calls generateContent with the key in x-goog-api-key, never in the URL', () => {
    const request = gemini.buildRequest(target, { messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'hi' }], maxTokens: 20 }, { stream: false, ...NOW });
    expect(request.url).toBe('https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:generateContent');
    expect(request.url).not.toContain('key-123');
    expect(request.headers['x-goog-api-key']).toBe('key-123');
    expect(JSON.parse(request.body)).toEqual({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      generationConfig: { maxOutputTokens: 20 },
    });
  });

  it('streams through streamGenerateContent?alt=sse', () => {
    expect(gemini.buildRequest(target, { messages: [] }, { stream: true, ...NOW }).url).toBe(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    );
  });

  it('sends functionCall parts and answers them with named functionResponse parts in one turn', () => {
    const body = JSON.parse(gemini.buildRequest(target, toolContinuation, { stream: false, ...NOW }).body);
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        ],
      },
    ]);
    expect(body.contents.slice(1)).toEqual([
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
          { functionResponse: { name: 'get_weather', response: { content: 'sunny' } } },
        ],
      },
    ]);
  });

  it('reduces JSON Schema to the fields Gemini accepts', () => {
    expect(
      toGeminiSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: { tags: { type: 'array', items: { type: ['string', 'null'] } }, mode: { const: 'fast' } },
      }),
    ).toEqual({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string', nullable: true } }, mode: { enum: ['fast'] } } });
  });

  it('refuses MCP tools', () => {
    expect(gemini.unsupportedReason(target, { messages: [], tools: [{ type: 'mcp', server_label: 's', server_url: 'https://x' }] })).toBe('MCP tools are not supported by provider gemini');
  });

  it('mints ids for function calls and counts thinking tokens as completion', () => {
    const parsed = gemini.parseCompletion({
      candidates: [{ content: { role: 'model', parts: [{ text: 'thinking', thought: true }, { functionCall: { name: 'f', args: { a: 1 } } }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 4, thoughtsTokenCount: 6, cachedContentTokenCount: 8 },
    });
    expect(parsed.text).toBe('');
    expect(parsed.toolCalls).toEqual([{ id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'f', arguments: { a: 1 } }]);
    expect(parsed.usage).toEqual({ promptTokens: 10, completionTokens: 10, cachedTokens: 8 });
    expect(parsed.finishReason).toBe('tool_calls');
  });

  it('reports a blocked prompt as content_filter', () => {
    expect(gemini.parseCompletion({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3 } }).finishReason).toBe('content_filter');
  });

  it('streams text and takes the last usageMetadata', async () => {
    const chunk = (value: unknown) => `data: ${JSON.stringify(value)}\r\n\r\n`;
    const events = await collect(
      gemini.parseStream(
        bytes(
          chunk({ candidates: [{ content: { parts: [{ text: 'Hel' }] } }], usageMetadata: { promptTokenCount: 5 } }),
          chunk({ candidates: [{ content: { parts: [{ text: 'lo' }] }, finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } }),
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'delta', content: 'Hel' },
      { type: 'delta', content: 'lo' },
      { type: 'end', usage: { promptTokens: 5, completionTokens: 2, cachedTokens: 0 }, finishReason: 'stop' },
    ]);
  });

  it('yields no end event when the stream stops before a finishReason', async () => {
    const events = await collect(gemini.parseStream(bytes('data: {"candidates":[{"content":{"parts":[{"text":"Hi"}]}}]}\n\n')));
    expect(events.map((event) => event.type)).toEqual(['delta']);
  });
});

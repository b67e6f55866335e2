import { crc32 } from 'node:zlib';
import { bytes, collect, modelTarget, NOW, toolContinuation } from './adapter.fixture';
import { converseBody, createBedrockAdapter } from './bedrock.adapter';

function frame(headers: Record<string, string>, payload: unknown): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const valueBytes = Buffer.from(value);
      return Buffer.concat([Buffer.from([name.length]), Buffer.from(name), Buffer.from([7, valueBytes.length >> 8, valueBytes.length & 0xff]), valueBytes]);
    }),
  );
  const body = Buffer.from(JSON.stringify(payload));
  const out = Buffer.alloc(16 + headerBytes.length + body.length);
  out.writeUInt32BE(out.length, 0);
  out.writeUInt32BE(headerBytes.length, 4);
  out.writeUInt32BE(crc32(out.subarray(0, 8)), 8);
  headerBytes.copy(out, 12);
  body.copy(out, 12 + headerBytes.length);
  out.writeUInt32BE(crc32(out.subarray(0, out.length - 4)), out.length - 4);
  return out;
}
const event = (type: string, payload: unknown) => frame({ ':event-type': type, ':content-type': 'application/json', ':message-type': 'event' }, payload);

describe('bedrock adapter', () => {
  const bedrock = createBedrockAdapter();
  const target = modelTarget({
    provider: 'bedrock',
    apiKey: 'AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
    additionalConfig: { region: 'eu-west-1', provider_model: 'anthropic.claude-3-haiku-20240307-v1:0' },
  });

  it('calls the regional Converse endpoint with the model id path-encoded and a SigV4 signature', () => {
    const request = bedrock.buildRequest(target, { messages: [{ role: 'user', content: 'hi' }] }, { stream: false, ...NOW });
    expect(request.url).toBe('https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse');
    expect(request.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20250102\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=[0-9a-f]{64}$/,
    );
    expect(request.headers['x-amz-date']).toBe('20250102T030405Z');
    expect(JSON.stringify(request.headers)).not.toContain('wJalrXUtnFEMI');
  });

  it('uses converse-stream for streams', () => {
    expect(bedrock.buildRequest(target, { messages: [] }, { stream: true, ...NOW }).url).toMatch(/\/converse-stream$/);
  });

  it('reports missing region or malformed credentials as misconfiguration, without the key', () => {
    expect(() => bedrock.buildRequest({ ...target, additionalConfig: {} }, { messages: [] }, { stream: false, ...NOW })).toThrow('additional_config.region');
    expect(() => bedrock.buildRequest({ ...target, apiKey: 'secret-without-colon' }, { messages: [] }, { stream: false, ...NOW })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret-without-colon') }),
    );
  });

  it('translates tools and the toolUse / toolResult history', () => {
    const body = converseBody(toolContinuation);
    expect(body.system).toEqual([{ text: 'Be brief.' }]);
    expect(body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'get_weather', description: 'Weather for a city', inputSchema: { json: toolContinuation.tools![0].type === 'function' ? toolContinuation.tools![0].function.parameters : {} } } }],
    });
    expect((body.messages as unknown[]).slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } },
          { toolUse: { toolUseId: 'call_2', name: 'get_weather', input: { city: 'Rome' } } },
        ],
      },
      {
        role: 'user',
        content: [
          { toolResult: { toolUseId: 'call_1', content: [{ text: '{"temp":21}' }] } },
          { toolResult: { toolUseId: 'call_2', content: [{ text: 'sunny' }] } },
        ],
      },
    ]);
  });

  it('declares the history tools when a continuation arrives without tool definitions', () => {
    const body = converseBody({ ...toolContinuation, tools: undefined });
    expect(body.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: { type: 'object', properties: {} } } } }] });
  });

  it('refuses MCP tools', () => {
    expect(bedrock.unsupportedReason(target, { messages: [], tools: [{ type: 'mcp', server_label: 's', server_url: 'https://x' }] })).toBe('MCP tools are not supported by provider bedrock');
  });

  it('parses Converse output with cache reads counted as prompt tokens', () => {
    expect(
      bedrock.parseCompletion({
        output: { message: { role: 'assistant', content: [{ text: 'Hi' }, { toolUse: { toolUseId: 't1', name: 'f', input: { a: 1 } } }] } },
        stopReason: 'tool_use',
        usage: { inputTokens: 10, outputTokens: 4, cacheReadInputTokens: 30 },
      }),
    ).toEqual({ text: 'Hi', toolCalls: [{ id: 't1', name: 'f', arguments: { a: 1 } }], usage: { promptTokens: 40, completionTokens: 4, cachedTokens: 30 }, finishReason: 'tool_calls' });
  });

  it('decodes ConverseStream frames, tool input fragments and the metadata usage', async () => {
    const events = await collect(
      bedrock.parseStream(
        bytes(
          Buffer.concat([
            event('messageStart', { role: 'assistant' }),
            event('contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }),
            event('contentBlockStop', { contentBlockIndex: 0 }),
            event('contentBlockStart', { contentBlockIndex: 1, start: { toolUse: { toolUseId: 't1', name: 'f' } } }),
            event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '{"a":' } } }),
          ]),
          Buffer.concat([
            event('contentBlockDelta', { contentBlockIndex: 1, delta: { toolUse: { input: '1}' } } }),
            event('contentBlockStop', { contentBlockIndex: 1 }),
            event('messageStop', { stopReason: 'tool_use' }),
            event('metadata', { usage: { inputTokens: 8, outputTokens: 3 }, metrics: { latencyMs: 5 } }),
          ]),
        ),
      ),
    );
    expect(events).toEqual([
      { type: 'delta', content: 'Hi' },
      { type: 'tool_call', toolCall: { id: 't1', name: 'f', arguments: { a: 1 } } },
      { type: 'end', usage: { promptTokens: 8, completionTokens: 3, cachedTokens: 0 }, finishReason: 'tool_calls' },
    ]);
  });

  it('maps a throttling exception frame to a retryable 429', async () => {
    const exception = frame({ ':exception-type': 'throttlingException', ':content-type': 'application/json', ':message-type': 'exception' }, { message: 'slow down' });
    await expect(collect(bedrock.parseStream(bytes(exception)))).rejects.toMatchObject({ retryable: true, status: 429 });
  });
});

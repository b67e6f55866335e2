import { parseOpenAiChat, renderOpenAiStream } from './openai.format';

const call = { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } };

describe('parseOpenAiChat', () => {
  it('reads turns, system prompt, tools and include_usage', () => {
    const parsed = parseOpenAiChat({
      model: 'gpt',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'tool', tool_call_id: 'call_1', content: 'R' },
      ],
      tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    });
    expect(parsed).toMatchObject({ model: 'gpt', stream: true, includeStreamUsage: true, system: 'S', tools: [{ name: 'f' }] });
    expect(parsed.turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it.each([
    ['a tool message without its tool_calls', [{ role: 'user', content: 'U' }, { role: 'tool', tool_call_id: 'call_1', content: 'R' }], "must be a response to a preceeding message with 'tool_calls'"],
    ['an unanswered tool call', [{ role: 'user', content: 'U' }, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'user', content: 'again' }], 'did not have response messages: call_1'],
    ['object arguments', [{ role: 'assistant', content: null, tool_calls: [{ ...call, function: { name: 'f', arguments: {} } }] }], "Invalid 'tool_calls'"],
  ])('rejects %s with 400', (_name, messages, message) => {
    expect(() => parseOpenAiChat({ model: 'gpt', messages })).toThrow(expect.objectContaining({ status: 400, body: { error: expect.objectContaining({ message: expect.stringContaining(message) }) } }));
  });

  it('rejects MCP tools like chat completions does', () => {
    expect(() => parseOpenAiChat({ model: 'gpt', messages: [{ role: 'user', content: 'U' }], tools: [{ type: 'mcp', server_label: 's' }] })).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('renderOpenAiStream', () => {
  it('sends usage only when asked, then [DONE]', () => {
    const base = { model: 'gpt', stream: true, system: '', turns: [], tools: [], mcpServers: [] };
    const usage = { promptTokens: 3, completionTokens: 2, cachedTokens: 0 };
    const withUsage = renderOpenAiStream({ ...base, includeStreamUsage: true }, { kind: 'text', text: 'a b' }, usage, 'id');
    const without = renderOpenAiStream({ ...base, includeStreamUsage: false }, { kind: 'text', text: 'a b' }, usage, 'id');
    expect(withUsage.frames.join('')).toContain('"usage":{"prompt_tokens":3');
    expect(without.frames.join('')).not.toContain('usage');
    expect(withUsage.frames[withUsage.frames.length - 1]).toBe('data: [DONE]\n\n');
    expect(withUsage.frames[withUsage.firstContent]).toContain('"content":"a "');
  });
});

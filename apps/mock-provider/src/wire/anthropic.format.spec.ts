import { MCP_BETA, parseAnthropicMessages } from './anthropic.format';

const toolUse = { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] };
const base = { model: 'claude', max_tokens: 10 };

describe('parseAnthropicMessages', () => {
  it('accepts a tool_use answered by a tool_result in the next user turn', () => {
    const parsed = parseAnthropicMessages(
      { ...base, system: 'S', messages: [{ role: 'user', content: 'U' }, toolUse, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'R' }] }] },
      undefined,
    );
    expect(parsed.turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool']);
    expect(parsed.system).toBe('S');
  });

  it.each([
    ['missing max_tokens', { model: 'claude', messages: [{ role: 'user', content: 'U' }] }, 'max_tokens'],
    ['a system role in messages', { ...base, messages: [{ role: 'system', content: 'S' }] }, "Input should be 'user' or 'assistant'"],
    ['an empty text block', { ...base, messages: [{ role: 'user', content: [{ type: 'text', text: '' }] }] }, 'non-empty'],
    ['an unanswered tool_use', { ...base, messages: [{ role: 'user', content: 'U' }, toolUse, { role: 'user', content: 'next' }] }, 'without `tool_result`'],
    ['a stray tool_result', { ...base, messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x', content: 'R' }] }] }, 'unexpected `tool_use_id`'],
  ])('rejects %s with 400', (_name, body, message) => {
    expect(() => parseAnthropicMessages(body, undefined)).toThrow(expect.objectContaining({ status: 400, body: { type: 'error', error: expect.objectContaining({ message: expect.stringContaining(message) }) } }));
  });

  it('takes mcp_servers only with the MCP connector beta header and https URLs', () => {
    const body = { ...base, messages: [{ role: 'user', content: 'U' }], mcp_servers: [{ type: 'url', url: 'https://mcp.example', name: 'docs' }], tools: [{ type: 'mcp_toolset', mcp_server_name: 'docs' }] };
    expect(() => parseAnthropicMessages(body, undefined)).toThrow(expect.objectContaining({ status: 400 }));
    expect(parseAnthropicMessages(body, MCP_BETA).mcpServers).toEqual(['docs']);
    expect(() => parseAnthropicMessages({ ...body, mcp_servers: [{ type: 'url', url: 'http://plain', name: 'docs' }] }, MCP_BETA)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

import { parseConverseRequest } from './bedrock.format';

const toolUse = { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] };
const toolResult = { role: 'user', content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'R' }] } }] };
const toolConfig = { tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }] };

describe('parseConverseRequest', () => {
  it('accepts a toolUse answered by a toolResult when toolConfig is present', () => {
    const parsed = parseConverseRequest({ messages: [{ role: 'user', content: [{ text: 'U' }] }, toolUse, toolResult], toolConfig, system: [{ text: 'S' }] }, 'm', false);
    expect(parsed.turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool']);
    expect(parsed.system).toBe('S');
  });

  it.each([
    ['tool blocks without toolConfig', { messages: [{ role: 'user', content: [{ text: 'U' }] }, toolUse, toolResult] }, 'toolConfig field must be defined'],
    ['a blank text block', { messages: [{ role: 'user', content: [{ text: ' ' }] }] }, 'blank'],
    ['a conversation starting with the assistant', { messages: [toolUse] }, 'must start with a user message'],
    ['a toolResult for an unknown toolUse', { messages: [{ role: 'user', content: [{ text: 'U' }] }, { role: 'assistant', content: [{ text: 'A' }] }, toolResult], toolConfig }, 'toolResult'],
  ])('rejects %s with a ValidationException', (_name, body, message) => {
    expect(() => parseConverseRequest(body, 'm', false)).toThrow(
      expect.objectContaining({ status: 400, headers: { 'x-amzn-errortype': 'ValidationException' }, body: { message: expect.stringContaining(message) } }),
    );
  });
});

import { parseGeminiRequest } from './gemini.format';

const call = { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] };
const reply = (name = 'f') => ({ functionResponse: { name, response: { ok: true } } });

describe('parseGeminiRequest', () => {
  it('accepts a functionResponse turn right after the functionCall turn', () => {
    const parsed = parseGeminiRequest({ contents: [{ role: 'user', parts: [{ text: 'U' }] }, call, { role: 'user', parts: [reply()] }] }, 'gemini', false);
    expect(parsed.turns.map((turn) => turn.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it.each([
    ['a functionResponse without a call', [{ role: 'user', parts: [reply()] }], 'comes immediately after a function call turn'],
    ['fewer responses than calls', [{ role: 'user', parts: [{ text: 'U' }] }, { role: 'model', parts: [call.parts[0], call.parts[0]] }, { role: 'user', parts: [reply()] }], 'number of function response parts'],
    ['a response for another function', [{ role: 'user', parts: [{ text: 'U' }] }, call, { role: 'user', parts: [reply('g')] }], 'does not match'],
  ])('rejects %s with 400', (_name, contents, message) => {
    expect(() => parseGeminiRequest({ contents }, 'gemini', false)).toThrow(expect.objectContaining({ status: 400, body: { error: expect.objectContaining({ message: expect.stringContaining(message) }) } }));
  });

  it('rejects JSON Schema fields outside Gemini’s Schema subset', () => {
    const tools = [{ functionDeclarations: [{ name: 'f', parameters: { type: 'object', additionalProperties: false } }] }];
    expect(() => parseGeminiRequest({ contents: [{ role: 'user', parts: [{ text: 'U' }] }], tools }, 'gemini', false)).toThrow(
      expect.objectContaining({ status: 400, body: { error: expect.objectContaining({ message: expect.stringContaining('Unknown name "additionalProperties"') }) } }),
    );
  });
});

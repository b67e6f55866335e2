import { argumentsFromSchema, generateAnswer, streamPieces, usageFor } from './answer.generator';
import type { MockConversation } from './mock.types';

const conversation = (overrides: Partial<MockConversation>): MockConversation => ({
  model: 'm',
  stream: false,
  system: '',
  turns: [],
  tools: [],
  mcpServers: [],
  includeStreamUsage: false,
  ...overrides,
});

describe('generateAnswer', () => {
  it('answers the last user message deterministically', () => {
    const input = conversation({ turns: [{ role: 'user', text: 'Tell me everything about the history of the Roman empire' }] });
    expect(generateAnswer(input, 'call_')).toEqual({ kind: 'text', text: 'Mock answer to: Tell me everything about the history of ' });
    expect(generateAnswer(input, 'call_')).toEqual(generateAnswer(input, 'call_'));
  });

  it('calls the first offered tool when the user spoke last', () => {
    const answer = generateAnswer(conversation({ turns: [{ role: 'user', text: 'weather?' }], tools: [{ name: 'get_weather', parameters: { properties: { city: { type: 'string' } } } }] }), 'toolu_');
    expect(answer).toEqual({ kind: 'tool_call', id: expect.stringMatching(/^toolu_[0-9a-f]{8}$/), name: 'get_weather', arguments: { city: 'mock-city' } });
  });

  it('gives a final answer after tool results', () => {
    const answer = generateAnswer(
      conversation({ turns: [{ role: 'user', text: 'weather?' }, { role: 'assistant', text: '' }, { role: 'tool', text: '{"temp":20}' }], tools: [{ name: 'f', parameters: {} }] }),
      'call_',
    );
    expect(answer).toEqual({ kind: 'text', text: 'Mock answer using tool results: {"temp":20}' });
  });
});

describe('argumentsFromSchema', () => {
  it('builds a value of each declared type', () => {
    expect(
      argumentsFromSchema({
        properties: {
          name: { type: 'string' },
          unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
          count: { type: 'integer' },
          ratio: { type: 'number' },
          flag: { type: 'boolean' },
          tags: { type: 'array', items: { type: 'string' } },
          nested: { type: 'object', properties: { inner: { type: ['integer', 'null'] } } },
        },
      }),
    ).toEqual({ name: 'mock-name', unit: 'celsius', count: 1, ratio: 1.5, flag: true, tags: ['mock-tags'], nested: { inner: 1 } });
  });
});

describe('usageFor and streamPieces', () => {
  it('estimates tokens as characters / 4 and caps cached tokens at the prompt', () => {
    const input = conversation({ system: 'x'.repeat(20), turns: [{ role: 'user', text: 'y'.repeat(20) }] });
    expect(usageFor(input, { kind: 'text', text: 'z'.repeat(8) }, 50)).toEqual({ promptTokens: 10, completionTokens: 2, cachedTokens: 10 });
  });

  it('splits into word pieces that join back to the text', () => {
    expect(streamPieces('Mock answer to: hi')).toEqual(['Mock ', 'answer ', 'to: ', 'hi']);
  });
});

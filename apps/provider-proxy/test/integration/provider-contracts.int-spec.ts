import { isDomainError } from '@gateway/errors';
import { createProviderGateway, type ChatMessage, type StreamEvent } from '../../src/providers';
import { EXPECTED_ANSWER, MESSAGES, PROVIDERS, REQUEST_SHAPE, startMockProvider, weatherTool, WRONG_KEY, type MockHarness } from './mock-provider.harness';

/**
 * Contract of every adapter against the mock-provider over real HTTP: request shape, auth,
 * model name, tools both ways, the tool-result continuation, streaming with usage, costing.
 */
async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('provider adapter contracts (mock-provider over HTTP)', () => {
  let harness: MockHarness;
  const gateway = createProviderGateway({ timeoutMs: 5000, maxRetries: 0, backoffBaseMs: 1, breaker: { failureThreshold: 100, openMs: 1000 } });

  beforeAll(async () => {
    harness = await startMockProvider();
  });
  afterAll(async () => {
    await harness.close();
  });
  beforeEach(() => harness.mock.reset());

  describe.each(PROVIDERS)('%s', (provider) => {
    it('sends the provider request shape and returns the answer, usage and exact cost', async () => {
      const target = harness.target(provider);
      const result = await gateway.complete([target], { messages: MESSAGES });

      expect(harness.mock.requestLog).toHaveLength(1);
      const entry = harness.mock.requestLog[0];
      expect(entry.status).toBe(200);
      REQUEST_SHAPE[provider](entry);

      expect(result.text).toBe(EXPECTED_ANSWER);
      expect(result.toolCalls).toEqual([]);
      expect(result.finishReason).toBe('stop');
      expect(result.modelUsed).toBe(target.identifier);
      expect(result.attempts).toBe(1);
      expect(result.usage).toEqual(entry.usage);
      expect(result.usage.promptTokens).toBeGreaterThan(0);
      expect(result.costUsd).toBeCloseTo((result.usage.promptTokens * 0.5 + result.usage.completionTokens * 1.5) / 1000, 10);
    });

    it('translates tools out and tool calls back, then continues with the tool results', async () => {
      const target = harness.target(provider);
      const first = await gateway.complete([target], { messages: MESSAGES, tools: [weatherTool] });
      expect(first.finishReason).toBe('tool_calls');
      expect(first.text).toBe('');
      expect(first.toolCalls).toEqual([{ id: expect.any(String), name: 'get_weather', arguments: { city: 'mock-city', days: 1 } }]);
      expect(first.toolCalls[0].id).not.toBe('');

      // The mock validates the history like the real API (ids answered, turn order, toolConfig).
      const continuation: ChatMessage[] = [
        ...MESSAGES,
        { role: 'assistant', content: '', toolCalls: first.toolCalls },
        { role: 'tool', toolCallId: first.toolCalls[0].id, content: '{"temperature":"18C","sky":"clear"}' },
      ];
      const second = await gateway.complete([target], { messages: continuation, tools: [weatherTool] });
      expect(second.text).toBe('Mock answer using tool results: {"temperature":"18C","sky":"clear"}');
      expect(second.finishReason).toBe('stop');
      expect(harness.mock.requestLog.map((entry) => entry.status)).toEqual([200, 200]);
    });

    it('streams deltas and captures usage from the stream so the call is costed exactly', async () => {
      const target = harness.target(provider);
      const events = await collect(gateway.stream([target], { messages: MESSAGES }));
      const entry = harness.mock.requestLog[0];
      REQUEST_SHAPE[provider](entry);
      expect(entry.stream).toBe(true);

      const deltas = events.filter((event) => event.type === 'delta');
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.map((event) => (event.type === 'delta' ? event.content : '')).join('')).toBe(EXPECTED_ANSWER);
      const done = events[events.length - 1];
      expect(done).toEqual({ type: 'done', usage: entry.usage, costUsd: expect.any(Number), finishReason: 'stop', modelUsed: target.identifier, attempts: 1 });
      if (done.type === 'done') {
        expect(done.costUsd).toBeGreaterThan(0);
        expect(done.costUsd).toBeCloseTo((done.usage.promptTokens * 0.5 + done.usage.completionTokens * 1.5) / 1000, 10);
      }
    });

    it('streams a tool call with parsed arguments', async () => {
      const events = await collect(gateway.stream([harness.target(provider)], { messages: MESSAGES, tools: [weatherTool] }));
      expect(events.filter((event) => event.type !== 'done')).toEqual([
        { type: 'tool_call', toolCall: { id: expect.any(String), name: 'get_weather', arguments: { city: 'mock-city', days: 1 } } },
      ]);
      expect(events[events.length - 1]).toMatchObject({ type: 'done', finishReason: 'tool_calls' });
    });

    it('reads cached prompt tokens and prices them with cached_input_discount', async () => {
      harness.mock.setBehavior({ cachedTokens: 8 });
      const target = harness.target(provider, { additionalConfig: { cached_input_discount: 0.5 } });
      const result = await gateway.complete([target], { messages: MESSAGES });
      expect(result.usage.cachedTokens).toBe(8);
      expect(result.usage.promptTokens).toBe(harness.mock.requestLog[0].usage!.promptTokens);
      const expected = ((result.usage.promptTokens - 8) * 0.5 + 8 * 0.5 * 0.5 + result.usage.completionTokens * 1.5) / 1000;
      expect(result.costUsd).toBeCloseTo(expected, 10);
    });

    // internal has no key to reject (self-hosted servers run without one).
    const wrongKey = WRONG_KEY[provider];
    if (!wrongKey) return;
    it('fails on a rejected key without retrying and without leaking the key', async () => {
      const target = harness.target(provider, { apiKey: wrongKey.apiKey });
      const error = await gateway.complete([target], { messages: MESSAGES }).catch((caught: unknown) => caught);
      expect(isDomainError(error)).toBe(true);
      expect(error).toMatchObject({ code: 'UPSTREAM_FAILED' });
      const message = (error as Error).message;
      expect(message).toContain(target.identifier);
      expect(message).toContain(`HTTP ${wrongKey.status}`);
      expect(message).not.toContain('wrong-secret-value-42');
      expect(harness.mock.requestLog).toHaveLength(1);
      expect(harness.mock.requestLog[0].status).toBe(wrongKey.status);
    });
  });
});

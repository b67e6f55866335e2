import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@gateway/errors';
import { createProviderGateway, type ChatMessage, type ProviderGatewayOptions, type StreamEvent } from '../../src/providers';
import { SELF_SIGNED_TLS } from '../../src/providers/wire/self-signed-tls.fixture';
import { captureLogger, MOCK_KEYS, startMockProvider, type MockHarness } from './mock-provider.harness';

/**
 * Retries, fallbacks, circuit breaking, timeouts and failure hygiene, against real HTTP failures
 * injected by the mock-provider (statuses, held requests, reset connections, broken streams).
 */
const MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Summarise the quarterly report in one line.' }];

async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

async function collect(stream: AsyncIterable<StreamEvent>, into: StreamEvent[] = []): Promise<StreamEvent[]> {
  for await (const event of stream) into.push(event);
  return into;
}

describe('provider gateway resilience (mock-provider over HTTP)', () => {
  let harness: MockHarness;
  const gatewayWith = (overrides: Partial<ProviderGatewayOptions> = {}) =>
    createProviderGateway({ timeoutMs: 2000, maxRetries: 2, backoffBaseMs: 5, breaker: { failureThreshold: 100, openMs: 60_000 }, ...overrides });
  const requestsFor = (model: string) => harness.mock.requestLog.filter((entry) => entry.model === model);

  beforeAll(async () => {
    harness = await startMockProvider();
  });
  afterAll(async () => {
    await harness.close();
  });
  beforeEach(() => harness.mock.reset());

  describe('retries', () => {
    it('retries 5xx with backoff and answers from the same model', async () => {
      harness.mock.setBehavior({ model: 'gpt-4o-mini', fail: 503, times: 2 });
      const result = await gatewayWith().complete([harness.target('openai')], { messages: MESSAGES });
      expect(result.attempts).toBe(3);
      expect(result.modelUsed).toBe('openai-model');
      expect(requestsFor('gpt-4o-mini').map((entry) => entry.status)).toEqual([503, 503, 200]);
    });

    it('retries 429 and honours a short Retry-After', async () => {
      harness.mock.setBehavior({ format: 'anthropic', fail: 429, times: 1, retryAfterSeconds: 0.2 });
      const started = Date.now();
      const result = await gatewayWith().complete([harness.target('anthropic')], { messages: MESSAGES });
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(result.attempts).toBe(2);
    });

    it('retries a reset connection', async () => {
      harness.mock.setBehavior({ format: 'gemini', fail: 'reset', times: 1 });
      const result = await gatewayWith().complete([harness.target('gemini')], { messages: MESSAGES });
      expect(result.attempts).toBe(2);
      expect(result.text).toMatch(/^Mock answer to: /);
    });

    it('times an attempt out and retries it', async () => {
      harness.mock.setBehavior({ format: 'bedrock', fail: 'timeout', times: 1 });
      const started = Date.now();
      const result = await gatewayWith({ timeoutMs: 300 }).complete([harness.target('bedrock')], { messages: MESSAGES });
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(result.attempts).toBe(2);
    });

    it('does not retry a 400 but moves on to the fallback', async () => {
      harness.mock.setBehavior({ model: 'gpt-4o-mini', fail: 400 });
      const result = await gatewayWith().complete([harness.target('openai'), harness.target('anthropic')], { messages: MESSAGES });
      expect(requestsFor('gpt-4o-mini')).toHaveLength(1);
      expect(result.modelUsed).toBe('anthropic-model');
      expect(result.attempts).toBe(2);
    });
  });

  describe('fallback', () => {
    it('uses the next model of the path once retries are exhausted and reports it as modelUsed', async () => {
      harness.mock.setBehavior({ model: 'gpt-4o-mini', fail: 500 });
      const path = [harness.target('openai'), harness.target('bedrock'), harness.target('gemini')];
      const result = await gatewayWith({ maxRetries: 1 }).complete(path, { messages: MESSAGES });
      expect(result.modelUsed).toBe('bedrock-model');
      expect(result.attempts).toBe(3);
      expect(result.text).toMatch(/^Mock answer to: /);
      expect(requestsFor('gemini-2.0-flash')).toHaveLength(0);
    });

    it('fails with UPSTREAM_FAILED naming every model and status, never keys or upstream bodies', async () => {
      harness.mock.setBehavior({ fail: 503 });
      const logger = captureLogger();
      const path = [harness.target('openai'), harness.target('azure'), harness.target('bedrock')];
      const error = await failureOf(gatewayWith({ maxRetries: 1, logger }).complete(path, { messages: MESSAGES }));
      expect(error.code).toBe('UPSTREAM_FAILED');
      expect(error.message).toBe('All models failed: openai-model (HTTP 503, 2 attempts); azure-model (HTTP 503, 2 attempts); bedrock-model (HTTP 503, 2 attempts)');
      const everythingSaid = error.message + JSON.stringify(logger.entries);
      for (const key of [MOCK_KEYS.openai, MOCK_KEYS.azure, 'mock/secret+access+key', 'AKIAMOCKPROVIDER0001']) expect(everythingSaid).not.toContain(key);
      expect(everythingSaid).not.toContain('Mock provider injected failure');
      expect(everythingSaid).not.toContain(harness.baseUrl);
      expect(logger.entries).toHaveLength(6);
    });

    it('falls back for streams that fail before their first delta', async () => {
      harness.mock.setBehavior({ format: 'openai', fail: 502 });
      const events = await collect(gatewayWith({ maxRetries: 0 }).stream([harness.target('openai'), harness.target('anthropic')], { messages: MESSAGES }));
      expect(events[events.length - 1]).toMatchObject({ type: 'done', modelUsed: 'anthropic-model', finishReason: 'stop' });
    });
  });

  describe('streams', () => {
    it('retries a stream broken before its first delta', async () => {
      harness.mock.setBehavior({ format: 'anthropic', fail: 'broken-stream-early', times: 1 });
      const events = await collect(gatewayWith().stream([harness.target('anthropic')], { messages: MESSAGES }));
      expect(requestsFor('claude-3-5-haiku-latest')).toHaveLength(2);
      expect(events[events.length - 1]).toMatchObject({ type: 'done', modelUsed: 'anthropic-model' });
    });

    it.each(['openai', 'gemini', 'bedrock'] as const)('never retries a %s stream once a delta reached the caller', async (provider) => {
      harness.mock.setBehavior({ format: provider, fail: 'broken-stream' });
      const events: StreamEvent[] = [];
      const error = await failureOf(collect(gatewayWith().stream([harness.target(provider), harness.target('anthropic')], { messages: MESSAGES }), events));
      expect(error.code).toBe('UPSTREAM_FAILED');
      expect(error.message).toMatch(new RegExp(`^Stream from ${provider}-model interrupted`));
      expect(events).toEqual([{ type: 'delta', content: 'Mock ' }]);
      expect(harness.mock.requestLog).toHaveLength(1);
    });

    it('applies the timeout between chunks: a stream that goes silent after a delta fails', async () => {
      harness.mock.setBehavior({ format: 'anthropic', fail: 'stalled-stream' });
      const events: StreamEvent[] = [];
      const started = Date.now();
      const error = await failureOf(collect(gatewayWith({ timeoutMs: 300 }).stream([harness.target('anthropic')], { messages: MESSAGES }), events));
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      expect(error.message).toBe('Stream from anthropic-model interrupted (timeout)');
      expect(events).toEqual([{ type: 'delta', content: 'Mock ' }]);
    });

    it('estimates usage (never $0) when a provider streams without usage', async () => {
      harness.mock.setBehavior({ omitUsage: true });
      const logger = captureLogger();
      const events = await collect(gatewayWith({ logger }).stream([harness.target('internal')], { messages: MESSAGES }));
      const done = events[events.length - 1];
      expect(done.type === 'done' && done.usage.promptTokens > 0 && done.costUsd > 0).toBe(true);
      expect(logger.entries.map((entry) => entry.msg)).toContain('provider sent no usage; cost estimated from characters');
    });

    it('stops the upstream request when the consumer stops reading', async () => {
      const stream = gatewayWith().stream([harness.target('openai')], { messages: MESSAGES });
      for await (const event of stream) {
        expect(event.type).toBe('delta');
        break;
      }
      expect(harness.mock.requestLog).toHaveLength(1);
    });
  });

  describe('circuit breaker', () => {
    it('opens after consecutive failures, skips the endpoint while open, and closes after a good probe', async () => {
      const gateway = gatewayWith({ maxRetries: 0, breaker: { failureThreshold: 2, openMs: 300 } });
      const path = [harness.target('openai'), harness.target('gemini')];
      harness.mock.setBehavior({ model: 'gpt-4o-mini', fail: 503, times: 2 });

      expect((await gateway.complete(path, { messages: MESSAGES })).modelUsed).toBe('gemini-model');
      expect((await gateway.complete(path, { messages: MESSAGES })).modelUsed).toBe('gemini-model');
      expect(requestsFor('gpt-4o-mini')).toHaveLength(2);

      // Open: the primary is not even called although it would now answer.
      const whileOpen = await gateway.complete(path, { messages: MESSAGES });
      expect(whileOpen.modelUsed).toBe('gemini-model');
      expect(whileOpen.attempts).toBe(1);
      expect(requestsFor('gpt-4o-mini')).toHaveLength(2);
      const onlyPrimary = await failureOf(gateway.complete([harness.target('openai')], { messages: MESSAGES }));
      expect(onlyPrimary.message).toBe('All models failed: openai-model (circuit open)');

      // Half-open after openMs: one probe goes through, succeeds, and closes the circuit.
      await new Promise((resolve) => setTimeout(resolve, 320));
      expect((await gateway.complete(path, { messages: MESSAGES })).modelUsed).toBe('openai-model');
      expect((await gateway.complete(path, { messages: MESSAGES })).modelUsed).toBe('openai-model');
      expect(requestsFor('gpt-4o-mini')).toHaveLength(4);
    });

    it('reopens when the half-open probe fails', async () => {
      const gateway = gatewayWith({ maxRetries: 0, breaker: { failureThreshold: 1, openMs: 200 } });
      harness.mock.setBehavior({ model: 'claude-3-5-haiku-latest', fail: 500, times: 2 });
      await failureOf(gateway.complete([harness.target('anthropic')], { messages: MESSAGES }));
      await new Promise((resolve) => setTimeout(resolve, 220));
      await failureOf(gateway.complete([harness.target('anthropic')], { messages: MESSAGES })); // the probe fails
      const error = await failureOf(gateway.complete([harness.target('anthropic')], { messages: MESSAGES }));
      expect(error.message).toContain('circuit open');
      expect(requestsFor('claude-3-5-haiku-latest')).toHaveLength(2);
    });

    it('does not count a rejected key as an outage', async () => {
      const gateway = gatewayWith({ maxRetries: 0, breaker: { failureThreshold: 1, openMs: 60_000 } });
      await failureOf(gateway.complete([harness.target('openai', { apiKey: 'sk-wrong' })], { messages: MESSAGES }));
      expect((await gateway.complete([harness.target('openai')], { messages: MESSAGES })).modelUsed).toBe('openai-model');
    });
  });

  describe('request validation and outbound guard', () => {
    it('refuses MCP tools for a provider without remote MCP, naming it (422)', async () => {
      const tools = [{ type: 'mcp' as const, server_label: 'docs', server_url: 'https://mcp.example.com/sse', require_approval: 'never' }];
      for (const provider of ['internal', 'azure', 'gemini', 'bedrock'] as const) {
        const error = await failureOf(gatewayWith().complete([harness.target(provider)], { messages: MESSAGES, tools }));
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(error.message).toBe(`MCP tools are not supported by provider ${provider}`);
      }
      expect(harness.mock.requestLog).toHaveLength(0);
    });

    it('passes MCP servers natively to anthropic and skips fallbacks that cannot take them', async () => {
      const tools = [{ type: 'mcp' as const, server_label: 'docs', server_url: 'https://mcp.example.com/sse', require_approval: 'never' }];
      const logger = captureLogger();
      const result = await gatewayWith({ logger }).complete([harness.target('anthropic'), harness.target('gemini')], { messages: MESSAGES, tools });
      expect(result.text).toMatch(/^Mock answer to: /);
      expect(result.toolCalls).toEqual([]);
      const entry = harness.mock.requestLog[0];
      expect(entry.headers['anthropic-beta']).toBe('mcp-client-2025-11-20');
      expect((entry.body as Record<string, unknown>).mcp_servers).toEqual([{ type: 'url', url: 'https://mcp.example.com/sse', name: 'docs' }]);
      expect(logger.entries.map((item) => item.msg)).toContain('fallback model skipped');
    });

    it('passes MCP servers natively to openai through the Responses API, streamed too, with function tools both ways', async () => {
      const tools = [{ type: 'mcp' as const, server_label: 'docs', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' }];
      const gateway = gatewayWith();
      const target = harness.target('openai');
      const answer = await gateway.complete([target], { messages: MESSAGES, tools });
      expect(answer).toMatchObject({ text: expect.stringMatching(/^Mock answer to: /), toolCalls: [], finishReason: 'stop', modelUsed: 'openai-model' });
      const entry = harness.mock.requestLog[0];
      expect(entry).toMatchObject({ path: '/v1/responses', status: 200, model: 'gpt-4o-mini' });
      expect(entry.headers.authorization).toBe(`Bearer ${MOCK_KEYS.openai}`);
      expect((entry.body as Record<string, unknown>).tools).toEqual([{ type: 'mcp', server_label: 'docs', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' }]);
      expect(answer.usage).toEqual(entry.usage);

      const events = await collect(gateway.stream([target], { messages: MESSAGES, tools }));
      expect(events.filter((event) => event.type === 'delta').map((event) => (event.type === 'delta' ? event.content : '')).join('')).toBe(answer.text);
      expect(events.at(-1)).toMatchObject({ type: 'done', usage: harness.mock.requestLog[1].usage, finishReason: 'stop' });

      const withFunction = [...tools, { type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
      const call = await gateway.complete([target], { messages: MESSAGES, tools: withFunction });
      expect(call.toolCalls).toEqual([{ id: expect.stringMatching(/^call_/), name: 'get_weather', arguments: { city: 'mock-city' } }]);
      const continued = await gateway.complete([target], {
        messages: [...MESSAGES, { role: 'assistant', content: '', toolCalls: call.toolCalls }, { role: 'tool', toolCallId: call.toolCalls[0].id, content: 'sunny' }],
        tools: withFunction,
      });
      expect(continued.text).toBe('Mock answer using tool results: sunny');
      expect(harness.mock.requestLog.map((item) => item.status)).toEqual([200, 200, 200, 200]);
    });

    it('refuses link-local and metadata destinations without sending anything', async () => {
      for (const baseUrl of ['http://169.254.169.254/v1', 'http://metadata.google.internal/v1', 'http://[fe80::1]:8080/v1']) {
        const error = await failureOf(gatewayWith().complete([harness.target('openai', { baseUrl })], { messages: MESSAGES }));
        expect(error.code).toBe('UPSTREAM_FAILED');
        expect(error.message).toMatch(/destination refused/);
      }
      const fallback = await gatewayWith().complete([harness.target('openai', { baseUrl: 'http://169.254.169.254/v1' }), harness.target('gemini')], { messages: MESSAGES });
      expect(fallback).toMatchObject({ modelUsed: 'gemini-model', attempts: 1 });
    });

    it('refuses a key that cannot be sent as a header without sending anything, and without echoing it', async () => {
      const apiKey = 'sk-broken\r\nx-injected: secret-tail';
      const error = await failureOf(gatewayWith().complete([harness.target('openai', { apiKey })], { messages: MESSAGES }));
      expect(error.message).toBe('All models failed: openai-model (misconfigured: invalid header value in the model configuration)');
      expect(harness.mock.requestLog).toHaveLength(0);
      const fallback = await gatewayWith().complete([harness.target('openai', { apiKey }), harness.target('anthropic')], { messages: MESSAGES });
      expect(fallback).toMatchObject({ modelUsed: 'anthropic-model', attempts: 1 });
    });

    it('reports an untrusted TLS certificate as a connection error and moves on to the fallback', async () => {
      const tls = createTlsServer(SELF_SIGNED_TLS, (_req, res) => res.end('{}'));
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      try {
        const baseUrl = `https://localhost:${(tls.address() as AddressInfo).port}/v1`;
        const result = await gatewayWith({ maxRetries: 0 }).complete([harness.target('openai', { baseUrl }), harness.target('anthropic')], { messages: MESSAGES });
        expect(result).toMatchObject({ modelUsed: 'anthropic-model', attempts: 2 });
        const error = await failureOf(gatewayWith({ maxRetries: 0 }).complete([harness.target('openai', { baseUrl })], { messages: MESSAGES }));
        expect(error.message).toBe('All models failed: openai-model (connection error (DEPTH_ZERO_SELF_SIGNED_CERT))');
      } finally {
        tls.closeAllConnections();
        await new Promise((resolve) => tls.close(resolve));
      }
    });

    it('only calls allowedHosts when the list is set', async () => {
      const error = await failureOf(gatewayWith({ allowedHosts: ['api.openai.com'] }).complete([harness.target('openai')], { messages: MESSAGES }));
      expect(error.message).toBe('All models failed: openai-model (destination refused (host not in the allowed list))');
      expect(harness.mock.requestLog).toHaveLength(0);
      const allowed = await gatewayWith({ allowedHosts: ['127.0.0.1'] }).complete([harness.target('openai')], { messages: MESSAGES });
      expect(allowed.modelUsed).toBe('openai-model');
    });

    it('stops at once, without fallback, when the caller cancels', async () => {
      harness.mock.setBehavior({ format: 'openai', latencyMs: 2000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('client went away')), 100);
      const started = Date.now();
      await expect(gatewayWith().complete([harness.target('openai'), harness.target('gemini')], { messages: MESSAGES, signal: controller.signal })).rejects.toThrow('client went away');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(requestsFor('gemini-2.0-flash')).toHaveLength(0);
    });
  });
});

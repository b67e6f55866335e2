import { join } from 'node:path';
import { DomainError } from '@gateway/errors';
import { createServiceClient, type ServiceClient } from '@gateway/grpc';
import { providerproxy } from '@gateway/proto';
import { ControlPlaneFixture, eventually, ProductionStack } from '@gateway/testing';
import type { ProviderName } from '../../src/providers';
import {
  EXPECTED_ANSWER,
  MESSAGES,
  MOCK_KEYS,
  PROVIDERS,
  REQUEST_SHAPE,
  startMockProvider,
  TOOL_RESULT_SHAPE,
  TOOL_SHAPE,
  weatherTool,
  type MockHarness,
} from './mock-provider.harness';

const root = join(__dirname, '../../../..');
const OWNER = { email: 'owner@proxy.test', password: 'proxy-password-123' };
const BREAKER_OPEN_MS = 1_500;
const TOOL_RESULT = '{"temperature":"18C","sky":"clear"}';

type ProxyClient = ServiceClient<typeof providerproxy.ProviderProxyServiceService>;
type Message = providerproxy.ChatMessage;

const asProto = (messages: typeof MESSAGES): Message[] => messages.map((m) => ({ role: m.role, content: m.content, toolCalls: [], toolCallId: '', name: '' }));
const PROTO_MESSAGES = asProto(MESSAGES);

async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

async function collect(stream: AsyncIterable<providerproxy.StreamEvent>): Promise<providerproxy.StreamEvent[]> {
  const events: providerproxy.StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/**
 * provider-proxy in production mode (its own process from dist/, credentials resolved from a real
 * control-plane over gRPC, JetStream for invalidation) in front of an in-test mock-provider:
 * every provider's wire format, tools both ways, streaming with usage, retries, fallback, the
 * circuit breaker, MCP policy, caller scoping and cancellation.
 */
describe('provider-proxy gRPC service (production mode)', () => {
  let harness: MockHarness;
  let control: ControlPlaneFixture;
  let proxy: ProxyClient;
  let projectId: number;
  const stack = new ProductionStack({
    root,
    apps: ['control-plane', 'provider-proxy'],
    databasePrefix: 'gw_it_proxy',
    extraEnv: {
      'control-plane': { GATEWAY_BOOTSTRAP_EMAIL: OWNER.email, GATEWAY_BOOTSTRAP_PASSWORD: OWNER.password },
      'provider-proxy': {
        PROVIDER_PROXY_MAX_RETRIES: '2',
        PROVIDER_PROXY_BACKOFF_BASE_MS: '10',
        PROVIDER_PROXY_BREAKER_FAILURES: '3',
        PROVIDER_PROXY_BREAKER_OPEN_MS: String(BREAKER_OPEN_MS),
        PROVIDER_PROXY_ATTEMPT_TIMEOUT_MS: '8000',
      },
    },
  });

  const request = (patch: Partial<providerproxy.CompletionRequest>): providerproxy.CompletionRequest => ({
    projectId,
    modelPath: [],
    messages: PROTO_MESSAGES,
    tools: [],
    maxTokens: undefined,
    privateModelsOnly: false,
    ...patch,
  });
  const requestsFor = (upstreamModel: string) => harness.mock.requestLog.filter((entry) => entry.model === upstreamModel);

  /** The registry entry the harness would build for `provider`, as CreateModel fields. */
  function modelFields(provider: ProviderName, identifier: string, patch: Record<string, unknown> = {}): Record<string, unknown> {
    const target = harness.target(provider);
    return {
      identifier,
      provider,
      base_url: target.baseUrl,
      ...(target.apiKey ? { api_key: target.apiKey } : {}),
      input_cost_per_1k: target.inputCostPer1k,
      output_cost_per_1k: target.outputCostPer1k,
      ...patch,
      additional_config: { ...target.additionalConfig, ...((patch.additional_config as object) ?? {}) },
    };
  }

  beforeAll(async () => {
    harness = await startMockProvider();
    await stack.startAll();
    control = new ControlPlaneFixture(stack.address('control-plane'), stack.internalToken);
    await control.login(OWNER.email, OWNER.password);
    projectId = await control.createProject('proxy');
    for (const provider of PROVIDERS) await control.createModel(projectId, modelFields(provider, `${provider}-model`));
    // One endpoint per resilience scenario (distinct upstream names), so breakers stay apart.
    const openai = (identifier: string, upstream: string, patch: Record<string, unknown> = {}) =>
      control.createModel(projectId, modelFields('openai', identifier, { ...patch, additional_config: { provider_model: upstream } }));
    await openai('retry-model', 'retry-upstream');
    await openai('flaky-model', 'flaky-upstream');
    await openai('breaker-model', 'breaker-upstream');
    await openai('slow-model', 'slow-upstream');
    await openai('wrong-key-model', 'wrong-key-upstream', { api_key: 'sk-wrong-secret-value-42' });
    await control.createModel(projectId, modelFields('anthropic', 'steady-fallback', { additional_config: { provider_model: 'steady-upstream' } }));
    await control.createModel(projectId, modelFields('internal', 'private-model', { is_public: false, additional_config: { provider_model: 'private-upstream' } }));
    proxy = createServiceClient(providerproxy.ProviderProxyServiceService, { address: stack.address('provider-proxy'), internalToken: stack.internalToken, deadlineMs: 20_000 });
  }, 120_000);

  afterAll(async () => {
    proxy?.close();
    control?.close();
    await stack.stopAll();
    await harness?.close();
  }, 60_000);

  beforeEach(() => harness.mock.reset());

  describe.each(PROVIDERS)('%s', (provider) => {
    const identifier = `${provider}-model`;

    it('Complete speaks the provider wire format and answers with usage and exact cost, the key only in the upstream auth', async () => {
      const response = await proxy.complete(request({ modelPath: [identifier] }));
      expect(harness.mock.requestLog).toHaveLength(1);
      const entry = harness.mock.requestLog[0];
      expect(entry.status).toBe(200);
      REQUEST_SHAPE[provider](entry);

      expect(response).toMatchObject({ text: EXPECTED_ANSWER, toolCalls: [], modelUsed: identifier, finishReason: 'stop', attempts: 1 });
      expect(response.usage).toEqual(entry.usage);
      expect(response.usage!.promptTokens).toBeGreaterThan(0);
      expect(response.costUsd).toBeCloseTo((response.usage!.promptTokens * 0.5 + response.usage!.completionTokens * 1.5) / 1000, 10);
      expect(response.upstreamLatencyMs).toBeGreaterThan(0);
      expect(response.timeToFirstTokenMs).toBe(response.upstreamLatencyMs);
      const key = MOCK_KEYS[provider as keyof typeof MOCK_KEYS];
      if (key) expect(JSON.stringify(response)).not.toContain(key.split(':').at(-1));
    });

    it('translates function tools out and tool calls back, then continues with the tool result', async () => {
      const first = await proxy.complete(request({ modelPath: [identifier], tools: [weatherTool] }));
      expect(first.finishReason).toBe('tool_calls');
      expect(first.toolCalls).toEqual([{ id: expect.stringMatching(/.+/), name: 'get_weather', arguments: { city: 'mock-city', days: 1 } }]);
      TOOL_SHAPE[provider](harness.mock.requestLog[0]);

      const call = first.toolCalls[0];
      const continuation: Message[] = [
        ...PROTO_MESSAGES,
        { role: 'assistant', content: '', toolCalls: [call], toolCallId: '', name: '' },
        { role: 'tool', content: TOOL_RESULT, toolCalls: [], toolCallId: call.id, name: '' },
      ];
      const second = await proxy.complete(request({ modelPath: [identifier], messages: continuation, tools: [weatherTool] }));
      expect(second).toMatchObject({ text: `Mock answer using tool results: ${TOOL_RESULT}`, finishReason: 'stop', toolCalls: [] });
      // The mock validates the history like the real API (ids answered, turn order, names).
      expect(harness.mock.requestLog.map((entry) => entry.status)).toEqual([200, 200]);
      TOOL_RESULT_SHAPE[provider](harness.mock.requestLog[1], call.id, TOOL_RESULT);
    });

    it('StreamComplete streams deltas and a done event with the whole answer, usage from the stream and cost', async () => {
      const events = await collect(proxy.streamComplete(request({ modelPath: [identifier] })));
      const entry = harness.mock.requestLog[0];
      REQUEST_SHAPE[provider](entry);
      expect(entry.stream).toBe(true);
      if (['openai', 'internal', 'azure'].includes(provider)) expect((entry.body as { stream_options?: unknown }).stream_options).toEqual({ include_usage: true });

      const deltas = events.filter((event) => event.delta !== undefined).map((event) => event.delta);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join('')).toBe(EXPECTED_ANSWER);
      const done = events.at(-1)!.done!;
      expect(events.filter((event) => event.done)).toHaveLength(1);
      expect(done).toMatchObject({ text: EXPECTED_ANSWER, modelUsed: identifier, finishReason: 'stop', attempts: 1 });
      expect(done.usage).toEqual(entry.usage);
      expect(done.usage!.completionTokens).toBeGreaterThan(0);
      expect(done.costUsd).toBeGreaterThan(0);
      expect(done.costUsd).toBeCloseTo((done.usage!.promptTokens * 0.5 + done.usage!.completionTokens * 1.5) / 1000, 10);
      expect(done.timeToFirstTokenMs).toBeGreaterThan(0);
      expect(done.timeToFirstTokenMs).toBeLessThanOrEqual(done.upstreamLatencyMs);
    });

    it('StreamComplete streams a tool call with parsed arguments', async () => {
      const events = await collect(proxy.streamComplete(request({ modelPath: [identifier], tools: [weatherTool] })));
      const calls = events.filter((event) => event.toolCall).map((event) => event.toolCall);
      expect(calls).toEqual([{ id: expect.stringMatching(/.+/), name: 'get_weather', arguments: { city: 'mock-city', days: 1 } }]);
      expect(events.at(-1)!.done).toMatchObject({ finishReason: 'tool_calls', toolCalls: calls });
    });
  });

  describe('resilience', () => {
    it('retries a 429 with backoff and answers from the same model', async () => {
      harness.mock.setBehavior({ model: 'retry-upstream', fail: 429, times: 2 });
      const response = await proxy.complete(request({ modelPath: ['retry-model', 'steady-fallback'] }));
      expect(response).toMatchObject({ modelUsed: 'retry-model', attempts: 3, text: EXPECTED_ANSWER });
      expect(requestsFor('retry-upstream').map((entry) => entry.status)).toEqual([429, 429, 200]);
      expect(requestsFor('steady-upstream')).toHaveLength(0);
    });

    it('falls back to the next model of model_path after the retries, and reports the model used', async () => {
      harness.mock.setBehavior({ model: 'flaky-upstream', fail: 503 });
      const response = await proxy.complete(request({ modelPath: ['flaky-model', 'steady-fallback'] }));
      expect(response).toMatchObject({ modelUsed: 'steady-fallback', attempts: 4, text: EXPECTED_ANSWER });
      expect(requestsFor('flaky-upstream').map((entry) => entry.status)).toEqual([503, 503, 503]);
      expect(requestsFor('steady-upstream').map((entry) => entry.format)).toEqual(['anthropic']);
      // Priced at the fallback's rates, from the fallback's usage.
      expect(response.costUsd).toBeCloseTo((response.usage!.promptTokens * 0.5 + response.usage!.completionTokens * 1.5) / 1000, 10);

      // Those three failures opened flaky-model's circuit: a streamed call goes straight to the fallback.
      const events = await collect(proxy.streamComplete(request({ modelPath: ['flaky-model', 'steady-fallback'] })));
      expect(events.at(-1)!.done).toMatchObject({ modelUsed: 'steady-fallback', attempts: 1, text: EXPECTED_ANSWER });
      expect(requestsFor('flaky-upstream')).toHaveLength(3);
    });

    it('opens the circuit after repeated outages, refuses without calling, then closes after a successful probe', async () => {
      harness.mock.setBehavior({ model: 'breaker-upstream', fail: 503 });
      const exhausted = await failureOf(proxy.complete(request({ modelPath: ['breaker-model'] })));
      expect(exhausted).toMatchObject({ code: 'UPSTREAM_FAILED', message: 'All models failed: breaker-model (HTTP 503, 3 attempts)' });
      const openedAt = Date.now();
      expect(requestsFor('breaker-upstream')).toHaveLength(3);

      const refused = await failureOf(proxy.complete(request({ modelPath: ['breaker-model'] })));
      expect(refused).toMatchObject({ code: 'UPSTREAM_FAILED', message: 'All models failed: breaker-model (circuit open)' });
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(Math.ceil(BREAKER_OPEN_MS / 1000));
      expect(requestsFor('breaker-upstream')).toHaveLength(3);

      // The provider recovers; once openMs has passed one probe goes through and closes the circuit.
      harness.mock.clearBehaviors();
      await new Promise((resolve) => setTimeout(resolve, BREAKER_OPEN_MS - (Date.now() - openedAt) + 100));
      const probe = await proxy.complete(request({ modelPath: ['breaker-model'] }));
      expect(probe).toMatchObject({ modelUsed: 'breaker-model', attempts: 1 });
      const afterwards = await Promise.all([1, 2, 3].map(() => proxy.complete(request({ modelPath: ['breaker-model'] }))));
      expect(afterwards.map((response) => response.modelUsed)).toEqual(['breaker-model', 'breaker-model', 'breaker-model']);
      expect(requestsFor('breaker-upstream').map((entry) => entry.status)).toEqual([503, 503, 503, 200, 200, 200, 200]);
    });

    it('reports a rejected key without retrying and without leaking the key or the upstream body', async () => {
      const error = await failureOf(proxy.complete(request({ modelPath: ['wrong-key-model'] })));
      expect(error).toMatchObject({ code: 'UPSTREAM_FAILED', message: 'All models failed: wrong-key-model (HTTP 401)' });
      expect(error.message).not.toContain('wrong-secret-value-42');
      expect(error.message).not.toContain('Incorrect API key');
      expect(requestsFor('wrong-key-upstream').map((entry) => entry.status)).toEqual([401]);
    });
  });

  describe('tool and privacy policy', () => {
    const mcpTool = { type: 'mcp', server_label: 'crm', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' };

    it.each(['gemini', 'bedrock', 'azure', 'internal'])('refuses MCP tools for %s with a 422 naming the provider, calling nothing', async (provider) => {
      const error = await failureOf(proxy.complete(request({ modelPath: [`${provider}-model`], tools: [mcpTool] })));
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: `MCP tools are not supported by provider ${provider}` });
      expect(harness.mock.requestLog).toHaveLength(0);
    });

    it('passes MCP tools natively to anthropic (MCP connector)', async () => {
      const response = await proxy.complete(request({ modelPath: ['anthropic-model'], tools: [mcpTool] }));
      // The connector ran the MCP tool server-side (mcp_tool_use / mcp_tool_result blocks): the
      // caller gets the answer, not a tool call to execute.
      expect(response).toMatchObject({ text: EXPECTED_ANSWER, toolCalls: [], finishReason: 'stop' });
      const entry = harness.mock.requestLog[0];
      expect(entry.status).toBe(200);
      expect(entry.headers['anthropic-beta']).toBe('mcp-client-2025-11-20');
      const body = entry.body as { mcp_servers: unknown; tools: unknown[] };
      expect(body.mcp_servers).toEqual([{ type: 'url', url: 'https://mcp.example.com/mcp', name: 'crm' }]);
      expect(body.tools).toEqual([{ type: 'mcp_toolset', mcp_server_name: 'crm' }]);
    });

    it('passes MCP tools natively to openai through the Responses API, Complete and StreamComplete', async () => {
      const response = await proxy.complete(request({ modelPath: ['openai-model'], tools: [mcpTool] }));
      expect(response).toMatchObject({ text: EXPECTED_ANSWER, toolCalls: [], finishReason: 'stop', modelUsed: 'openai-model' });
      const entry = harness.mock.requestLog[0];
      expect(entry).toMatchObject({ path: '/v1/responses', status: 200 });
      expect(entry.headers.authorization).toBe(`Bearer ${MOCK_KEYS.openai}`);
      expect(entry.body).toMatchObject({ instructions: 'You are terse.', store: false, tools: [{ type: 'mcp', server_label: 'crm', server_url: 'https://mcp.example.com/mcp', require_approval: 'never' }] });
      expect(response.usage).toEqual(entry.usage);

      const events = await collect(proxy.streamComplete(request({ modelPath: ['openai-model'], tools: [mcpTool] })));
      expect(events.filter((event) => event.delta).map((event) => event.delta).join('')).toBe(EXPECTED_ANSWER);
      const done = events.at(-1)!.done!;
      expect(done.usage).toEqual(harness.mock.requestLog[1].usage);
      expect(done.costUsd).toBeGreaterThan(0);
    });

    it('refuses MCP tools that need approval, since the gateway has no approval round trip', async () => {
      const error = await failureOf(proxy.complete(request({ modelPath: ['openai-model'], tools: [{ ...mcpTool, require_approval: 'always' }] })));
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'MCP tools requiring approval are not supported by provider openai' });
    });

    it('keeps vpc_only MCP tools and private-only requests off public models', async () => {
      const vpcOnly = { ...mcpTool, vpc_only: true };
      const publicPrimary = await failureOf(proxy.complete(request({ modelPath: ['anthropic-model'], tools: [vpcOnly] })));
      expect(publicPrimary).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Model anthropic-model is public; this request may only reach private models (is_public: false)' });
      const flagged = await failureOf(proxy.complete(request({ modelPath: ['openai-model'], privateModelsOnly: true })));
      expect(flagged.code).toBe('VALIDATION_FAILED');
      expect(harness.mock.requestLog).toHaveLength(0);

      // A failing private primary does not spill over to its public fallback.
      harness.mock.setBehavior({ model: 'private-upstream', fail: 400, times: 1 });
      const failed = await failureOf(proxy.complete(request({ modelPath: ['private-model', 'openai-model'], privateModelsOnly: true })));
      expect(failed).toMatchObject({ code: 'UPSTREAM_FAILED', message: 'All models failed: private-model (HTTP 400)' });
      expect(harness.mock.requestLog.map((entry) => entry.model)).toEqual(['private-upstream']);
      const served = await proxy.complete(request({ modelPath: ['private-model', 'openai-model'], privateModelsOnly: true }));
      expect(served.modelUsed).toBe('private-model');
    });

    it('refuses malformed requests and unknown models with VALIDATION_FAILED', async () => {
      const noToolCallId = await failureOf(proxy.complete(request({ modelPath: ['openai-model'], messages: [{ role: 'tool', content: 'x', toolCalls: [], toolCallId: '', name: '' }] })));
      expect(noToolCallId).toMatchObject({ code: 'VALIDATION_FAILED', errors: ["messages[0].tool_call_id can't be blank on a tool message"] });
      const badTool = await failureOf(proxy.complete(request({ modelPath: ['openai-model'], tools: [{ type: 'function', function: { name: 'has spaces' } }] })));
      expect(badTool.errors).toEqual(['tools[0].function.name must be 1 to 64 letters, digits, underscores or dashes']);
      const unknown = await failureOf(proxy.complete(request({ modelPath: ['not-registered'] })));
      expect(unknown).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Model not authorized or found: not-registered' });
      expect(harness.mock.requestLog).toHaveLength(0);
    });
  });

  describe('callers', () => {
    it("lets an internal team's API key call its own project only", async () => {
      const rawKey = await control.createKey(projectId);
      const otherProject = await control.createProject('other');
      await control.createModel(otherProject, modelFields('openai', 'openai-model'));
      const asTeam = createServiceClient(providerproxy.ProviderProxyServiceService, { address: stack.address('provider-proxy'), deadlineMs: 10_000 });
      const withKey = { metadata: { authorization: `Bearer ${rawKey}` } };
      try {
        const own = await asTeam.complete(request({ modelPath: ['openai-model'] }), withKey);
        expect(own.text).toBe(EXPECTED_ANSWER);
        const foreign = await failureOf(asTeam.complete(request({ projectId: otherProject, modelPath: ['openai-model'] }), withKey));
        expect(foreign.code).toBe('NOT_FOUND');
        const foreignStream = await failureOf(collect(asTeam.streamComplete(request({ projectId: otherProject, modelPath: ['openai-model'] }), withKey)));
        expect(foreignStream.code).toBe('NOT_FOUND');
        const anonymous = await failureOf(asTeam.complete(request({ modelPath: ['openai-model'] })));
        expect(anonymous.code).toBe('UNAUTHENTICATED');
        expect(harness.mock.requestLog).toHaveLength(1);
      } finally {
        asTeam.close();
      }
    });
  });

  describe('cancellation', () => {
    it('aborts the upstream stream when the caller cancels StreamComplete', async () => {
      harness.mock.setBehavior({ model: 'slow-upstream', fail: 'stalled-stream' });
      const controller = new AbortController();
      const received: providerproxy.StreamEvent[] = [];
      const consumed = (async () => {
        for await (const event of proxy.streamComplete(request({ modelPath: ['slow-model'] }), { signal: controller.signal })) {
          received.push(event);
          controller.abort();
        }
      })().catch(() => undefined);
      await eventually(async () => received.length > 0, 5_000, 20);
      const cancelledAt = Date.now();
      await consumed;
      await eventually(async () => requestsFor('slow-upstream')[0]?.abortedByClient === true, 5_000, 20);
      // Well inside the 8 s attempt timeout: the cancellation, not the idle clock, closed it.
      expect(Date.now() - cancelledAt).toBeLessThan(2_000);
      expect(received[0].delta).toEqual(expect.any(String));
    });

    it('aborts the upstream request when the caller cancels Complete', async () => {
      harness.mock.setBehavior({ model: 'slow-upstream', latencyMs: 5_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 300);
      await expect(proxy.complete(request({ modelPath: ['slow-model'] }), { signal: controller.signal })).rejects.toBeDefined();
      const cancelledAt = Date.now();
      await eventually(async () => requestsFor('slow-upstream')[0]?.abortedByClient === true, 5_000, 20);
      expect(Date.now() - cancelledAt).toBeLessThan(2_000);
    });
  });
});

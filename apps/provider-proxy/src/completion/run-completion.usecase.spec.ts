import { DomainError } from '@gateway/errors';
import type { ResolvedModel } from '../credentials/model-credentials.cache';
import type { CompletionRequest, ModelTarget, ProviderGateway, StreamEvent } from '../providers';
import type { CompletionInput } from './completion-input.schema';
import { RunCompletionUseCase } from './run-completion.usecase';

function model(identifier: string, isPublic: boolean): ResolvedModel {
  return { isPublic, target: { identifier, provider: 'openai', baseUrl: 'http://mock/v1', apiKey: `key-${identifier}`, inputCostPer1k: 1, outputCostPer1k: 2, additionalConfig: {} } };
}

const registry = new Map([
  ['public-a', model('public-a', true)],
  ['public-b', model('public-b', true)],
  ['private-a', model('private-a', false)],
  ['private-b', model('private-b', false)],
]);

const input = (patch: Partial<CompletionInput> = {}): CompletionInput => ({
  projectId: 1,
  modelPath: ['public-a'],
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  privateModelsOnly: false,
  ...patch,
});

function fakeGateway(streamEvents: StreamEvent[] = []) {
  const calls: Array<{ path: string[]; req: CompletionRequest }> = [];
  const gateway: ProviderGateway = {
    complete: async (path: ModelTarget[], req) => {
      calls.push({ path: path.map((t) => t.identifier), req });
      return { text: 'ok', toolCalls: [], usage: { promptTokens: 1, completionTokens: 2, cachedTokens: 0 }, costUsd: 0.005, modelUsed: path[0].identifier, finishReason: 'stop', attempts: 1 };
    },
    stream: async function* (path: ModelTarget[], req) {
      calls.push({ path: path.map((t) => t.identifier), req });
      yield* streamEvents;
    },
  };
  return { gateway, calls };
}

const resolver = { resolve: async (_projectId: number, ids: string[]) => new Map(ids.filter((id) => registry.has(id)).map((id) => [id, registry.get(id)!])) };

describe('RunCompletionUseCase', () => {
  it('calls the resolved path in order and reports latency', async () => {
    let now = 100;
    const { gateway, calls } = fakeGateway();
    const useCase = new RunCompletionUseCase(resolver, { ...gateway, complete: async (path, req) => { now += 42; return gateway.complete(path, req); } }, undefined, () => now);
    const outcome = await useCase.complete(input({ modelPath: ['public-a', 'private-a'] }));
    expect(calls[0].path).toEqual(['public-a', 'private-a']);
    expect(outcome).toMatchObject({ text: 'ok', modelUsed: 'public-a', upstreamLatencyMs: 42, timeToFirstTokenMs: 42 });
  });

  it('refuses an unknown primary with the spec message and skips unknown fallbacks', async () => {
    const { gateway, calls } = fakeGateway();
    const warnings: string[] = [];
    const useCase = new RunCompletionUseCase(resolver, gateway, { warn: (_o, msg) => warnings.push(msg) });
    await expect(useCase.complete(input({ modelPath: ['gone'] }))).rejects.toEqual(new DomainError('VALIDATION_FAILED', 'Model not authorized or found: gone'));
    await useCase.complete(input({ modelPath: ['public-a', 'gone', 'public-b'] }));
    expect(calls.map((c) => c.path)).toEqual([['public-a', 'public-b']]);
    expect(warnings).toEqual(['fallback model not in the registry; skipped']);
  });

  it('keeps private-only requests on private models', async () => {
    const { gateway, calls } = fakeGateway();
    const useCase = new RunCompletionUseCase(resolver, gateway);
    await expect(useCase.complete(input({ privateModelsOnly: true }))).rejects.toThrow('Model public-a is public; this request may only reach private models (is_public: false)');
    await useCase.complete(input({ privateModelsOnly: true, modelPath: ['private-a', 'public-b', 'private-b'] }));
    expect(calls[0].path).toEqual(['private-a', 'private-b']);
  });

  it('treats a vpc_only MCP tool as private-only', async () => {
    const { gateway, calls } = fakeGateway();
    const useCase = new RunCompletionUseCase(resolver, gateway);
    const tools = [{ type: 'mcp' as const, server_label: 'crm', server_url: 'https://crm.internal', vpc_only: true }];
    await expect(useCase.complete(input({ tools }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await useCase.complete(input({ tools, modelPath: ['private-a', 'public-a'] }));
    expect(calls[0].path).toEqual(['private-a']);
    expect(calls[0].req.tools).toEqual(tools);
  });

  it('passes the caller signal to the gateway', async () => {
    const { gateway, calls } = fakeGateway();
    const controller = new AbortController();
    await new RunCompletionUseCase(resolver, gateway).complete(input(), controller.signal);
    expect(calls[0].req.signal).toBe(controller.signal);
  });

  it('streams events and closes with the accumulated answer and timings', async () => {
    let now = 0;
    const events: StreamEvent[] = [
      { type: 'delta', content: 'Hel' },
      { type: 'delta', content: 'lo' },
      { type: 'tool_call', toolCall: { id: 't1', name: 'f', arguments: { a: 1 } } },
      { type: 'done', usage: { promptTokens: 3, completionTokens: 4, cachedTokens: 1 }, costUsd: 0.011, finishReason: 'tool_calls', modelUsed: 'public-a', attempts: 2 },
    ];
    const { gateway } = fakeGateway();
    const timed: ProviderGateway = {
      ...gateway,
      stream: async function* () {
        for (const event of events) {
          now += 10;
          yield event;
        }
      },
    };
    const received = [];
    for await (const event of new RunCompletionUseCase(resolver, timed, undefined, () => now).stream(input())) received.push(event);
    expect(received.slice(0, 3)).toEqual(events.slice(0, 3));
    expect(received[3]).toEqual({
      type: 'done',
      outcome: {
        text: 'Hello',
        toolCalls: [{ id: 't1', name: 'f', arguments: { a: 1 } }],
        usage: { promptTokens: 3, completionTokens: 4, cachedTokens: 1 },
        costUsd: 0.011,
        modelUsed: 'public-a',
        finishReason: 'tool_calls',
        attempts: 2,
        upstreamLatencyMs: 40,
        timeToFirstTokenMs: 10,
      },
    });
  });
});

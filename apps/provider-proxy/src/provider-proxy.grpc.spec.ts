import type { CallContext } from '@gateway/grpc';
import type { Logger } from '@gateway/logging';
import { Metadata } from '@grpc/grpc-js';
import type { providerproxy } from '@gateway/proto';
import type { CompletionOutcome, CompletionStreamEvent } from './completion/run-completion.usecase';
import { providerProxyHandlers } from './provider-proxy.grpc';

const outcome: CompletionOutcome = {
  text: 'Hi',
  toolCalls: [{ id: 't', name: 'f', arguments: { x: 1 } }],
  usage: { promptTokens: 5, completionTokens: 2, cachedTokens: 0 },
  costUsd: 0.01,
  modelUsed: 'm',
  finishReason: 'tool_calls',
  attempts: 1,
  upstreamLatencyMs: 12.5,
  timeToFirstTokenMs: 3,
};

const request: providerproxy.CompletionRequest = {
  projectId: 4,
  modelPath: ['m'],
  messages: [{ role: 'user', content: 'Hi', toolCalls: [], toolCallId: '', name: '' }],
  tools: [],
  maxTokens: undefined,
  privateModelsOnly: false,
};

function context(principal: CallContext['principal'], signal = new AbortController().signal): CallContext {
  return { principal, signal, metadata: new Metadata(), deadline: undefined, logger: {} as Logger };
}

const useCase = (events: CompletionStreamEvent[] = [], fail?: unknown) => ({
  complete: async () => {
    if (fail) throw fail;
    return outcome;
  },
  stream: async function* () {
    yield* events;
    if (fail) throw fail;
  },
});

async function drain<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

describe('providerProxyHandlers', () => {
  it('answers Complete with usage, cost, model and timings', async () => {
    const response = await providerProxyHandlers(useCase()).complete!(request, context({ kind: 'service' }));
    expect(response).toEqual({ ...outcome, toolCalls: [{ id: 't', name: 'f', arguments: { x: 1 } }] });
  });

  it('maps stream events onto delta / tool_call / done', async () => {
    const events: CompletionStreamEvent[] = [
      { type: 'delta', content: 'H' },
      { type: 'tool_call', toolCall: { id: 't', name: 'f', arguments: { x: 1 } } },
      { type: 'done', outcome },
    ];
    const received = await drain(providerProxyHandlers(useCase(events)).streamComplete!(request, context({ kind: 'service' })));
    expect(received).toEqual([{ delta: 'H' }, { toolCall: { id: 't', name: 'f', arguments: { x: 1 } } }, { done: expect.objectContaining({ modelUsed: 'm', costUsd: 0.01 }) }]);
  });

  it("lets an API key reach its own project only", async () => {
    const handlers = providerProxyHandlers(useCase());
    const own = context({ kind: 'api_key', keyId: 'ak_1', projectId: 4, organizationId: 1 });
    const foreign = context({ kind: 'api_key', keyId: 'ak_1', projectId: 5, organizationId: 1 });
    await expect(handlers.complete!(request, own)).resolves.toMatchObject({ text: 'Hi' });
    await expect(handlers.complete!(request, foreign)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(drain(handlers.streamComplete!(request, foreign))).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('validates the request before anything is called', async () => {
    await expect(providerProxyHandlers(useCase()).complete!({ ...request, modelPath: [] }, context({ kind: 'service' }))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('turns the abort of a cancelled call into a domain error, and passes other errors through', async () => {
    const controller = new AbortController();
    controller.abort();
    const abortError = new DOMException('aborted', 'AbortError');
    await expect(providerProxyHandlers(useCase([], abortError)).complete!(request, context({ kind: 'service' }, controller.signal))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    const crash = new Error('boom');
    await expect(providerProxyHandlers(useCase([], crash)).complete!(request, context({ kind: 'service' }))).rejects.toBe(crash);
  });
});

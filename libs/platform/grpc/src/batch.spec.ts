import { status as GrpcStatus } from '@grpc/grpc-js';
import { DomainError, fromGrpcError } from '@gateway/errors';
import { createLogger } from '@gateway/logging';
import { answerEach, batchedUnary, MAX_BATCH_ITEMS, type ItemOutcome } from './batch';
import type { CallContext } from './types';

const logger = createLogger({ service: 'batch-test', level: 'silent' });
const ctx = { principal: { kind: 'service' }, metadata: {}, signal: new AbortController().signal, deadline: undefined, logger } as unknown as CallContext;
const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A fake server: unary and batch calls that finish when the test says so, recording what went out. */
function fakeServer(answer: (item: number) => number | DomainError = (item) => item * 10) {
  const unaryCalls: number[] = [];
  const batchCalls: number[][] = [];
  const gates: (() => void)[] = [];
  const gate = () => new Promise<void>((resolve) => gates.push(resolve));
  let batchFailure: unknown;
  const unary = async (item: number) => {
    unaryCalls.push(item);
    await gate();
    const result = answer(item);
    if (result instanceof DomainError) throw result;
    return result;
  };
  const batch = async (items: number[]): Promise<ItemOutcome<number>[]> => {
    batchCalls.push(items);
    await gate();
    if (batchFailure) throw batchFailure;
    // The server side, for real: each item through the unary logic.
    return answerEach(items, ctx, async (item) => {
      const result = answer(item);
      if (result instanceof DomainError) throw result;
      return result;
    });
  };
  const releaseAll = async () => {
    while (gates.length > 0) {
      gates.shift()!();
      await tick();
    }
  };
  return { unary, batch, unaryCalls, batchCalls, releaseAll, failBatches: (error: unknown) => (batchFailure = error) };
}

describe('batchedUnary (client side of a batch method)', () => {
  it('sends a lone call at once on the unary method', async () => {
    const server = fakeServer();
    const call = batchedUnary(server.unary, server.batch, { maxBatch: 8, maxInFlight: 1 });
    const result = call(1);
    await tick();
    expect(server.unaryCalls).toEqual([1]);
    await server.releaseAll();
    await expect(result).resolves.toBe(10);
    expect(server.batchCalls).toEqual([]);
  });

  it('sends the calls waiting behind a busy slot as one batch call, each caller getting its own answer or error', async () => {
    const server = fakeServer((item) => (item === 3 ? new DomainError('VALIDATION_FAILED', 'Trace is completed', { errors: ['trace_id'] }) : item * 10));
    const call = batchedUnary(server.unary, server.batch, { maxBatch: 8, maxInFlight: 1 });
    const results = [1, 2, 3, 4].map((item) => call(item).then((value) => ({ value }), (error: unknown) => ({ error })));
    await tick();
    expect(server.unaryCalls).toEqual([1]);
    await server.releaseAll();
    expect(server.batchCalls).toEqual([[2, 3, 4]]);
    const settled = await Promise.all(results);
    expect(settled[0]).toEqual({ value: 10 });
    expect(settled[1]).toEqual({ value: 20 });
    expect(settled[3]).toEqual({ value: 40 });
    const failed = (settled[2] as { error: DomainError }).error;
    expect(failed).toBeInstanceOf(DomainError);
    expect(failed).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Trace is completed', errors: ['trace_id'] });
  });

  it('gives every caller of a failed batch call its error', async () => {
    const server = fakeServer();
    const call = batchedUnary(server.unary, server.batch, { maxBatch: 8, maxInFlight: 1 });
    server.failBatches(new DomainError('UNAVAILABLE', 'Service unavailable'));
    const results = [1, 2, 3].map((item) => call(item).catch((error: DomainError) => error.code));
    await server.releaseAll();
    expect(await Promise.all(results)).toEqual([10, 'UNAVAILABLE', 'UNAVAILABLE']);
  });

  it('goes on one by one when the server does not have the batch method (an older replica)', async () => {
    const server = fakeServer();
    const call = batchedUnary(server.unary, server.batch, { maxBatch: 8, maxInFlight: 1 });
    server.failBatches(fromGrpcError({ code: GrpcStatus.UNIMPLEMENTED, details: 'unknown method' }));
    const first = [1, 2, 3].map((item) => call(item));
    await server.releaseAll();
    expect(await Promise.all(first)).toEqual([10, 20, 30]);
    expect(server.batchCalls).toEqual([[2, 3]]);
    const second = [4, 5, 6].map((item) => call(item));
    await server.releaseAll();
    expect(await Promise.all(second)).toEqual([40, 50, 60]);
    expect(server.batchCalls).toHaveLength(1);
    expect(server.unaryCalls).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('sends a call with its own options alone, on the unary method', async () => {
    const server = fakeServer();
    const seen: unknown[] = [];
    const call = batchedUnary(async (item: number, options?: unknown) => (seen.push(options), item), server.batch, { maxBatch: 8, maxInFlight: 1 });
    await expect(call(7, { deadlineMs: 50 })).resolves.toBe(7);
    expect(seen).toEqual([{ deadlineMs: 50 }]);
  });
});

describe('answerEach (server side of a batch method)', () => {
  it('answers every item in order, an unexpected error as the generic INTERNAL', async () => {
    const outcomes = await answerEach([1, 2, 3], ctx, async (item) => {
      if (item === 2) throw new DomainError('NOT_FOUND', 'Not found');
      if (item === 3) throw new Error('connection reset: secret detail');
      return item;
    });
    expect(outcomes).toEqual([
      { value: 1, error: undefined },
      { value: undefined, error: { code: 'NOT_FOUND', message: 'Not found', errors: [], retryAfterSeconds: undefined } },
      { value: undefined, error: { code: 'INTERNAL', message: 'Internal server error', errors: [] } },
    ]);
  });

  it(`refuses a batch of more than ${MAX_BATCH_ITEMS} items`, async () => {
    const items = Array.from({ length: MAX_BATCH_ITEMS + 1 }, (_, index) => index);
    await expect(answerEach(items, ctx, async (item) => item)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

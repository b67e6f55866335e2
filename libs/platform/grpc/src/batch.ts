import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { DomainError, fromCallError, isDomainError, toCallError, type CallErrorShape } from '@gateway/errors';
import { Coalescer } from './coalescer';
import type { CallContext, ClientCallOptions } from './types';

/** Most items one batch call may carry. */
export const MAX_BATCH_ITEMS = 256;

/** One item's answer in a batch response: its value, or the error its unary call would have raised. */
export interface ItemOutcome<O> {
  value: O | undefined;
  error: CallErrorShape | undefined;
}

/**
 * Server side of a batch method: every item through the method's unary handler, concurrently
 * (so they coalesce wherever the unary path does), answered in request order. An item's failure
 * is its own `CallError`; unexpected ones are logged as a unary call's would be.
 */
export async function answerEach<I, O>(items: I[], ctx: CallContext, unary: (item: I, ctx: CallContext) => Promise<O>): Promise<ItemOutcome<O>[]> {
  if (items.length > MAX_BATCH_ITEMS) throw new DomainError('VALIDATION_FAILED', `A batch carries at most ${MAX_BATCH_ITEMS} items`);
  return Promise.all(
    items.map(async (item): Promise<ItemOutcome<O>> => {
      try {
        return { value: await unary(item, ctx), error: undefined };
      } catch (error) {
        if (!isDomainError(error)) ctx.logger.error({ err: error }, 'unexpected error in a batch item');
        return { value: undefined, error: toCallError(error) };
      }
    }),
  );
}

type Settled<O> = { ok: true; value: O } | { ok: false; error: unknown };

/**
 * Client side: a unary method whose concurrent calls share its batch method. A call goes out at
 * once, on the unary method, while fewer than `maxInFlight` calls are out; calls arriving while
 * they are leave together in one batch call (at most `maxBatch`) as soon as one returns. So a
 * lone caller waits for nothing, and under load N callers cost one call instead of N. Each caller
 * gets its own answer, or the DomainError its unary call would have raised. A server without the
 * batch method (an older replica during a rolling upgrade) answers UNIMPLEMENTED: from then on the
 * items go out one by one.
 */
export function batchedUnary<I, O>(
  unary: (item: I, options?: ClientCallOptions) => Promise<O>,
  batch: (items: I[]) => Promise<ItemOutcome<O>[]>,
  limits: { maxBatch: number; maxInFlight: number },
): (item: I, options?: ClientCallOptions) => Promise<O> {
  if (limits.maxBatch > MAX_BATCH_ITEMS) throw new Error(`a batch carries at most ${MAX_BATCH_ITEMS} items`);
  let batchUnsupported = false;
  const one = (item: I): Promise<Settled<O>> =>
    unary(item).then(
      (value) => ({ ok: true, value }),
      (error: unknown) => ({ ok: false, error }),
    );
  const coalescer = new Coalescer<I, Settled<O>>(async (items) => {
    if (items.length === 1 || batchUnsupported) return Promise.all(items.map(one));
    let outcomes: ItemOutcome<O>[];
    try {
      outcomes = await batch(items);
    } catch (error) {
      if (((error as { cause?: Partial<ServiceError> }).cause?.code ?? (error as Partial<ServiceError>).code) !== GrpcStatus.UNIMPLEMENTED) throw error;
      batchUnsupported = true;
      return Promise.all(items.map(one));
    }
    return outcomes.map((outcome): Settled<O> => (outcome.error ? { ok: false, error: fromCallError(outcome.error) } : { ok: true, value: outcome.value as O }));
  }, limits);
  return async (item, options) => {
    // Per-call options (a deadline, a signal, metadata) belong to one call: it goes out alone.
    if (options) return unary(item, options);
    const settled = await coalescer.submit(item);
    if (!settled.ok) throw settled.error;
    return settled.value;
  };
}

import { StreamError } from '../errors';
import type { BlockedResult, ChatCompletionChunk, TextResult } from '../types';
import { readSse } from './sse.parser';

/** What opening a stream produced: the HTTP response, and whether it bypassed the gateway (fail-open). */
export interface OpenedStream {
  response: Response;
  unaudited: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textChunks(result: TextResult): ChatCompletionChunk[] {
  const base = { id: `chatcmpl-step-${result.step_id}`, object: 'chat.completion.chunk' as const, created: Math.floor(Date.now() / 1000), model: result.model };
  return [
    { ...base, choices: [{ delta: { content: result.output }, index: 0, finish_reason: null }] },
    { ...base, choices: [{ delta: {}, index: 0, finish_reason: 'stop' }] },
  ];
}

/**
 * GET /api/v1/executions/stream as an async iterator of `chat.completion.chunk` objects.
 * The request is sent when iteration starts; breaking out of the loop (or aborting the signal)
 * closes the connection, which cancels the model call upstream. A request the gateway blocks
 * yields no chunk and sets `blocked`. After a fail-open the chunks come from the fallback
 * provider and `unaudited` is true.
 */
export class ExecutionStream implements AsyncIterable<ChatCompletionChunk> {
  /** Set when the gateway (or agent) blocked the request: no model was called. */
  blocked: BlockedResult | undefined;
  /** True when the chunks came from the fail-open fallback provider (nothing recorded). */
  unaudited = false;
  /** The model that answered (from the chunks). */
  model: string | undefined;
  private started = false;

  constructor(
    private readonly open: () => Promise<OpenedStream>,
    private readonly signal?: AbortSignal,
  ) {}

  async *[Symbol.asyncIterator](): AsyncIterator<ChatCompletionChunk> {
    if (this.started) throw new TypeError('An ExecutionStream can be iterated once');
    this.started = true;
    const { response, unaudited } = await this.open();
    this.unaudited = unaudited;
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      // The gateway answers JSON when no stream started: a blocked request, or a whole result.
      const result: unknown = await response.json();
      if (isObject(result) && typeof result.reason === 'string' && !('output' in result)) {
        this.blocked = { reason: result.reason, step_id: typeof result.step_id === 'number' ? result.step_id : null };
        return;
      }
      if (isObject(result) && typeof result.output === 'string') {
        this.model = String(result.model ?? '');
        yield* textChunks(result as unknown as TextResult);
        return;
      }
      throw new StreamError('Unexpected non-stream answer from the stream endpoint', { status: response.status });
    }
    if (!response.body) throw new StreamError('Stream response has no body', { status: response.status });
    const events = readSse(response.body, this.signal);
    try {
      for await (const event of events) {
        if (this.signal?.aborted) throw this.signal.reason;
        if (event.data === '[DONE]') return;
        let payload: unknown;
        try {
          payload = JSON.parse(event.data);
        } catch {
          throw new StreamError(`Malformed stream event: ${event.data.slice(0, 100)}`);
        }
        if (isObject(payload) && typeof payload.error === 'string') throw new StreamError(payload.error);
        if (isObject(payload) && isObject(payload.error)) throw new StreamError(String(payload.error.message ?? 'Stream failed'));
        if (!isObject(payload) || !Array.isArray(payload.choices)) continue;
        const chunk = payload as unknown as ChatCompletionChunk;
        if (chunk.model) this.model = chunk.model;
        yield chunk;
      }
      if (this.signal?.aborted) throw this.signal.reason;
      throw new StreamError('Stream ended before [DONE]');
    } finally {
      await events.return(undefined);
    }
  }

  /** Reads the whole stream and joins the content deltas ('' when blocked). */
  async text(): Promise<string> {
    let text = '';
    for await (const chunk of this) text += chunk.choices[0]?.delta.content ?? '';
    return text;
  }
}

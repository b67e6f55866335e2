import { StreamError } from '../errors';
import { ExecutionStream } from './execution.stream';

const chunk = (content: string | undefined, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fast', choices: [{ delta: content === undefined ? {} : { content }, index: 0, finish_reason: finish }] })}\n\n`;

function sse(frames: string[]): Response {
  return new Response(frames.join(''), { status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}

const opened = (response: Response, unaudited = false) => async () => ({ response, unaudited });

describe('ExecutionStream', () => {
  it('yields chat.completion.chunk objects until [DONE]', async () => {
    const stream = new ExecutionStream(opened(sse([chunk('Mock '), chunk('answer'), chunk(undefined, 'stop'), 'data: [DONE]\n\n'])));
    const chunks = [];
    for await (const item of stream) chunks.push(item);
    expect(chunks.map((item) => item.choices[0].delta.content ?? '')).toEqual(['Mock ', 'answer', '']);
    expect(chunks[2].choices[0].finish_reason).toBe('stop');
    expect(stream.model).toBe('fast');
    expect(stream.blocked).toBeUndefined();
    expect(stream.unaudited).toBe(false);
  });

  it('collects text', async () => {
    await expect(new ExecutionStream(opened(sse([chunk('a'), chunk('b'), 'data: [DONE]\n\n']))).text()).resolves.toBe('ab');
  });

  it('reports a blocked request (a JSON answer) without chunks', async () => {
    const response = new Response(JSON.stringify({ reason: 'Request blocked by risk check', step_id: 9 }), { status: 200, headers: { 'content-type': 'application/json' } });
    const stream = new ExecutionStream(opened(response));
    await expect(stream.text()).resolves.toBe('');
    expect(stream.blocked).toEqual({ reason: 'Request blocked by risk check', step_id: 9 });
  });

  it('turns a whole JSON text result into a content chunk and a stop chunk', async () => {
    const response = new Response(JSON.stringify({ output: 'whole', model: 'smart', step_id: 3 }), { status: 200, headers: { 'content-type': 'application/json' } });
    const chunks = [];
    for await (const item of new ExecutionStream(opened(response))) chunks.push(item);
    expect(chunks.map((item) => [item.choices[0].delta.content, item.choices[0].finish_reason])).toEqual([
      ['whole', null],
      [undefined, 'stop'],
    ]);
  });

  it('throws a StreamError for an error event sent after the stream started', async () => {
    const stream = new ExecutionStream(opened(sse([chunk('par'), 'data: {"error":"Upstream model stream failed"}\n\n', 'data: [DONE]\n\n'])));
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const item of stream) seen.push(item.choices[0].delta.content ?? '');
      })(),
    ).rejects.toMatchObject({ constructor: StreamError, message: 'Upstream model stream failed' });
    expect(seen).toEqual(['par']);
  });

  it('throws when the stream ends without [DONE] (a truncated answer)', async () => {
    await expect(new ExecutionStream(opened(sse([chunk('par')]))).text()).rejects.toThrow('Stream ended before [DONE]');
  });

  it('marks chunks from the fail-open provider as unaudited', async () => {
    const stream = new ExecutionStream(opened(sse([chunk('x'), 'data: [DONE]\n\n']), true));
    await stream.text();
    expect(stream.unaudited).toBe(true);
  });

  it('can be iterated once', async () => {
    const stream = new ExecutionStream(opened(sse(['data: [DONE]\n\n'])));
    await stream.text();
    await expect(stream.text()).rejects.toThrow(TypeError);
  });

  it('stops reading and cancels the body when the signal aborts', async () => {
    let cancelled = false;
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => new Promise<void>((resolve) => setTimeout(() => {
        if (!cancelled) controller.enqueue(encoder.encode(chunk('tick')));
        resolve();
      }, 5)),
      cancel: () => void (cancelled = true),
    });
    const controller = new AbortController();
    const stream = new ExecutionStream(opened(new Response(body, { headers: { 'content-type': 'text/event-stream' } })), controller.signal);
    let count = 0;
    await expect(
      (async () => {
        for await (const _item of stream) if (++count === 2) controller.abort(new Error('caller gave up'));
      })(),
    ).rejects.toThrow('caller gave up');
    expect(count).toBe(2);
    expect(cancelled).toBe(true);
  });
});

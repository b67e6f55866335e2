import { readSse, SseParser } from './sse.parser';

function bodyOf(parts: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(typeof part === 'string' ? encoder.encode(part) : part);
      controller.close();
    },
  });
}

async function collect(parts: Array<string | Uint8Array>) {
  const events = [];
  for await (const event of readSse(bodyOf(parts))) events.push(event);
  return events;
}

describe('SseParser', () => {
  it('dispatches one event per blank line', () => {
    const parser = new SseParser();
    expect(parser.push('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'message', data: '[DONE]' },
    ]);
  });

  it('joins multi-line data, ignores comments and unknown fields, keeps event and id', () => {
    const parser = new SseParser();
    expect(parser.push(': keep-alive\nevent: update\nid: 7\nretry: 100\nfoo: bar\ndata: line one\ndata:line two\n\n')).toEqual([{ event: 'update', data: 'line one\nline two', id: '7' }]);
  });

  it('accepts CRLF and lone CR line endings, also split across chunks', () => {
    const parser = new SseParser();
    expect(parser.push('data: a\r\n\r\ndata: b\r\rdata: c\r')).toEqual([
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
    expect(parser.push('\n\n')).toEqual([{ event: 'message', data: 'c' }]);
  });

  it('waits for the rest of a line split across chunks', () => {
    const parser = new SseParser();
    expect(parser.push('da')).toEqual([]);
    expect(parser.push('ta: {"x":')).toEqual([]);
    expect(parser.push('2}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ event: 'message', data: '{"x":2}' }]);
  });

  it('ignores blank lines without data and drops an unterminated last event', () => {
    const parser = new SseParser();
    expect(parser.push('\n\nevent: x\n\n')).toEqual([]);
    expect(parser.push('data: partial')).toEqual([]);
    expect(parser.end()).toEqual([]);
  });
});

describe('readSse', () => {
  it('decodes UTF-8 characters split between network chunks', async () => {
    const bytes = new TextEncoder().encode('data: héllo 🙂\n\n');
    const cut = 8; // inside the two bytes of "é"; cut + 8 falls inside the emoji
    const events = await collect([bytes.slice(0, cut), bytes.slice(cut, cut + 8), bytes.slice(cut + 8)]);
    expect(events).toEqual([{ event: 'message', data: 'héllo 🙂' }]);
  });

  it('cancels the body when the consumer stops early', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('data: tick\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    for await (const event of readSse(body)) {
      expect(event.data).toBe('tick');
      break;
    }
    expect(cancelled).toBe(true);
  });
});

import { parseSse, type SseEvent } from './sse.parser';

async function parse(chunks: string[]): Promise<SseEvent[]> {
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  const events: SseEvent[] = [];
  for await (const event of parseSse(source())) events.push(event);
  return events;
}

describe('parseSse', () => {
  it('reads data-only events and named events', async () => {
    expect(await parse(['data: {"a":1}\n\nevent: ping\ndata: {}\n\n'])).toEqual([{ event: undefined, data: '{"a":1}' }, { event: 'ping', data: '{}' }]);
  });

  it('handles CRLF split across chunks (Gemini ends events with \\r\\n\\r\\n)', async () => {
    expect(await parse(['data: one\r', '\n\r', '\ndata: two\r\n\r\n'])).toEqual([{ event: undefined, data: 'one' }, { event: undefined, data: 'two' }]);
  });

  it('joins multi-line data, ignores comments and unknown fields', async () => {
    expect(await parse([': keep-alive\nid: 7\ndata: a\ndata: b\n\n'])).toEqual([{ event: undefined, data: 'a\nb' }]);
  });

  it('keeps multi-byte characters split between chunks intact', async () => {
    const bytes = Buffer.from('data: héllo\n\n');
    async function* source() {
      yield bytes.subarray(0, 8);
      yield bytes.subarray(8);
    }
    const events: SseEvent[] = [];
    for await (const event of parseSse(source())) events.push(event);
    expect(events).toEqual([{ event: undefined, data: 'héllo' }]);
  });

  it('drops an event cut off before its blank line', async () => {
    expect(await parse(['data: complete\n\ndata: {"trunc'])).toEqual([{ event: undefined, data: 'complete' }]);
  });
});

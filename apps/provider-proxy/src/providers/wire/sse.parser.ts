/** One server-sent event; `event` is absent when the server sent only `data:` lines. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Incremental text/event-stream parser (WHATWG rules: CRLF, CR or LF line ends, multi-line
 * data joined by LF, comments ignored). An event cut off before its blank line is dropped, so
 * a truncated stream never yields half an event.
 */
export async function* parseSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let eventName: string | undefined;
  let data: string[] = [];

  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    let lineStart = 0;
    for (;;) {
      const lineEnd = findLineEnd(buffer, lineStart);
      if (lineEnd === undefined) break;
      const line = buffer.slice(lineStart, lineEnd.index);
      lineStart = lineEnd.index + lineEnd.length;

      if (line === '') {
        if (data.length > 0) yield { event: eventName, data: data.join('\n') };
        eventName = undefined;
        data = [];
        continue;
      }
      if (line.charCodeAt(0) === 58 /* ':' comment */) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.charCodeAt(0) === 32) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') eventName = value;
    }
    buffer = buffer.slice(lineStart);
  }
}

function findLineEnd(buffer: string, from: number): { index: number; length: number } | undefined {
  for (let i = from; i < buffer.length; i++) {
    const code = buffer.charCodeAt(i);
    if (code === 10) return { index: i, length: 1 };
    if (code === 13) {
      // A CR at the end of the buffer may be the first half of a CRLF split across chunks.
      if (i + 1 === buffer.length) return undefined;
      return { index: i, length: buffer.charCodeAt(i + 1) === 10 ? 2 : 1 };
    }
  }
  return undefined;
}

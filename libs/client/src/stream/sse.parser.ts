/**
 * Incremental parser of server-sent events (WHATWG "event stream interpretation"): lines end in
 * LF, CRLF or CR; `data:` lines of one event join with LF; a blank line dispatches; comments
 * (`:`) and unknown fields are ignored; one space after the colon is dropped. Bytes are decoded
 * as a stream, so a UTF-8 character split across network chunks survives.
 */
export interface SseEvent {
  event: string;
  data: string;
  id?: string;
}

export class SseParser {
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private id: string | undefined;
  private hasData = false;
  /** A CR ended the previous chunk: a LF starting the next one belongs to it. */
  private pendingCr = false;

  push(text: string): SseEvent[] {
    let input = text;
    if (this.pendingCr && input.startsWith('\n')) input = input.slice(1);
    this.pendingCr = false;
    this.buffer += input;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const char = this.buffer[i];
      if (char !== '\n' && char !== '\r') continue;
      const line = this.buffer.slice(start, i);
      if (char === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i++;
        } else this.pendingCr = true;
      }
      start = i + 1;
      const dispatched = this.line(line);
      if (dispatched) events.push(dispatched);
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  /** End of input: an unterminated last event is dropped, as the standard says. */
  end(): SseEvent[] {
    this.buffer = '';
    this.data = [];
    this.hasData = false;
    return [];
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') {
      if (!this.hasData) {
        this.event = '';
        return undefined;
      }
      const dispatched: SseEvent = { event: this.event || 'message', data: this.data.join('\n'), ...(this.id !== undefined ? { id: this.id } : {}) };
      this.data = [];
      this.hasData = false;
      this.event = '';
      return dispatched;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.data.push(value);
      this.hasData = true;
    } else if (field === 'event') this.event = value;
    else if (field === 'id' && !value.includes('\0')) this.id = value;
    return undefined;
  }
}

/** The events of a response body, as they arrive. Cancelling the iteration cancels the body. */
export async function* readSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  let finished = false;
  // Cancelling the reader ends a pending read at once (the generator itself cannot be interrupted mid-await).
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => undefined);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        const tail = decoder.decode();
        if (tail) yield* parser.push(tail);
        yield* parser.end();
        finished = true;
        return;
      }
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

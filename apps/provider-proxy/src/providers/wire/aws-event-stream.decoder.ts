import { protocolFailure } from '../resilience/upstream-attempt.error';

/**
 * Decoder for AWS's `application/vnd.amazon.eventstream` framing (ConverseStream):
 *
 *   total length u32 | headers length u32 | prelude CRC32 u32 | headers | payload | message CRC32 u32
 *
 * Both CRCs are checked: a corrupted frame must surface as a protocol error, not as garbage JSON.
 */
export type EventStreamHeaderValue = boolean | number | string | Uint8Array | Date;

export interface EventStreamMessage {
  headers: Record<string, EventStreamHeaderValue>;
  payload: Uint8Array;
}

const PRELUDE_LENGTH = 12;
const MINIMUM_FRAME = PRELUDE_LENGTH + 4;
// AWS caps event-stream messages at 16 MiB; anything larger is a corrupt length field.
const MAXIMUM_FRAME = 16 * 1024 * 1024;

export async function* decodeEventStream(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<EventStreamMessage> {
  let buffered: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    buffered = buffered.length === 0 ? chunk : concat(buffered, chunk);
    let offset = 0;
    while (buffered.length - offset >= PRELUDE_LENGTH) {
      const view = new DataView(buffered.buffer, buffered.byteOffset + offset, buffered.length - offset);
      const totalLength = view.getUint32(0);
      if (totalLength < MINIMUM_FRAME || totalLength > MAXIMUM_FRAME) throw protocolFailure('invalid event-stream frame length');
      if (buffered.length - offset < totalLength) break;
      yield decodeFrame(buffered.subarray(offset, offset + totalLength));
      offset += totalLength;
    }
    buffered = offset === buffered.length ? new Uint8Array(0) : buffered.slice(offset);
  }
  if (buffered.length > 0) throw protocolFailure('truncated event-stream frame');
}

/** Decodes exactly one complete frame. */
export function decodeFrame(frame: Uint8Array): EventStreamMessage {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const totalLength = view.getUint32(0);
  const headersLength = view.getUint32(4);
  if (totalLength !== frame.length || PRELUDE_LENGTH + headersLength + 4 > totalLength) {
    throw protocolFailure('invalid event-stream frame length');
  }
  if (crc32(frame.subarray(0, 8)) !== view.getUint32(8)) throw protocolFailure('event-stream prelude checksum mismatch');
  if (crc32(frame.subarray(0, totalLength - 4)) !== view.getUint32(totalLength - 4)) {
    throw protocolFailure('event-stream message checksum mismatch');
  }
  const headers = decodeHeaders(frame.subarray(PRELUDE_LENGTH, PRELUDE_LENGTH + headersLength));
  return { headers, payload: frame.subarray(PRELUDE_LENGTH + headersLength, totalLength - 4) };
}

const utf8 = new TextDecoder();

function decodeHeaders(bytes: Uint8Array): Record<string, EventStreamHeaderValue> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headers: Record<string, EventStreamHeaderValue> = {};
  let at = 0;
  const need = (count: number) => {
    if (at + count > bytes.length) throw protocolFailure('truncated event-stream header');
  };
  while (at < bytes.length) {
    need(1);
    const nameLength = view.getUint8(at);
    at += 1;
    need(nameLength + 1);
    const name = utf8.decode(bytes.subarray(at, at + nameLength));
    at += nameLength;
    const type = view.getUint8(at);
    at += 1;
    switch (type) {
      case 0: headers[name] = true; break;
      case 1: headers[name] = false; break;
      case 2: need(1); headers[name] = view.getInt8(at); at += 1; break;
      case 3: need(2); headers[name] = view.getInt16(at); at += 2; break;
      case 4: need(4); headers[name] = view.getInt32(at); at += 4; break;
      case 5: need(8); headers[name] = Number(view.getBigInt64(at)); at += 8; break;
      case 6:
      case 7: {
        need(2);
        const length = view.getUint16(at);
        at += 2;
        need(length);
        const value = bytes.subarray(at, at + length);
        headers[name] = type === 7 ? utf8.decode(value) : value;
        at += length;
        break;
      }
      case 8: need(8); headers[name] = new Date(Number(view.getBigInt64(at))); at += 8; break;
      case 9: need(16); headers[name] = bytes.subarray(at, at + 16); at += 16; break;
      default: throw protocolFailure('unknown event-stream header type');
    }
  }
  return headers;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

// Table-driven CRC32 (IEEE 802.3, reflected 0xEDB88320), written out rather than taken from zlib
// so the decoder's check is independent of the mock-provider's encoder.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

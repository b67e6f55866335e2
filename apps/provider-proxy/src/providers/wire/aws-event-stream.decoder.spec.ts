import { crc32 as zlibCrc32 } from 'node:zlib';
import { crc32, decodeEventStream, decodeFrame } from './aws-event-stream.decoder';

/** Builds a frame by hand, with zlib's CRC, independently of the decoder under test. */
function frame(headers: Array<[string, number, Buffer]>, payload: string): Buffer {
  const headerBytes = Buffer.concat(
    headers.map(([name, type, value]) => {
      const nameBytes = Buffer.from(name);
      const lengthPrefix = type === 6 || type === 7 ? Buffer.from([value.length >> 8, value.length & 0xff]) : Buffer.alloc(0);
      return Buffer.concat([Buffer.from([nameBytes.length]), nameBytes, Buffer.from([type]), lengthPrefix, value]);
    }),
  );
  const body = Buffer.from(payload);
  const total = 12 + headerBytes.length + body.length + 4;
  const out = Buffer.alloc(total);
  out.writeUInt32BE(total, 0);
  out.writeUInt32BE(headerBytes.length, 4);
  out.writeUInt32BE(zlibCrc32(out.subarray(0, 8)), 8);
  headerBytes.copy(out, 12);
  body.copy(out, 12 + headerBytes.length);
  out.writeUInt32BE(zlibCrc32(out.subarray(0, total - 4)), total - 4);
  return out;
}

const str = (value: string) => Buffer.from(value);

async function* chunksOf(buffer: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < buffer.length; at += size) yield buffer.subarray(at, at + size);
}

async function collect(chunks: AsyncIterable<Uint8Array>) {
  const out = [];
  for await (const message of decodeEventStream(chunks)) out.push(message);
  return out;
}

describe('crc32', () => {
  it('agrees with zlib', () => {
    for (const sample of ['', 'a', 'The quick brown fox', 'x'.repeat(1000)]) expect(crc32(Buffer.from(sample))).toBe(zlibCrc32(sample));
  });
});

describe('decodeEventStream', () => {
  const first = frame([[':event-type', 7, str('contentBlockDelta')], [':message-type', 7, str('event')]], '{"delta":{"text":"Hi"}}');
  const second = frame([[':event-type', 7, str('messageStop')], ['flag', 0, Buffer.alloc(0)], ['count', 4, Buffer.from([0, 0, 1, 0])]], '{"stopReason":"end_turn"}');

  it('decodes frames split at every byte boundary', async () => {
    const messages = await collect(chunksOf(Buffer.concat([first, second]), 1));
    expect(messages).toHaveLength(2);
    expect(messages[0].headers[':event-type']).toBe('contentBlockDelta');
    expect(Buffer.from(messages[0].payload).toString()).toBe('{"delta":{"text":"Hi"}}');
    expect(messages[1].headers).toEqual({ ':event-type': 'messageStop', flag: true, count: 256 });
  });

  it('decodes several frames delivered in one chunk', async () => {
    expect(await collect(chunksOf(Buffer.concat([first, second, first]), 10_000))).toHaveLength(3);
  });

  it('rejects a corrupted payload through the message CRC', () => {
    const corrupted = Buffer.from(first);
    corrupted[corrupted.length - 6] ^= 0xff;
    expect(() => decodeFrame(corrupted)).toThrow('event-stream message checksum mismatch');
  });

  it('rejects a corrupted length through the prelude CRC', () => {
    const corrupted = Buffer.from(first);
    corrupted[5] ^= 0x01;
    expect(() => decodeFrame(corrupted)).toThrow(/checksum|length/);
  });

  it('fails on a stream cut inside a frame', async () => {
    await expect(collect(chunksOf(first.subarray(0, first.length - 3), 7))).rejects.toThrow('truncated event-stream frame');
  });
});

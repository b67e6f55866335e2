import { crc32 } from 'node:zlib';
import { encodeConverseEvent } from './event-stream.encoder';

describe('encodeConverseEvent', () => {
  it('lays out prelude, string headers, payload and both CRCs', () => {
    const frame = encodeConverseEvent('contentBlockDelta', { delta: { text: 'Hi' } });
    const total = frame.readUInt32BE(0);
    const headersLength = frame.readUInt32BE(4);
    expect(total).toBe(frame.length);
    expect(frame.readUInt32BE(8)).toBe(crc32(frame.subarray(0, 8)));
    expect(frame.readUInt32BE(total - 4)).toBe(crc32(frame.subarray(0, total - 4)));

    const headers: Record<string, string> = {};
    for (let at = 12; at < 12 + headersLength; ) {
      const nameLength = frame.readUInt8(at);
      const name = frame.subarray(at + 1, at + 1 + nameLength).toString();
      expect(frame.readUInt8(at + 1 + nameLength)).toBe(7);
      const valueLength = frame.readUInt16BE(at + 2 + nameLength);
      headers[name] = frame.subarray(at + 4 + nameLength, at + 4 + nameLength + valueLength).toString();
      at += 4 + nameLength + valueLength;
    }
    expect(headers).toEqual({ ':event-type': 'contentBlockDelta', ':content-type': 'application/json', ':message-type': 'event' });
    expect(JSON.parse(frame.subarray(12 + headersLength, total - 4).toString())).toEqual({ delta: { text: 'Hi' } });
  });
});

import { crc32 } from 'node:zlib';

/**
 * Encodes one AWS event-stream frame (as ConverseStream sends them) with string headers only:
 * total length | headers length | prelude CRC | headers | payload | message CRC.
 */
export function encodeEventFrame(headers: Record<string, string>, payload: Buffer): Buffer {
  const headerBuffers: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const nameBytes = Buffer.from(name, 'utf8');
    const valueBytes = Buffer.from(value, 'utf8');
    const header = Buffer.alloc(1 + nameBytes.length + 1 + 2 + valueBytes.length);
    header.writeUInt8(nameBytes.length, 0);
    nameBytes.copy(header, 1);
    header.writeUInt8(7, 1 + nameBytes.length); // 7 = string
    header.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
    valueBytes.copy(header, 4 + nameBytes.length);
    headerBuffers.push(header);
  }
  const headerBytes = Buffer.concat(headerBuffers);
  const total = 12 + headerBytes.length + payload.length + 4;
  const frame = Buffer.alloc(total);
  frame.writeUInt32BE(total, 0);
  frame.writeUInt32BE(headerBytes.length, 4);
  frame.writeUInt32BE(crc32(frame.subarray(0, 8)), 8);
  headerBytes.copy(frame, 12);
  payload.copy(frame, 12 + headerBytes.length);
  frame.writeUInt32BE(crc32(frame.subarray(0, total - 4)), total - 4);
  return frame;
}

export function encodeConverseEvent(eventType: string, body: Record<string, unknown>): Buffer {
  return encodeEventFrame(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify(body), 'utf8'),
  );
}

export function encodeConverseException(exceptionType: string, message: string): Buffer {
  return encodeEventFrame(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message }), 'utf8'),
  );
}

import { crc32 } from 'node:zlib';

/** One record as the in-process log stores it; header values come back as Buffers, as from Kafka. */
export interface StoredRecord {
  /** Write that put the record in the log; frames of writes after the last committed one are dropped on open. */
  write: number;
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, Buffer | Buffer[]>;
}

export const FRAME_HEADER_BYTES = 8;
const FORMAT_VERSION = 1;

type HeaderValue = Buffer | string | (Buffer | string)[] | undefined;

/** `[u32 body length][u32 crc32 of body][body]`, so a torn or corrupt tail is detected on open. */
export function encodeFrame(body: Buffer): Buffer {
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt32BE(body.length, 0);
  header.writeUInt32BE(crc32(body), 4);
  return Buffer.concat([header, body]);
}

/**
 * The frame starting at `position` of `bytes`, or null when it is incomplete or fails its
 * checksum (the end of the valid part of a file).
 */
export function frameAt(bytes: Buffer, position: number): { body: Buffer; end: number } | null {
  if (position + FRAME_HEADER_BYTES > bytes.length) return null;
  const length = bytes.readUInt32BE(position);
  const end = position + FRAME_HEADER_BYTES + length;
  if (end > bytes.length) return null;
  const body = bytes.subarray(position + FRAME_HEADER_BYTES, end);
  if (crc32(body) !== bytes.readUInt32BE(position + 4)) return null;
  return { body, end };
}

export function encodeRecord(record: {
  write: number;
  offset: number;
  timestamp: number;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, HeaderValue>;
}): Buffer {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.map(toBase64) : toBase64(value);
  }
  const headerBytes = Buffer.from(JSON.stringify(headers));
  const fixed = Buffer.alloc(1 + 8 * 3);
  fixed.writeUInt8(FORMAT_VERSION, 0);
  fixed.writeDoubleBE(record.write, 1);
  fixed.writeDoubleBE(record.offset, 9);
  fixed.writeDoubleBE(record.timestamp, 17);
  return encodeFrame(
    Buffer.concat([
      fixed,
      lengthPrefixed(record.key),
      lengthPrefixed(record.value),
      lengthPrefixed(headerBytes),
    ]),
  );
}

export function decodeRecord(body: Buffer): StoredRecord {
  if (body.readUInt8(0) !== FORMAT_VERSION) throw new Error('unknown record format version');
  let position = 25;
  const next = (): Buffer | null => {
    const length = body.readInt32BE(position);
    position += 4;
    if (length < 0) return null;
    const bytes = Buffer.from(body.subarray(position, position + length));
    position += length;
    return bytes;
  };
  const key = next();
  const value = next();
  const encoded = JSON.parse((next() ?? Buffer.from('{}')).toString('utf8')) as Record<
    string,
    string | string[]
  >;
  const headers: Record<string, Buffer | Buffer[]> = {};
  for (const [name, v] of Object.entries(encoded)) {
    headers[name] = Array.isArray(v)
      ? v.map((s) => Buffer.from(s, 'base64'))
      : Buffer.from(v, 'base64');
  }
  return {
    write: body.readDoubleBE(1),
    offset: body.readDoubleBE(9),
    timestamp: body.readDoubleBE(17),
    key,
    value,
    headers,
  };
}

function toBase64(value: Buffer | string): string {
  return (Buffer.isBuffer(value) ? value : Buffer.from(value)).toString('base64');
}

function lengthPrefixed(bytes: Buffer | null): Buffer {
  const length = Buffer.alloc(4);
  length.writeInt32BE(bytes === null ? -1 : bytes.length, 0);
  return bytes === null ? length : Buffer.concat([length, bytes]);
}

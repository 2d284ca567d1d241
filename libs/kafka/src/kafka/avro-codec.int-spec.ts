import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anEventRecord, detectionEventSchema } from '@vigil/contracts';
import { DecodeError } from '../port/decode-error';
import { AvroCodec } from './avro-codec';

const REGISTRY = process.env.SCHEMA_REGISTRY_URL ?? 'http://127.0.0.1:8081/apis/ccompat/v7';

const withSchemaId = (bytes: Buffer, id: number) => {
  const copy = Buffer.from(bytes);
  copy.writeInt32BE(id, 1);
  return copy;
};

describe('AvroCodec on the schema registry', () => {
  const topic = `codec-${randomUUID()}`;
  const record = anEventRecord({ id: 'evt-codec-1' });
  let codec: AvroCodec;
  let bytes: Buffer;

  beforeAll(async () => {
    codec = new AvroCodec(REGISTRY);
    await codec.register(topic, detectionEventSchema);
    bytes = await codec.encode(topic, record);
    await codec.decode(bytes);
  });

  it('decodes without waiting only once it has met the record’s schema', async () => {
    const reader = new AvroCodec(REGISTRY);
    expect(reader.decodeKnown(bytes)).toBeUndefined();
    const decoded = await reader.decode(bytes);
    expect(decoded).toEqual({ ...record, description: record.description ?? null });
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(reader.decodeKnown(bytes)).toEqual({ value: decoded });
  });

  it.each([
    ['an empty record', Buffer.alloc(0), 'empty or truncated record'],
    [
      'another wire format',
      Buffer.from('{"id":"evt-1"}'),
      'not in the schema registry wire format',
    ],
  ])('refuses %s with the reason', async (_what, value, reason) => {
    await expect(codec.decode(value)).rejects.toThrow(new DecodeError(reason));
    expect(() => codec.decodeKnown(value)).toThrow(new DecodeError(reason));
  });

  it('refuses a schema id the registry does not know, as the record’s fault', async () => {
    const unknown = withSchemaId(bytes, 0x7ffffff0);
    await expect(codec.decode(unknown)).rejects.toBeInstanceOf(DecodeError);
    expect(codec.decodeKnown(unknown)).toBeUndefined();
  });

  it('refuses a body its schema cannot read, whether or not it waits', async () => {
    const truncated = bytes.subarray(0, bytes.length - 3);
    const fresh = new AvroCodec(REGISTRY);
    await expect(fresh.decode(truncated)).rejects.toThrow(/^undecodable Avro record/);
    expect(() => codec.decodeKnown(truncated)).toThrow(DecodeError);
  });

  describe('when the registry answers 503', () => {
    let down: Server;
    beforeAll(async () => {
      down = createServer((_request, response) => response.writeHead(503).end());
      await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => down.close(() => resolve())));

    it('fails the decode as an outage, not as a bad record', async () => {
      const { port } = down.address() as AddressInfo;
      const outage = new AvroCodec(`http://127.0.0.1:${port}`);
      const error = await outage.decode(bytes).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(DecodeError);
    }, 30_000);
  });
});

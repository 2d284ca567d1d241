import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import avro from 'avsc';
import { valueSubjectOf } from '@vigil/contracts';
import type { ContractCodec } from '../port/contract-codec';
import { DecodeError } from '../port/decode-error';

interface SchemaFile {
  /** Schema id → schema (JSON text), ids given in registration order from 1. */
  schemas: Record<string, string>;
  /** Subject → ids of its versions, oldest first. */
  subjects: Record<string, number[]>;
}

/**
 * The schema registry of the embedded mode: the same Confluent wire format as AvroCodec
 * (magic byte 0, 4-byte schema id, Avro body), with the schemas and their ids kept in
 * `schemas.json` of the data folder, so records written before a restart decode after it.
 * A new version of a subject must be BACKWARD compatible with the previous one (it can read
 * its data), as the registry enforces for the Kafka deployment; identical schemas share an id.
 */
export class LocalAvroCodec implements ContractCodec {
  private readonly path: string;
  private readonly file: SchemaFile;
  private readonly types = new Map<number, avro.Type>();
  private readonly topicIds = new Map<string, number>();

  constructor(dataDir: string) {
    this.path = join(dataDir, 'schemas.json');
    this.file = existsSync(this.path)
      ? (JSON.parse(readFileSync(this.path, 'utf8')) as SchemaFile)
      : { schemas: {}, subjects: {} };
  }

  async register(topic: string, schema: object): Promise<number> {
    const subject = valueSubjectOf(topic);
    const text = JSON.stringify(schema);
    const versions = this.file.subjects[subject] ?? [];
    let id = Number(Object.entries(this.file.schemas).find(([, s]) => s === text)?.[0] ?? NaN);
    if (!versions.includes(id)) {
      const latest = versions[versions.length - 1];
      if (latest !== undefined) {
        try {
          avro.Type.forSchema(schema as avro.Schema).createResolver(this.typeOf(latest));
        } catch (error) {
          throw new Error(
            `schema for ${subject} is not backward compatible: ${(error as Error).message}`,
          );
        }
      }
      if (Number.isNaN(id)) {
        id = Math.max(0, ...Object.keys(this.file.schemas).map(Number)) + 1;
        this.file.schemas[String(id)] = text;
      }
      this.file.subjects[subject] = [...versions, id];
      this.save();
    }
    this.topicIds.set(topic, id);
    return id;
  }

  async encode(topic: string, value: unknown): Promise<Buffer> {
    const id = this.topicIds.get(topic);
    if (id === undefined) throw new Error(`no schema registered for topic ${topic}`);
    const type = this.typeOf(id);
    const paths: string[] = [];
    if (!type.isValid(value, { errorHook: (path) => paths.push(path.join('.')) }))
      throw new Error(`invalid payload at ${paths.join(', ')}`);
    const header = Buffer.alloc(5);
    header.writeUInt32BE(id, 1);
    return Buffer.concat([header, type.toBuffer(value)]);
  }

  async decode(buffer: Buffer | null): Promise<unknown> {
    if (!buffer || buffer.length < 5) throw new DecodeError('empty or truncated record');
    if (buffer[0] !== 0) throw new DecodeError('not in the schema registry wire format');
    const id = buffer.readUInt32BE(1);
    if (this.file.schemas[String(id)] === undefined)
      throw new DecodeError(`undecodable Avro record: unknown schema id ${id}`, 'schema');
    try {
      return toPlain(this.typeOf(id).fromBuffer(buffer.subarray(5)));
    } catch (error) {
      throw new DecodeError(`undecodable Avro record: ${(error as Error).message}`);
    }
  }

  private typeOf(id: number): avro.Type {
    let type = this.types.get(id);
    if (!type) {
      type = avro.Type.forSchema(JSON.parse(this.file.schemas[String(id)]) as avro.Schema);
      this.types.set(id, type);
    }
    return type;
  }

  private save(): void {
    writeFileSync(`${this.path}.tmp`, JSON.stringify(this.file, null, 2));
    const fd = openSync(`${this.path}.tmp`, 'r');
    fsyncSync(fd);
    closeSync(fd);
    renameSync(`${this.path}.tmp`, this.path);
  }
}

/** As AvroCodec: plain objects, not avsc's generated record classes. */
function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
    const plain: Record<string, unknown> = {};
    for (const key of Object.keys(value))
      plain[key] = toPlain((value as Record<string, unknown>)[key]);
    return plain;
  }
  return value;
}

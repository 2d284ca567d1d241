import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { valueSubjectOf } from '@vigil/contracts';
import type { ContractCodec } from '../port/contract-codec';
import { DecodeError } from '../port/decode-error';
import { registerSchema } from './register-schema';
import { SchemaRegistrySubjects } from './schema-registry-subjects';

/**
 * Avro encoding through the schema registry (Confluent wire format: magic byte, schema id,
 * Avro body). Schemas are registered once at start-up with BACKWARD compatibility, so an
 * incompatible change fails the deployment instead of corrupting a topic; every instance of
 * every app may register at once (registerSchema).
 */
export class AvroCodec implements ContractCodec {
  private readonly registry: SchemaRegistry;
  private readonly subjects: SchemaRegistrySubjects;
  private readonly ids = new Map<string, number>();
  /** Schemas by registry id, as records name them; a registered schema never changes. */
  private readonly writerSchemas = new Map<number, { fromBuffer(buffer: Buffer): unknown }>();

  constructor(registryUrl: string) {
    this.registry = new SchemaRegistry({ host: registryUrl, retry: { retries: 5 } });
    this.subjects = new SchemaRegistrySubjects(registryUrl);
  }

  async register(topic: string, schema: object): Promise<number> {
    const id = await registerSchema(this.subjects, valueSubjectOf(topic), schema);
    // Read back now, so encode() never waits on the registry for it.
    await this.registry.getSchema(id);
    this.ids.set(topic, id);
    return id;
  }

  async encode(topic: string, value: unknown): Promise<Buffer> {
    const id = this.ids.get(topic);
    if (id === undefined) throw new Error(`no schema registered for topic ${topic}`);
    return this.registry.encode(id, value);
  }

  /**
   * decode() without waiting, for a record whose schema this codec has already met (every
   * record after the first of its schema): a consumer decoding thousands of records a batch
   * saves a promise per record. Undefined when the schema must be fetched first by decode().
   */
  decodeKnown(buffer: Buffer | null): { value: unknown } | undefined {
    const schema = this.writerSchemas.get(schemaIdOf(buffer));
    if (!schema) return undefined;
    try {
      return { value: toPlain(schema.fromBuffer(buffer!.subarray(WIRE_HEADER_BYTES))) };
    } catch (error) {
      throw new DecodeError(`undecodable Avro record: ${messageOf(error)}`);
    }
  }

  async decode(buffer: Buffer | null): Promise<unknown> {
    const known = this.decodeKnown(buffer);
    if (known) return known.value;
    const id = schemaIdOf(buffer);
    try {
      this.writerSchemas.set(id, await this.registry.getSchema(id));
    } catch (error) {
      // A registry outage is not the record's fault: let the caller retry it.
      if (isRegistryUnavailable(error, messageOf(error))) throw error;
      throw new DecodeError(`undecodable Avro record: ${messageOf(error)}`, 'schema');
    }
    return this.decodeKnown(buffer)!.value;
  }
}

/** Confluent wire format: magic byte 0, then the schema id (int32), then the Avro body. */
const WIRE_HEADER_BYTES = 5;

function schemaIdOf(buffer: Buffer | null): number {
  if (!buffer || buffer.length < WIRE_HEADER_BYTES) {
    throw new DecodeError('empty or truncated record');
  }
  if (buffer[0] !== 0) throw new DecodeError('not in the schema registry wire format');
  return buffer.readInt32BE(1);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * An outage is a 5xx answer or no answer at all. A 4xx answer (an unknown schema id) is the
 * record's fault, whatever digits its message happens to contain.
 */
function isRegistryUnavailable(error: unknown, message: string): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return status >= 500;
  return /ECONNREFUSED|ETIMEDOUT|ECONNRESET|socket hang up/.test(message);
}

/**
 * avsc decodes records into instances of generated classes whose prototype methods are
 * enumerable; validators that reject unknown keys need plain objects.
 */
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

/**
 * Avro values in the Confluent wire format (magic byte, schema id, body). Decoding a record
 * that is not a value of a registered schema throws a DecodeError.
 */
export interface ContractCodec {
  register(topic: string, schema: object): Promise<number>;
  encode(topic: string, value: unknown): Promise<Buffer>;
  decode(buffer: Buffer | null): Promise<unknown>;
}

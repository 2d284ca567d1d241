/** A record whose bytes are not a value of a registered schema; carries the reason for the DLQ. */
export class DecodeError extends Error {
  /**
   * @param reasonClass `schema` when the record names a schema the registry does not know,
   *   `decode` when its bytes are not a value of any (not the wire format, a corrupt body).
   */
  constructor(
    message: string,
    readonly reasonClass: 'decode' | 'schema' = 'decode',
  ) {
    super(message);
    this.name = 'DecodeError';
  }
}

export type AuditErrorCode = 'invalid_filter';

/** A refused audit query; `field` names the filter that is wrong. */
export class AuditError extends Error {
  constructor(
    readonly code: AuditErrorCode,
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'AuditError';
  }
}

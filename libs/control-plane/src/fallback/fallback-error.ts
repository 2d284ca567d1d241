export type FallbackErrorCode = 'invalid_request';

/** A refused fallback destination; `field` names the form field (`providerId`, `recipients`). */
export class FallbackError extends Error {
  constructor(
    readonly code: FallbackErrorCode,
    message: string,
    readonly field: string,
  ) {
    super(message);
    this.name = 'FallbackError';
  }
}

export type DeliveryErrorCode = 'not_found' | 'not_dead';

/** A refused change to a delivery; the edge maps the code to its response. */
export class DeliveryError extends Error {
  constructor(
    readonly code: DeliveryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

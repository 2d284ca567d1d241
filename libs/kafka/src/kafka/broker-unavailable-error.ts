/**
 * Thrown when records could not be written to Kafka (broker down, restarting, leader moving);
 * the edge maps it to 503 backend_unavailable, and the caller sends the same records again
 * (event ids make that safe).
 */
export class BrokerUnavailableError extends Error {
  readonly code = 'backend_unavailable';
  readonly httpStatus = 503;
  readonly headers = { 'Retry-After': '5' };
  readonly details = { backend: 'Kafka' };
  constructor(cause?: unknown) {
    super('Kafka is unavailable; retry later', { cause });
    this.name = 'BrokerUnavailableError';
  }
}

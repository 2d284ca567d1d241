export type WebhookProviderErrorCode = 'invalid_request' | 'target_refused' | 'not_found';

/** A refused provider operation; the web application maps the code to its response. */
export class WebhookProviderError extends Error {
  constructor(
    readonly code: WebhookProviderErrorCode,
    message: string,
    readonly field?: string,
    /** Every refused field of a destination, each with its message (the first is `field`). */
    readonly fieldErrors: readonly { field: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'WebhookProviderError';
  }
}

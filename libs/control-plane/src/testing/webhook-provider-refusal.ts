import { WebhookProviderError } from '../webhook-providers/webhook-provider-error';

/** The WebhookProviderError a provider operation is refused with; fails the test if none. */
export async function webhookProviderRefusal(
  promise: Promise<unknown>,
): Promise<WebhookProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WebhookProviderError)) {
    throw new Error(`expected a WebhookProviderError, got ${String(error)}`);
  }
  return error;
}

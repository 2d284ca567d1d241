import type { ClaimedDelivery } from '@vigil/control-plane';

/**
 * Why an attempt failed, as the metrics count it: the receiver answered with a failure
 * (`http_error`: a non-2xx webhook answer, an SMTP rejection), there was no answer
 * (`network_error`) or none in time (`timeout`), or Vigil would not send (`refused`: the target is
 * not allowed, the provider was deleted).
 */
export type SendFailure = 'http_error' | 'network_error' | 'timeout' | 'refused';

/** What one attempt came to. `permanent` failures are not retried (e.g. provider deleted). */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  permanent?: boolean;
  /** Set when `ok` is false; a failure that does not say counts as a network error. */
  failure?: SendFailure;
}

/** The outcome label of an attempt: success, or why it failed. */
export function attemptOutcomeOf(outcome: SendOutcome): 'success' | SendFailure {
  if (outcome.ok) return 'success';
  return outcome.failure ?? 'network_error';
}

/** The port the worker pool sends through, one per channel. */
export type DeliverySender = (delivery: ClaimedDelivery) => Promise<SendOutcome>;

import type { ClaimedDelivery } from '@vigil/control-plane';

/** What one attempt came to. `permanent` failures are not retried (e.g. provider deleted). */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  permanent?: boolean;
}

/** The port the worker pool sends through, one per channel. */
export type DeliverySender = (delivery: ClaimedDelivery) => Promise<SendOutcome>;

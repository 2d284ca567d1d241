import type { ClaimedDelivery, NewDelivery } from '@vigil/control-plane';

/**
 * Where deliveries being created can go straight to a sender: the local worker pool, while it
 * has room. Those it takes are inserted already leased and sent from memory, without the claim
 * (a query, and the payload read back) and the wake-up every other delivery waits for.
 */
export interface DirectDispatch {
  /** Holds room for the deliveries it takes: they come back with their `leaseMs` set. */
  reserve(deliveries: readonly NewDelivery[]): DispatchReservation;
}

export interface DispatchReservation {
  /** The deliveries to insert, those taken with their lease. */
  readonly deliveries: readonly NewDelivery[];
  /** The insert committed: sends the deliveries it leased; frees the room of the others. */
  settle(leased: readonly ClaimedDelivery[]): void;
  /** The insert failed: frees the room (nothing was leased). */
  cancel(): void;
}

import {
  type DeliveryChannel,
  type DeliveryFilter,
  type DeliveryView,
  type DeliveryWithAttempts,
  type DeliveryWithLastAttempt,
  type NewAuditEvent,
  type NewDelivery,
} from '@vigil/control-plane';

/**
 * The deliveries as the workspace sees them (DeliveryService): newest first with their attempts,
 * and the two changes people make, resending a dead one (a DeliveryError `not_dead` when it is
 * not dead any more) and queueing one of their own, each with its audit event in its
 * transaction.
 */
export interface DeliveryLog {
  find(id: string): Promise<DeliveryView | null>;
  listWithLastAttempt(filter: DeliveryFilter): Promise<DeliveryWithLastAttempt[]>;
  listWithAttempts(filter: DeliveryFilter): Promise<DeliveryWithAttempts[]>;
  latestByTarget(
    channel: DeliveryChannel,
    targets: readonly string[],
  ): Promise<Map<string, DeliveryView>>;
  resend(id: string, audit: NewAuditEvent): Promise<void>;
  enqueue(delivery: NewDelivery, audit: NewAuditEvent): Promise<void>;
}

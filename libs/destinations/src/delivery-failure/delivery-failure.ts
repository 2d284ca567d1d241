/**
 * A delivery that died after its last retry, as its fallback destination is told of it: what it
 * carried, where it was going, and how it failed.
 */
export interface DeliveryFailure {
  deliveryId: string;
  notificationId: string;
  /** What the delivery carried. */
  kind: 'detection' | 'investigation' | 'digest';
  /** The detection or investigation it was about; null for a digest. */
  subjectId: string | null;
  /** Where it was going: a provider (its id and name) or an email recipient. */
  target: { channel: 'webhook' | 'email'; id: string; name: string };
  attempts: number;
  /** The HTTP status of the last answer; null for a network error or an email. */
  lastStatusCode: number | null;
  lastError: string | null;
  /** When it died (epoch ms). */
  diedAt: number;
  /** The body it would have delivered, parsed; null when it was not JSON. */
  payload: unknown;
}

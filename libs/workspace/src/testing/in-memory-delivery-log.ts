import {
  DeliveryError,
  type DeliveryAttempt,
  type DeliveryChannel,
  type DeliveryFilter,
  type DeliveryView,
  type DeliveryWithAttempts,
  type DeliveryWithLastAttempt,
  type NewAuditEvent,
  type NewDelivery,
} from '@vigil/control-plane';
import { type DeliveryLog } from '../ports/delivery-log';

/**
 * The delivery log of the specs, newest first; `attempts` are kept per delivery id, and the
 * audit events of the changes that succeeded in `audited`.
 */
export class InMemoryDeliveryLog implements DeliveryLog {
  /** Newest first. */
  readonly deliveries: DeliveryView[] = [];
  readonly attempts = new Map<string, DeliveryAttempt[]>();
  readonly queued: NewDelivery[] = [];
  readonly audited: NewAuditEvent[] = [];

  /** A delivery in the log, newer than every one before it. */
  add(delivery: Partial<DeliveryView> & { id: string }): DeliveryView {
    const view: DeliveryView = {
      notificationId: `n-${delivery.id}`,
      kind: 'detection',
      channel: 'webhook',
      target: 'provider-1',
      subjectId: null,
      status: 'pending',
      attemptCount: 0,
      nextAttemptAt: null,
      lastError: null,
      createdAt: new Date(this.deliveries.length),
      updatedAt: new Date(this.deliveries.length),
      deliveredAt: null,
      ...delivery,
    };
    this.deliveries.unshift(view);
    return view;
  }

  async find(id: string): Promise<DeliveryView | null> {
    return this.deliveries.find((d) => d.id === id) ?? null;
  }

  async listWithLastAttempt(filter: DeliveryFilter): Promise<DeliveryWithLastAttempt[]> {
    return this.matching(filter).map((delivery) => ({
      delivery,
      lastAttempt: this.attempts.get(delivery.id)?.at(-1) ?? null,
    }));
  }

  async listWithAttempts(filter: DeliveryFilter): Promise<DeliveryWithAttempts[]> {
    return this.matching(filter).map((delivery) => ({
      delivery,
      attempts: this.attempts.get(delivery.id) ?? [],
    }));
  }

  async latestByTarget(
    channel: DeliveryChannel,
    targets: readonly string[],
  ): Promise<Map<string, DeliveryView>> {
    const latest = new Map<string, DeliveryView>();
    for (const target of targets) {
      const found = this.deliveries.find((d) => d.channel === channel && d.target === target);
      if (found) latest.set(target, found);
    }
    return latest;
  }

  async resend(id: string, audit: NewAuditEvent): Promise<void> {
    const at = this.deliveries.findIndex((d) => d.id === id);
    if (at < 0) throw new DeliveryError('not_found', `No delivery with id ${id}`);
    if (this.deliveries[at].status !== 'dead') {
      throw new DeliveryError('not_dead', 'Only a dead delivery can be resent');
    }
    this.deliveries[at] = { ...this.deliveries[at], status: 'pending' };
    this.audited.push(audit);
  }

  async enqueue(delivery: NewDelivery, audit: NewAuditEvent): Promise<void> {
    this.queued.push(delivery);
    this.audited.push(audit);
  }

  private matching(filter: DeliveryFilter): DeliveryView[] {
    return this.deliveries
      .filter(
        (d) =>
          (filter.subjectId === undefined || d.subjectId === filter.subjectId) &&
          (filter.channel === undefined || d.channel === filter.channel) &&
          (filter.target === undefined || d.target === filter.target) &&
          (filter.status === undefined || d.status === filter.status),
      )
      .slice(0, filter.limit ?? 100);
  }
}

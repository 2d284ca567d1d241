import { type NewAuditEvent } from '../audit/audit-event';
import { SqlAuditLog } from '../audit/sql-audit-log';
import { type SqlClient } from '../sql/sql-client';
import {
  type DeliveryAttempt,
  type DeliveryChannel,
  type DeliveryFilter,
  type DeliveryView,
  type DeliveryWithAttempts,
  type DeliveryWithLastAttempt,
  type NewDelivery,
} from './delivery';
import { DeliveryError } from './delivery-error';
import { insertDeliveries } from './insert-deliveries';
import { SqlDeliveryLog } from './sql-delivery-log';

/**
 * What the web application does with deliveries: list them with their attempts, resend dead
 * ones, and queue one of its own (a test event) for the notifier to send.
 */
export class DeliveryService {
  private readonly log: SqlDeliveryLog;

  constructor(private readonly sql: SqlClient) {
    this.log = new SqlDeliveryLog(sql);
  }

  list(filter: DeliveryFilter = {}): Promise<DeliveryView[]> {
    return this.log.list(filter);
  }

  listWithLastAttempt(filter: DeliveryFilter = {}): Promise<DeliveryWithLastAttempt[]> {
    return this.log.listWithLastAttempt(filter);
  }

  listWithAttempts(filter: DeliveryFilter = {}): Promise<DeliveryWithAttempts[]> {
    return this.log.listWithAttempts(filter);
  }

  latestByTarget(
    channel: DeliveryChannel,
    targets: readonly string[],
  ): Promise<Map<string, DeliveryView>> {
    return this.log.latestByTarget(channel, targets);
  }

  find(id: string): Promise<DeliveryView | null> {
    return this.log.find(id);
  }

  attempts(id: string): Promise<DeliveryAttempt[]> {
    return this.log.attempts(id);
  }

  /**
   * Sends a dead delivery again now, same id and payload, with a fresh retry schedule; given an
   * audit event, records it in the same transaction.
   */
  async resend(id: string, audit?: NewAuditEvent): Promise<void> {
    const result = await this.sql.transaction(async (tx) => {
      const outcome = await new SqlDeliveryLog(tx).resend(id);
      if (outcome === 'resent' && audit) await new SqlAuditLog(tx).append(audit);
      return outcome;
    });
    if (result === 'not_found') throw new DeliveryError('not_found', `No delivery with id ${id}`);
    if (result === 'not_dead') {
      throw new DeliveryError('not_dead', 'Only a dead delivery can be resent');
    }
  }

  /**
   * Queues a rendered delivery; the notifier's workers send it like any other. Given an audit
   * event, records it in the same transaction.
   */
  async enqueue(delivery: NewDelivery, audit?: NewAuditEvent): Promise<void> {
    await this.sql.transaction(async (tx) => {
      await insertDeliveries(tx, [delivery]);
      if (audit) await new SqlAuditLog(tx).append(audit);
    });
  }
}

import { type SqlClient } from '../sql/sql-client';
import { type DeliveryAttempt, type DeliveryFilter, type DeliveryView } from './delivery';
import { SqlDeliveryStore } from './sql-delivery-store';

export type DeliveryErrorCode = 'not_found' | 'not_dead';

export class DeliveryError extends Error {
  constructor(
    readonly code: DeliveryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** What the web application does with deliveries: list them, show attempts, resend dead ones. */
export class DeliveryService {
  private readonly store: SqlDeliveryStore;

  constructor(sql: SqlClient) {
    this.store = new SqlDeliveryStore(sql);
  }

  list(filter: DeliveryFilter = {}): Promise<DeliveryView[]> {
    return this.store.list(filter);
  }

  find(id: string): Promise<DeliveryView | null> {
    return this.store.find(id);
  }

  attempts(id: string): Promise<DeliveryAttempt[]> {
    return this.store.attempts(id);
  }

  /** Sends a dead delivery again now, same id and payload, with a fresh retry schedule. */
  async resend(id: string): Promise<void> {
    const result = await this.store.resend(id);
    if (result === 'not_found') throw new DeliveryError('not_found', `No delivery with id ${id}`);
    if (result === 'not_dead') {
      throw new DeliveryError('not_dead', 'Only a dead delivery can be resent');
    }
  }
}

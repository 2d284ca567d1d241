import {
  type AuditEvent,
  type AuditFilter,
  type AuditLog,
  type AuditPage,
  type NewAuditEvent,
} from '@vigil/control-plane';

/** AuditLog in memory, newest first, filtering by exact action only. */
export class InMemoryAuditLog implements AuditLog {
  readonly events: AuditEvent[] = [];

  async append(event: NewAuditEvent): Promise<void> {
    this.events.unshift({
      id: String(this.events.length + 1),
      occurredAt: event.occurredAt ?? new Date(),
      actor: event.context.actor,
      action: event.action,
      target: event.target ?? null,
      address: event.context.address ?? null,
      requestId: event.context.requestId ?? null,
      details: JSON.parse(JSON.stringify(event.details ?? {})) as Record<string, unknown>,
    });
  }

  async list(filter: AuditFilter): Promise<AuditPage> {
    const events = this.events
      .filter((e) => filter.action === undefined || e.action === filter.action)
      .slice(0, filter.limit ?? 50);
    return { events, nextCursor: null };
  }

  async purge(): Promise<number> {
    return 0;
  }
}

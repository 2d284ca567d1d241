import {
  AuditError,
  userActor,
  type AuditContext,
  type AuditEvent,
  type AuditFilter,
  type AuditPage,
  type NewAuditEvent,
} from '@vigil/control-plane';
import { type AuditTrail } from '../ports/audit-trail';

/** Who acts in the specs: a signed-in admin, from an address, under a request id. */
export function anAuditContext(overrides: Partial<AuditContext> = {}): AuditContext {
  return {
    actor: userActor({ id: 'user-ada', email: 'ada@example.com' }),
    address: '198.51.100.7',
    requestId: 'req-1',
    ...overrides,
  };
}

/** The audit log of the specs: appended events in order; lists newest first, paged by index. */
export class InMemoryAuditTrail implements AuditTrail {
  readonly events: NewAuditEvent[] = [];

  async append(event: NewAuditEvent): Promise<void> {
    this.events.push(event);
  }

  async list(filter: AuditFilter): Promise<AuditPage> {
    if (filter.action !== undefined && !/^[a-z_.]+$/.test(filter.action)) {
      throw new AuditError('invalid_filter', 'The action is not an action', 'action');
    }
    const matching = this.events
      .map((event, index): AuditEvent => ({
        id: String(index + 1),
        occurredAt: event.occurredAt ?? new Date(index * 1000),
        actor: event.context.actor,
        action: event.action,
        target: event.target ?? null,
        address: event.context.address ?? null,
        requestId: event.context.requestId ?? null,
        details: { ...event.details },
      }))
      .filter(
        (e) =>
          (filter.actor === undefined || e.actor.label === filter.actor) &&
          (filter.action === undefined || e.action.startsWith(filter.action)) &&
          (filter.targetType === undefined || e.target?.type === filter.targetType) &&
          (filter.targetId === undefined || e.target?.id === filter.targetId) &&
          (filter.since === undefined || e.occurredAt >= filter.since) &&
          (filter.until === undefined || e.occurredAt < filter.until),
      )
      .reverse();
    const start = filter.cursor === undefined ? 0 : Number(filter.cursor);
    const limit = filter.limit ?? 50;
    const events = matching.slice(start, start + limit);
    const next = start + limit;
    return { events, nextCursor: next < matching.length ? String(next) : null };
  }
}

import { type AuditFilter, type AuditPage } from '@vigil/control-plane';
import { type AuditTrail } from '../ports/audit-trail';

/** How many events a page of Settings → Audit log shows. */
export const AUDIT_EVENTS_PER_PAGE = 50;

/**
 * A page of the audit log, newest first, narrowed by time, actor, action (or a prefix such as
 * `user.`) and target. A filter the log refuses is an AuditError naming the field.
 */
export class ListAuditEvents {
  constructor(private readonly trail: AuditTrail) {}

  execute(filter: Omit<AuditFilter, 'limit'>): Promise<AuditPage> {
    return this.trail.list({ ...filter, limit: AUDIT_EVENTS_PER_PAGE });
  }
}

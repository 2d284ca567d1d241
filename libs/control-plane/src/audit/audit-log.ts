import { type AuditEvent, type NewAuditEvent } from './audit-event';

export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 500;

/** Which events to list; every field narrows the result. */
export interface AuditFilter {
  /** Events at or after this instant. */
  readonly since?: Date;
  /** Events before this instant. */
  readonly until?: Date;
  /** The actor's label (an email, an OS user, a token name) or id, exactly. */
  readonly actor?: string;
  /** An action (`user.disabled`) or a prefix ending in a dot (`user.`). */
  readonly action?: string;
  readonly targetType?: string;
  readonly targetId?: string;
  /** 1 to AUDIT_PAGE_MAX, default AUDIT_PAGE_DEFAULT. */
  readonly limit?: number;
  /** The `nextCursor` of the previous page. */
  readonly cursor?: string;
}

export interface AuditPage {
  /** Newest first. */
  readonly events: AuditEvent[];
  /** Null on the last page. */
  readonly nextCursor: string | null;
}

/** Where audit events go: appended, listed, and purged after the retention period only. */
export interface AuditLog {
  append(event: NewAuditEvent): Promise<void>;
  list(filter: AuditFilter): Promise<AuditPage>;
  /** Removes events older than `retentionDays`; returns how many. */
  purge(retentionDays: number): Promise<number>;
}

import { type AuditFilter, type AuditPage, type NewAuditEvent } from '@vigil/control-plane';

/**
 * The audit log as the workspace uses it (SqlAuditLog): an event appended after a change whose
 * store cannot take it into its own transaction, and the pages of Settings → Audit log. A
 * refused filter is an AuditError naming the field.
 */
export interface AuditTrail {
  append(event: NewAuditEvent): Promise<void>;
  list(filter: AuditFilter): Promise<AuditPage>;
}

/** Injection token: AUDIT_RETENTION_DAYS, as the audit log page says it. */
export const AUDIT_RETENTION_DAYS = Symbol('AUDIT_RETENTION_DAYS');

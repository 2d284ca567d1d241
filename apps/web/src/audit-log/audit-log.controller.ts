import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { AuditError } from '@vigil/control-plane';
import { ListAuditEvents } from '@vigil/workspace';
import { page, type WebResult } from '../responses/web-result';
import { AdminActionGuard } from '../security/admin-action.guard';
import { SignedInSession, type Viewer } from '../security/signed-in-session.decorator';
import { AUDIT_RETENTION_DAYS } from './audit-retention';
import { type AuditFilterErrors, readAuditFilter } from './audit-filter-form';
import { auditLogPage } from './audit-log-page';

/** The form's field of each filter the log refuses. */
const FIELD_OF: Readonly<Record<string, keyof AuditFilterErrors>> = {
  action: 'action',
  cursor: 'cursor',
  limit: 'cursor',
};

/** Settings → Audit log: read-only, for workspace admins; the log cannot be changed here. */
@Controller('settings/audit-log')
@UseGuards(new AdminActionGuard('read the audit log'))
export class AuditLogController {
  constructor(
    @Inject(ListAuditEvents) private readonly listEvents: ListAuditEvents,
    @Inject(AUDIT_RETENTION_DAYS) private readonly retentionDays: number,
  ) {}

  @Get()
  async list(
    @SignedInSession() viewer: Viewer,
    @Query() query: Record<string, unknown>,
  ): Promise<WebResult> {
    const { values, filter, errors } = readAuditFilter(query);
    const model = { values, errors, retentionDays: this.retentionDays };
    if (filter === undefined) return page(auditLogPage(viewer, model), 400);
    try {
      return page(auditLogPage(viewer, { ...model, page: await this.listEvents.execute(filter) }));
    } catch (error) {
      if (!(error instanceof AuditError)) throw error;
      const field = FIELD_OF[error.field] ?? 'action';
      const message =
        field === 'cursor'
          ? 'This page link is not valid: start again from the newest events.'
          : `${error.message}.`;
      return page(auditLogPage(viewer, { ...model, errors: { [field]: message } }), 400);
    }
  }
}

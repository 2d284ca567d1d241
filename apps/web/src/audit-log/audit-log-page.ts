import { AUDIT_ACTIONS, type AuditEvent, type AuditPage } from '@vigil/control-plane';
import { flag, html, type SafeHtml } from '@vigil/http';
import { detectionPath } from '../detections/detection-format';
import { providerPath } from '../integrations/integrations-list-page';
import { memberPath } from '../members/member-paths';
import { type Viewer } from '../security/signed-in-session.decorator';
import { dataTable } from '../views/data-table';
import { errorSummary, type ErrorSummaryItem } from '../views/error-summary';
import { formField, textField } from '../views/form-field';
import { appPage, pageHeader } from '../views/layout';
import { pager } from '../views/pager';
import { tableDate } from '../views/table-date';
import {
  AUDIT_ACTION_KINDS,
  AUDIT_TARGET_TYPES,
  auditActionLabel,
  auditTargetLabel,
} from './audit-action-labels';
import { auditDetailsLines } from './audit-details';
import { auditQuery, type AuditFilterErrors, type AuditFilterValues } from './audit-filter-form';

export const AUDIT_LOG_PATH = '/settings/audit-log';

const ACTOR_TYPES: Readonly<Record<string, string>> = {
  user: 'User',
  operator: 'Operator (command line)',
  system: 'Vigil',
  token: 'API key',
};

function targetHref(type: string, id: string): string | undefined {
  if (type === 'user') return memberPath({ id });
  if (type === 'webhook_provider') return providerPath({ id });
  if (type === 'detection') return detectionPath(id);
  return undefined;
}

function targetCell(event: AuditEvent): SafeHtml {
  if (event.target === null) return html`<span class="muted">None</span>`;
  const { type, id } = event.target;
  const href = targetHref(type, id);
  return html`${auditTargetLabel(type)}<span class="cell-sub mono"
      >${href ? html`<a href="${href}">${id}</a>` : id}</span
    >`;
}

function eventRow(event: AuditEvent): SafeHtml {
  const lines = auditDetailsLines(event.details);
  return html`<tr data-audit-id="${event.id}">
    <td class="cell-date">${tableDate(event.occurredAt)}</td>
    <td class="cell-actor">
      ${event.actor.label}<span class="cell-sub"
        >${ACTOR_TYPES[event.actor.type] ?? event.actor.type}</span
      >
      <span class="cell-sub"
        >${event.address ?? 'no address'} ·
        <span class="mono" title="Request id">${event.requestId ?? 'no request id'}</span></span
      >
    </td>
    <td class="cell-action">
      ${auditActionLabel(event.action)}<span class="cell-sub mono">${event.action}</span>
    </td>
    <td class="cell-target">${targetCell(event)}</td>
    <td class="cell-details">
      ${
        lines.length === 0
          ? html`<span class="muted">None</span>`
          : html`<ul class="audit-details">
              ${lines.map((line) => html`<li>${line}</li>`)}
            </ul>`
      }
    </td>
  </tr>`;
}

function select(id: string, name: string, options: SafeHtml, a11y: SafeHtml): SafeHtml {
  return html`<select id="${id}" name="${name}" ${a11y}>
    ${options}
  </select>`;
}

function option(value: string, label: string, selected: string): SafeHtml {
  return html`<option value="${value}" ${flag('selected', value === selected)}>${label}</option>`;
}

function filterForm(values: AuditFilterValues, errors: AuditFilterErrors): SafeHtml {
  const items: ErrorSummaryItem[] = Object.entries(errors).map(([field, message]) => ({
    href: `#${field === 'cursor' ? 'since' : field}`,
    message,
  }));
  const filtered = Object.entries(values).some(([field, value]) => field !== 'cursor' && value);
  return html`${errorSummary('The audit log was not filtered', items, 'Fix the following:')}
    <form class="audit-filter" method="get" action="${AUDIT_LOG_PATH}" role="search" novalidate>
      <div class="audit-filter-fields">
        ${formField(
          { id: 'since', label: 'From', error: errors.since },
          (a11y) =>
            html`<input type="date" id="since" name="since" value="${values.since}" ${a11y} />`,
        )}
        ${formField(
          { id: 'until', label: 'Until', error: errors.until },
          (a11y) =>
            html`<input type="date" id="until" name="until" value="${values.until}" ${a11y} />`,
        )}
        ${textField({
          id: 'actor',
          name: 'actor',
          label: 'Actor',
          hint: 'An email, an operator or an API key name, exactly.',
          error: errors.actor,
          value: values.actor,
          spellcheck: false,
        })}
        ${formField({ id: 'action', label: 'Action', error: errors.action }, (a11y) =>
          select(
            'action',
            'action',
            html`${option('', 'Every action', values.action)}
              <optgroup label="Kinds of action">
                ${AUDIT_ACTION_KINDS.map((k) => option(k.prefix, k.label, values.action))}
              </optgroup>
              <optgroup label="One action">
                ${AUDIT_ACTIONS.map((a) => option(a, `${auditActionLabel(a)} (${a})`, values.action))}
              </optgroup>`,
            a11y,
          ),
        )}
        ${formField({ id: 'targetType', label: 'Target', error: errors.targetType }, (a11y) =>
          select(
            'targetType',
            'target_type',
            html`${option('', 'Any target', values.targetType)}
            ${AUDIT_TARGET_TYPES.map((t) => option(t.key, t.label, values.targetType))}`,
            a11y,
          ),
        )}
        ${textField({
          id: 'targetId',
          name: 'target_id',
          label: 'Target id',
          error: errors.targetId,
          value: values.targetId,
          spellcheck: false,
        })}
      </div>
      <div class="button-group">
        <button class="button button-primary" type="submit">Apply filters</button>
        ${filtered && html`<a class="button" href="${AUDIT_LOG_PATH}">Clear filters</a>`}
      </div>
    </form>`;
}

/**
 * Settings → Audit log: the security-relevant actions, newest first, with who did them, from
 * where, under which request id, on what, and what changed. Filters and pages by query.
 */
export function auditLogPage(
  viewer: Viewer,
  model: {
    readonly values: AuditFilterValues;
    readonly errors: AuditFilterErrors;
    readonly page?: AuditPage;
    readonly retentionDays: number;
  },
): SafeHtml {
  const { values, errors, page } = model;
  const events = page?.events ?? [];
  const refused = Object.keys(errors).length > 0;
  return appPage(
    viewer,
    { title: refused ? 'Error: Audit log' : 'Audit log', path: AUDIT_LOG_PATH },
    html`${pageHeader({
        breadcrumb: [{ label: 'Settings' }],
        title: 'Audit log',
        description: `Security-relevant actions: who did what, when, from which address and on what. Events are kept for ${model.retentionDays} days (AUDIT_RETENTION_DAYS), then purged; nobody can change or delete them through Vigil.`,
      })}
      <section class="card" aria-labelledby="filter-heading">
        <div class="card-header"><h2 id="filter-heading">Filter</h2></div>
        <div class="card-body">${filterForm(values, errors)}</div>
      </section>
      <section class="card" aria-labelledby="events-heading">
        <div class="card-header">
          <h2 id="events-heading">Events</h2>
          <p>Newest first. Times are UTC; the reference is the request id in Vigil’s logs.</p>
        </div>
        ${
          events.length === 0
            ? html`<div class="empty">
                <h2>${refused ? 'No events shown' : 'No events'}</h2>
                <p>
                  ${
                    refused
                      ? 'Fix the filter above to see events.'
                      : values.cursor
                        ? 'This page is past the end of the log.'
                        : 'No event matches these filters.'
                  }
                </p>
              </div>`
            : dataTable({
                caption: 'Audit events: time, actor, action, target and details, newest first',
                className: 'audit-events',
                columns: [
                  { label: 'Time' },
                  { label: 'Actor' },
                  { label: 'Action' },
                  { label: 'Target' },
                  { label: 'Details' },
                ],
                rows: events.map(eventRow),
              })
        }
        ${pager('Audit log pages', [
          values.cursor !== '' && {
            label: 'Newest events',
            href: `${AUDIT_LOG_PATH}${auditQuery({ ...values, cursor: '' })}`,
          },
          page?.nextCursor != null && {
            label: 'Older events',
            href: `${AUDIT_LOG_PATH}${auditQuery({ ...values, cursor: page.nextCursor })}`,
            next: true,
          },
        ])}
      </section>`,
  );
}

import { type DeliveryAttempt, type DeliveryView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { DETECTION_DELIVERIES_SHOWN, type DetectionDeliveryRow } from '@vigil/workspace';
import { deliveryStatusBadge } from '../deliveries/delivery-status-badge';
import { skippedBecause } from '../deliveries/skipped-because';
import { resendDeliveryForm } from '../deliveries/resend-delivery-form';
import { dataTable } from '../views/data-table';
import { cardNotice } from '../views/notice';
import { tableDate } from '../views/table-date';
import { detectionPath, formatCount } from './detection-format';

export interface DetectionDeliveriesModel {
  readonly detectionId: string;
  /** Newest first. */
  readonly items: readonly DetectionDeliveryRow[];
  /** Whether the viewer may resend dead deliveries (workspace admins). */
  readonly canResend: boolean;
  readonly csrfToken: string;
  /** When the page is rendered (epoch ms): a pending delivery due before then is due now. */
  readonly now: number;
  readonly notice?: string;
}

function statusCell(delivery: DeliveryView, now: number): SafeHtml {
  const next = delivery.status === 'pending' ? delivery.nextAttemptAt : null;
  return html`${deliveryStatusBadge(delivery.status)}${
    next !== null &&
    html`<span class="cell-sub"
      >${next.getTime() <= now ? 'Due now' : html`Next attempt ${tableDate(next)}`}</span
    >`
  }${skippedBecause(delivery)}`;
}

function targetCell(row: DetectionDeliveryRow): SafeHtml {
  const { delivery, targetName } = row;
  if (delivery.channel === 'email') {
    return html`Email<span class="cell-sub">${delivery.target}</span>`;
  }
  return html`Webhook<span class="cell-sub"
      >${targetName ?? html`Deleted provider <span class="mono">${delivery.target}</span>`}</span
    >`;
}

function lastAttemptCell(attempt: DeliveryAttempt | null): SafeHtml {
  if (attempt === null) return html`<span class="muted">No attempt yet</span>`;
  const outcome =
    attempt.statusCode !== null
      ? `HTTP ${attempt.statusCode}`
      : attempt.error === null
        ? 'Sent'
        : 'No HTTP status';
  return html`${tableDate(attempt.attemptedAt)}<span class="cell-sub">${outcome}</span>${
      attempt.error && html`<span class="cell-sub attempt-error">${attempt.error}</span>`
    }`;
}

function deliveryRow(row: DetectionDeliveryRow, model: DetectionDeliveriesModel): SafeHtml {
  const { delivery } = row;
  return html`<tr data-delivery-id="${delivery.id}">
    <td class="cell-date">${statusCell(delivery, model.now)}</td>
    <td class="cell-name">${targetCell(row)}</td>
    <td class="num">${formatCount(delivery.attemptCount)}</td>
    <td class="cell-date">${lastAttemptCell(row.lastAttempt)}</td>
    <td class="cell-actions">
      ${
        model.canResend &&
        delivery.status === 'dead' &&
        resendDeliveryForm(detectionPath(model.detectionId), delivery.id, model.csrfToken)
      }
    </td>
  </tr>`;
}

/** The notifications sent about a detection, with how each went; dead ones can be resent. */
export function detectionDeliveriesSection(model: DetectionDeliveriesModel): SafeHtml {
  return html`<section class="card" id="deliveries" aria-labelledby="deliveries-heading">
    <div class="card-header">
      <h2 id="deliveries-heading">Recent deliveries</h2>
      <p>
        Notifications about this detection, newest first (the ${DETECTION_DELIVERIES_SHOWN} most
        recent). Failed deliveries are retried; a Dead one used up its
        retries${model.canResend ? ' and can be resent' : ''}.
      </p>
    </div>
    ${cardNotice(model.notice)}
    ${
      model.items.length === 0
        ? html`<div class="empty">
            <h2>No deliveries yet</h2>
            <p>Webhooks and emails sent about this detection will be listed here.</p>
          </div>`
        : dataTable({
            caption: 'Recent deliveries: status, where it went, attempts and the last attempt',
            className: 'deliveries',
            columns: [
              { label: 'Status' },
              { label: 'Sent to' },
              { label: 'Attempts', numeric: true },
              { label: 'Last attempt' },
              { label: 'Actions', hidden: true },
            ],
            rows: model.items.map((row) => deliveryRow(row, model)),
          })
    }
  </section>`;
}

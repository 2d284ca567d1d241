import { type DeliveryStatus } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';

const DELIVERY_STATUS_LABELS: Readonly<Record<DeliveryStatus, string>> = {
  pending: 'Pending',
  delivering: 'Sending',
  delivered: 'Delivered',
  dead: 'Dead',
  skipped: 'Skipped',
};

export function deliveryStatusBadge(status: DeliveryStatus): SafeHtml {
  return html`<span class="badge badge-${status}">${DELIVERY_STATUS_LABELS[status]}</span>`;
}

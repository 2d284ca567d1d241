import { type DeliveryView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';

/**
 * Why a skipped delivery was not sent, shown under its badge: its provider's filter (the
 * filter's reason), or its provider being disabled at the time.
 */
export function skippedBecause(delivery: DeliveryView): SafeHtml | false {
  if (delivery.status !== 'skipped') return false;
  if (delivery.skipCause === 'disabled') {
    return html`<span class="cell-sub">Skipped while the provider was disabled</span>`;
  }
  return delivery.lastError !== null && html`<span class="cell-sub">${delivery.lastError}</span>`;
}

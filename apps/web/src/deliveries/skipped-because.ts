import { type DeliveryView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';

/** Why a skipped delivery was not sent (its provider's filter), shown under its badge. */
export function skippedBecause(delivery: DeliveryView): SafeHtml | false {
  return (
    delivery.status === 'skipped' &&
    delivery.lastError !== null &&
    html`<span class="cell-sub">${delivery.lastError}</span>`
  );
}

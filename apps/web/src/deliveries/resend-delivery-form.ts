import { html, type SafeHtml } from '@vigil/http';
import { csrfField } from '../views/csrf-field';

/** The Resend button of a dead delivery; `ownerPath` is the page of its detection or provider. */
export function resendDeliveryForm(
  ownerPath: string,
  deliveryId: string,
  csrfToken: string,
): SafeHtml {
  return html`<form method="post" action="${ownerPath}/deliveries/${deliveryId}/resend">
    ${csrfField(csrfToken)}
    <button class="button button-small" type="submit" aria-label="Resend delivery ${deliveryId}">
      Resend
    </button>
  </form>`;
}

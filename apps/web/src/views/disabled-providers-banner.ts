import { type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { formatDate } from './format-date';
import { icons } from './icons';

// Paths of Settings → Integrations, spelled here: views import nothing from the pages.
const INTEGRATIONS_PATH = '/settings/integrations';

/**
 * On every admin page while a provider is disabled: its notifications are being recorded as
 * skipped, which nobody would notice otherwise. A status, not an alert: it is there on every
 * page and must not interrupt each time.
 */
export function disabledProvidersBanner(disabled: readonly WebhookProviderView[]): SafeHtml {
  if (disabled.length === 0) return html``;
  const [first] = disabled;
  const text =
    disabled.length === 1 && first.disabled !== undefined
      ? html`<p>
          <strong>${first.name}</strong> was disabled at ${formatDate(first.disabled.at)}:
          ${first.disabled.reason.replace(/\.$/, '')}. Its notifications are recorded as skipped.
          <a href="${INTEGRATIONS_PATH}/${first.id}" aria-label="Review ${first.name}">Review</a>
        </p>`
      : html`<p>
          <strong>${disabled.length} providers are disabled</strong>: their notifications are
          recorded as skipped.
          <a href="${INTEGRATIONS_PATH}" aria-label="Review the disabled providers">Review</a>
        </p>`;
  return html`<div class="alert alert-error disabled-banner" role="status" id="disabled-providers">
    ${icons.warning}
    <div>${text}</div>
  </div>`;
}

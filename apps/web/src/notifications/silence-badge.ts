import { html, type SafeHtml } from '@vigil/http';
import { type SilenceStatus } from './silence-status';

/** Whether notifications are on, snoozed or disabled, as a badge. */
export function silenceBadge(silence: SilenceStatus): SafeHtml {
  switch (silence.kind) {
    case 'on':
      return html`<span class="badge badge-active">Notifications on</span>`;
    case 'disabled':
      return html`<span class="badge badge-dead">Disabled</span>`;
    case 'snoozed':
      return html`<span class="badge badge-pending">Snoozed</span>`;
  }
}

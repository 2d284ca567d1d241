import { type UserStatus } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';

const LABELS: Readonly<Record<UserStatus, string>> = {
  active: 'Active',
  disabled: 'Disabled',
  invited: 'Invited',
};

/** Active, Disabled, or Invited (no password chosen yet). */
export function memberStatusBadge(status: UserStatus): SafeHtml {
  return html`<span class="badge badge-member-${status}">${LABELS[status]}</span>`;
}

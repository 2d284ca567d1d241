import { type ApiTokenView } from '@vigil/control-plane';
import { html } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { confirmCard } from '../views/confirm-card';
import { formatDate } from '../views/format-date';
import { appPage, pageHeader } from '../views/layout';
import { apiKeyStateBadge } from './api-key-state-badge';
import { API_KEYS_PATH } from './api-key-list-page';
import { API_KEYS_BREADCRUMB } from './create-api-key-page';
import { grantedSummary } from './granted-summary';

/** The question before deleting a key: what it breaks, and which key it is. */
export function deleteApiKeyPage(viewer: Viewer, token: ApiTokenView) {
  return appPage(
    viewer,
    { title: `Delete ${token.name}`, path: API_KEYS_PATH },
    html`${pageHeader({ breadcrumb: API_KEYS_BREADCRUMB, title: 'Delete API key' })}
    ${confirmCard({
      question: `Delete “${token.name}”?`,
      warning:
        'Scripts and integrations using this key stop working at once: their next request is rejected. This cannot be undone.',
      severity: 'error',
      details: html`<dt>Key</dt>
        <dd><span class="mono">…${token.lastFour}</span></dd>
        <dt>State</dt>
        <dd>${apiKeyStateBadge(token)}</dd>
        <dt>Permissions</dt>
        <dd>${grantedSummary(token.permissions)}</dd>
        <dt>Created</dt>
        <dd>${formatDate(token.createdAt)}</dd>
        <dt>Last Used</dt>
        <dd>${token.lastUsedAt === null ? 'Never' : formatDate(token.lastUsedAt)}</dd>
        <dt>Expires At</dt>
        <dd>${formatDate(token.expiresAt)}</dd>`,
      action: `${API_KEYS_PATH}/${token.id}/delete`,
      csrfToken: viewer.csrfToken,
      button: 'Delete Token',
      cancelHref: API_KEYS_PATH,
    })}`,
  );
}

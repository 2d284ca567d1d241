import { type ApiTokenView } from '@vigil/control-plane';
import { html } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { accessPage } from '../views/access-page';
import { formatDate } from '../views/format-date';
import { appPage, pageHeader } from '../views/layout';
import { secretShownOnce } from '../views/secret-shown-once';
import { warningStatus } from '../views/warning-status';
import { API_KEYS_PATH } from './api-key-list-page';
import { API_KEYS_BREADCRUMB } from './create-api-key-page';
import { grantedSummary } from './granted-summary';

/** Where the history entry of the created page points after the value was shown. */
export const API_KEY_CREATED_PATH = `${API_KEYS_PATH}/created`;

/** The key's value, this once, right after it was generated. */
export function apiKeyCreatedPage(viewer: Viewer, token: ApiTokenView, value: string) {
  return appPage(
    viewer,
    {
      title: 'API key created',
      path: API_KEYS_PATH,
      head: html`<meta name="vigil-replace-url" content="${API_KEY_CREATED_PATH}" />`,
    },
    html`${pageHeader({ breadcrumb: API_KEYS_BREADCRUMB, title: 'API key created' })}
    ${warningStatus(
      'Copy the key now',
      'This is the only time it is shown. It cannot be retrieved later; if it is lost, delete it and create a new one.',
    )}
    ${secretShownOnce({
      owner: token.name,
      id: 'token-value',
      label: 'Key value',
      value,
      details: html`<dt>Permissions</dt>
        <dd>${grantedSummary(token.permissions)}</dd>
        <dt>Expires At</dt>
        <dd>
          <time datetime="${token.expiresAt.toISOString()}">${formatDate(token.expiresAt)}</time>
        </dd>
        <dt>Use it as</dt>
        <dd><span class="mono">Authorization: Bearer &lt;key&gt;</span></dd>`,
      doneHref: API_KEYS_PATH,
    })}`,
  );
}

/** The created page once its value has been shown: it is not shown again. */
export function apiKeyCreatedGonePage(viewer: Viewer) {
  return accessPage(
    viewer,
    { title: 'API key created', path: API_KEYS_PATH },
    html`${warningStatus(
        'The key value is no longer shown',
        'A key value is shown only once, right after it is generated. If it was not copied, delete the key and create a new one.',
      )}
      <p><a class="button" href="${API_KEYS_PATH}">Back to API Keys</a></p>`,
  );
}

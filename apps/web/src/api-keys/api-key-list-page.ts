import { type ApiTokenView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { accessPage } from '../views/access-page';
import { dataTable } from '../views/data-table';
import { icons } from '../views/icons';
import { notice } from '../views/notice';
import { tableDate } from '../views/table-date';
import { apiKeyStateBadge } from './api-key-state-badge';
import { grantedSummary } from './granted-summary';

export const API_KEYS_PATH = '/settings/access/api-keys';

function tokenRow(token: ApiTokenView): SafeHtml {
  return html`<tr data-token-id="${token.id}">
    <td class="cell-name">
      ${token.name}<span class="cell-sub"
        ><span class="mono">…${token.lastFour}</span> · ${grantedSummary(token.permissions)}</span
      >
    </td>
    <td>${apiKeyStateBadge(token)}</td>
    <td class="cell-date">${tableDate(token.createdAt)}</td>
    <td class="cell-date">${tableDate(token.lastUsedAt)}</td>
    <td class="cell-date">${tableDate(token.expiresAt)}</td>
    <td class="cell-actions">
      <a
        class="button button-subtle-danger button-small"
        href="${API_KEYS_PATH}/${token.id}/delete"
        aria-label="Delete token ${token.name}"
        >Delete Token</a
      >
    </td>
  </tr>`;
}

/** Settings → Access → API Keys: every token that is not deleted (SPEC.md §5). */
export function apiKeyListPage(viewer: Viewer, tokens: readonly ApiTokenView[], message?: string) {
  const create = html`<a class="button button-primary" href="${API_KEYS_PATH}/new"
    >${icons.plus}Create API key</a
  >`;
  return accessPage(
    viewer,
    { title: 'API Keys', path: API_KEYS_PATH },
    html`${notice(message)}
      <section class="card" aria-labelledby="keys-heading">
        <div class="card-header split">
          <div>
            <h2 id="keys-heading">API Keys</h2>
            <p>
              Tokens that scripts and integrations send as
              <span class="mono">Authorization: Bearer</span> to the query API. A value is shown
              once, when the key is created.
            </p>
          </div>
          ${tokens.length > 0 && create}
        </div>
        ${
          tokens.length === 0
            ? html`<div class="empty">
                <h2>No API keys yet</h2>
                <p>
                  Create a key to let a script or an automation platform read detections, events and
                  investigations.
                </p>
                ${create}
              </div>`
            : dataTable({
                caption: 'API keys: name, state, dates and actions',
                columns: [
                  { label: 'Name' },
                  { label: 'State' },
                  { label: 'Created' },
                  { label: 'Last Used' },
                  { label: 'Expires At' },
                  { label: 'Actions', hidden: true },
                ],
                rows: tokens.map(tokenRow),
              })
        }
      </section>`,
  );
}

import {
  PERMISSION_LEVELS,
  SCOPES,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_STATE_LABELS,
  describePermissions,
  scopeLabel,
  levelLabel,
  type ActiveSession,
  type ApiTokenView,
  type PermissionLevel,
  type Permissions,
  type Scope,
} from '@vigil/control-plane';
import { confirmCard } from '../views/confirm-card';
import { formatDate } from '../views/format-date';
import { csrfField, describedBy, errorSummary, fieldError } from '../views/form-parts';
import { flag, html, type SafeHtml } from '@vigil/http';
import { icons } from '../views/icons';
import { appPage, pageHeader, tabs } from '../views/layout';
import { secretShownOnce } from '../views/secret-shown-once';
import { tableDate } from '../views/table-date';
import { warningStatus } from '../views/warning-status';
import { accessTabsFor } from '../views/navigation';
import {
  EXPIRY_CHOICES,
  SCOPE_FIELD_PREFIX,
  grantedCount,
  type ApiKeyFormErrors,
  type ApiKeyFormValues,
} from './api-key-form';

export const API_KEYS_PATH = '/settings/access/api-keys';
const BREADCRUMB = [{ label: 'Settings' }, { label: 'Access', href: '/settings/access' }];

function stateBadge(token: ApiTokenView): SafeHtml {
  return html`<span class="badge badge-${token.state}">${TOKEN_STATE_LABELS[token.state]}</span>`;
}

function grantedSummary(permissions: Permissions): string {
  const granted = describePermissions(permissions);
  if (granted.length === 0) return 'No scopes';
  if (granted.length === SCOPES.length) {
    const levels = new Set(Object.values(permissions));
    if (levels.size === 1) return `All scopes: ${levelLabel([...levels][0])}`;
  }
  return granted
    .map((g) => {
      const [scope, level] = g.split(':') as [Scope, PermissionLevel];
      return `${scopeLabel(scope)} (${levelLabel(level)})`;
    })
    .join(', ');
}

function accessPage(session: ActiveSession, csrfToken: string, title: string, body: SafeHtml) {
  return appPage(
    session,
    { title, csrfToken, path: API_KEYS_PATH },
    html`${pageHeader({
      breadcrumb: [{ label: 'Settings' }, { label: 'Access' }],
      title: 'Access',
      description: 'Who can use this workspace, and how scripts reach the query API.',
    })}
    ${tabs(accessTabsFor(session.user), API_KEYS_PATH, 'Access')} ${body}`,
  );
}

export function apiKeyListPage(
  session: ActiveSession,
  csrfToken: string,
  tokens: readonly ApiTokenView[],
  notice?: string,
) {
  const create = html`<a class="button button-primary" href="${API_KEYS_PATH}/new"
    >${icons.plus}Create API key</a
  >`;
  return accessPage(
    session,
    csrfToken,
    'API Keys',
    html`${
        notice &&
        html`<div class="alert alert-success" role="status">
          ${icons.check}
          <div>${notice}</div>
        </div>`
      }
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
            : html`<div class="table-wrap">
                <table>
                  <caption class="visually-hidden">
                    API keys: name, state, dates and actions
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">State</th>
                      <th scope="col">Created</th>
                      <th scope="col">Last Used</th>
                      <th scope="col">Expires At</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${tokens.map(
                      (token) =>
                        html`<tr data-token-id="${token.id}">
                          <td class="cell-name">
                            ${token.name}<span class="cell-sub"
                              ><span class="mono">…${token.lastFour}</span> ·
                              ${grantedSummary(token.permissions)}</span
                            >
                          </td>
                          <td>${stateBadge(token)}</td>
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
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
        }
      </section>`,
  );
}

function apiKeyErrorSummary(errors: ApiKeyFormErrors | undefined): SafeHtml {
  if (errors === undefined) return html``;
  const items: { href?: string; message: string }[] = [];
  if (errors.name) items.push({ href: '#name', message: errors.name });
  if (errors.permissions) items.push({ href: '#scope-admin', message: errors.permissions });
  for (const scope of SCOPES) {
    const message = errors.scopes[scope.key];
    if (message) items.push({ href: `#scope-${scope.key}`, message: `${scope.label}: ${message}` });
  }
  if (errors.expiresInDays) items.push({ href: '#expires', message: errors.expiresInDays });
  for (const other of errors.other) items.push({ message: other });
  return errorSummary('The key was not created', items, 'Fix the following and generate it again:');
}

export function createApiKeyPage(
  session: ActiveSession,
  csrfToken: string,
  values: ApiKeyFormValues,
  errors?: ApiKeyFormErrors,
) {
  const granted = grantedCount(values);
  const nameInvalid = errors?.name !== undefined;
  const expiryInvalid = errors?.expiresInDays !== undefined;
  const permissionsInvalid = errors?.permissions !== undefined;
  return appPage(
    session,
    { title: errors ? 'Error: Create API key' : 'Create API key', csrfToken, path: API_KEYS_PATH },
    html`${pageHeader({
      breadcrumb: [...BREADCRUMB, { label: 'API Keys', href: API_KEYS_PATH }],
      title: 'Create API key',
      description:
        'Name the key, choose what it may access, and generate it. You will see the value once.',
    })}
    ${apiKeyErrorSummary(errors)}
    <form method="post" action="${API_KEYS_PATH}" novalidate data-permissions-form>
      ${csrfField(csrfToken)}
      <section class="card" aria-labelledby="details-heading">
        <div class="card-header"><h2 id="details-heading">Details</h2></div>
        <div class="card-body">
          <div class="field">
            <label for="name">Name</label>
            <p class="hint" id="name-hint">Shown in the key list, for example the script or integration that uses it. It cannot be changed later.</p>
            ${fieldError('name-error', errors?.name)}
            <input type="text" id="name" name="name" value="${values.name}" maxlength="${TOKEN_NAME_MAX_LENGTH}" required autocomplete="off"${flag('autofocus', errors === undefined)}${nameInvalid ? html` aria-invalid="true"` : ''}${describedBy('name-hint', nameInvalid && 'name-error')}>
          </div>
          <div class="field">
            <label for="expires">Expiration</label>
            <p class="hint" id="expires-hint">Requests made with the key are rejected after this. <span id="expires-preview"></span></p>
            ${fieldError('expires-error', errors?.expiresInDays)}
            <select id="expires" name="expires_in_days" data-expiry-preview="expires-preview"${expiryInvalid ? html` aria-invalid="true"` : ''}${describedBy('expires-hint', expiryInvalid && 'expires-error')}>
              ${EXPIRY_CHOICES.map(
                (c) =>
                  html`<option
                    value="${c.days}"
                    ${flag('selected', values.expiresInDays === String(c.days))}
                  >
                    ${c.label}
                  </option>`,
              )}
            </select>
          </div>
        </div>
      </section>
      <section class="card" aria-labelledby="permissions-heading">
        <div class="card-header">
          <h2 id="permissions-heading">Permissions</h2>
          <p id="permissions-hint">Choose a level for each scope. At least one scope must be above None.</p>
          ${fieldError('permissions-error', errors?.permissions)}
        </div>
        <div class="presets" role="group" aria-labelledby="presets-label">
          <span class="label" id="presets-label">Set every scope to</span>
          ${PERMISSION_LEVELS.map(
            (level) =>
              html`<button
                class="button button-small"
                type="submit"
                name="preset"
                value="${level.key}"
                formnovalidate
                data-preset="${level.key}"
              >
                ${level.label}
              </button>`,
          )}
          <span class="permission-summary" id="permission-summary" aria-live="polite">${granted === 0 ? 'No scope granted yet.' : `${granted} of ${SCOPES.length} scopes granted.`}</span>
        </div>
        <fieldset${describedBy('permissions-hint', permissionsInvalid && 'permissions-error')}>
          <legend class="visually-hidden">Level for each scope</legend>
          <div class="table-wrap"><table class="scope-table">
            <thead><tr><th scope="col">Scope</th><th scope="col">Level</th></tr></thead>
            <tbody>
              ${SCOPES.map((scope) => {
                const scopeError = errors?.scopes[scope.key];
                const invalid = scopeError !== undefined || permissionsInvalid;
                return html`<tr${values.levels[scope.key] !== 'none' ? html` class="is-granted"` : ''}>
                  <td><label class="scope-name" for="scope-${scope.key}">${scope.label}</label>
                    <span class="scope-desc" id="scope-${scope.key}-desc">${scope.description}</span>
                    ${fieldError(`scope-${scope.key}-error`, scopeError)}</td>
                  <td class="scope-level">
                    <select id="scope-${scope.key}" name="${SCOPE_FIELD_PREFIX}${scope.key}" data-scope="${scope.key}"${invalid ? html` aria-invalid="true"` : ''}${describedBy(`scope-${scope.key}-desc`, scopeError !== undefined && `scope-${scope.key}-error`, permissionsInvalid && 'permissions-error')}>
                      ${PERMISSION_LEVELS.map(
                        (level) =>
                          html`<option
                            value="${level.key}"
                            ${flag('selected', values.levels[scope.key] === level.key)}
                          >
                            ${level.label}
                          </option>`,
                      )}
                    </select>
                  </td>
                </tr>`;
              })}
            </tbody>
          </table></div>
        </fieldset>
        <div class="card-footer">
          <button class="button button-primary" type="submit" data-generate${flag('disabled', granted === 0)} aria-describedby="generate-hint">Generate Key</button>
          <a class="button" href="${API_KEYS_PATH}">Cancel</a>
          <p class="hint" id="generate-hint"${flag('hidden', granted > 0)}>Choose at least one scope above None to generate a key.</p>
        </div>
      </section>
    </form>`,
  );
}

export function apiKeyCreatedPage(
  session: ActiveSession,
  csrfToken: string,
  token: ApiTokenView,
  value: string,
) {
  return appPage(
    session,
    {
      title: 'API key created',
      csrfToken,
      path: API_KEYS_PATH,
      head: html`<meta name="vigil-replace-url" content="${API_KEYS_PATH}/created" />`,
    },
    html`${pageHeader({
      breadcrumb: [...BREADCRUMB, { label: 'API Keys', href: API_KEYS_PATH }],
      title: 'API key created',
    })}
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

/** Where the history entry of the created page points after the value was shown. */
export function apiKeyCreatedGonePage(session: ActiveSession, csrfToken: string) {
  return accessPage(
    session,
    csrfToken,
    'API key created',
    html`${warningStatus(
        'The key value is no longer shown',
        'A key value is shown only once, right after it is generated. If it was not copied, delete the key and create a new one.',
      )}
      <p><a class="button" href="${API_KEYS_PATH}">Back to API Keys</a></p>`,
  );
}

export function deleteApiKeyPage(session: ActiveSession, csrfToken: string, token: ApiTokenView) {
  return appPage(
    session,
    { title: `Delete ${token.name}`, csrfToken, path: API_KEYS_PATH },
    html`${pageHeader({
      breadcrumb: [...BREADCRUMB, { label: 'API Keys', href: API_KEYS_PATH }],
      title: 'Delete API key',
    })}
    ${confirmCard({
      question: `Delete “${token.name}”?`,
      warning:
        'Scripts and integrations using this key stop working at once: their next request is rejected. This cannot be undone.',
      severity: 'error',
      details: html`<dt>Key</dt>
        <dd><span class="mono">…${token.lastFour}</span></dd>
        <dt>State</dt>
        <dd>${stateBadge(token)}</dd>
        <dt>Permissions</dt>
        <dd>${grantedSummary(token.permissions)}</dd>
        <dt>Created</dt>
        <dd>${formatDate(token.createdAt)}</dd>
        <dt>Last Used</dt>
        <dd>${token.lastUsedAt === null ? 'Never' : formatDate(token.lastUsedAt)}</dd>
        <dt>Expires At</dt>
        <dd>${formatDate(token.expiresAt)}</dd>`,
      action: `${API_KEYS_PATH}/${token.id}/delete`,
      csrfToken,
      button: 'Delete Token',
      cancelHref: API_KEYS_PATH,
    })}`,
  );
}

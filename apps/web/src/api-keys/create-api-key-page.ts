import { PERMISSION_LEVELS, SCOPES, TOKEN_NAME_MAX_LENGTH } from '@vigil/control-plane';
import { flag, html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { dataTable } from '../views/data-table';
import { errorSummary, type ErrorSummaryItem } from '../views/error-summary';
import { describedBy, fieldError, formField, textField } from '../views/form-field';
import { appPage, pageHeader } from '../views/layout';
import {
  EXPIRY_CHOICES,
  SCOPE_FIELD_PREFIX,
  grantedCount,
  type ApiKeyFormErrors,
  type ApiKeyFormValues,
} from './api-key-form';
import { API_KEYS_PATH } from './api-key-list-page';

export const API_KEYS_BREADCRUMB = [
  { label: 'Settings' },
  { label: 'Access', href: '/settings/access' },
  { label: 'API Keys', href: API_KEYS_PATH },
];

function apiKeyErrorSummary(errors: ApiKeyFormErrors | undefined): SafeHtml {
  if (errors === undefined) return html``;
  const items: ErrorSummaryItem[] = [];
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

function detailsSection(values: ApiKeyFormValues, errors: ApiKeyFormErrors | undefined) {
  return html`<section class="card" aria-labelledby="details-heading">
    <div class="card-header"><h2 id="details-heading">Details</h2></div>
    <div class="card-body">
      ${textField({
        id: 'name',
        name: 'name',
        label: 'Name',
        hint: 'Shown in the key list, for example the script or integration that uses it. It cannot be changed later.',
        error: errors?.name,
        value: values.name,
        maxlength: TOKEN_NAME_MAX_LENGTH,
        required: true,
        autofocus: errors === undefined,
      })}
      ${formField(
        {
          id: 'expires',
          label: 'Expiration',
          hint: html`Requests made with the key are rejected after this.
            <span id="expires-preview"></span>`,
          error: errors?.expiresInDays,
        },
        (a11y) =>
          html`<select
            id="expires"
            name="expires_in_days"
            data-expiry-preview="expires-preview"
            ${a11y}
          >
            ${EXPIRY_CHOICES.map(
              (c) =>
                html`<option
                  value="${c.days}"
                  ${flag('selected', values.expiresInDays === String(c.days))}
                >
                  ${c.label}
                </option>`,
            )}
          </select>`,
      )}
    </div>
  </section>`;
}

function scopeRow(
  scope: (typeof SCOPES)[number],
  values: ApiKeyFormValues,
  errors: ApiKeyFormErrors | undefined,
): SafeHtml {
  const permissionsInvalid = errors?.permissions !== undefined;
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
}

function permissionsSection(values: ApiKeyFormValues, errors: ApiKeyFormErrors | undefined) {
  const granted = grantedCount(values);
  const permissionsInvalid = errors?.permissions !== undefined;
  return html`<section class="card" aria-labelledby="permissions-heading">
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
      ${dataTable({
        className: 'scope-table',
        columns: [{ label: 'Scope' }, { label: 'Level' }],
        rows: SCOPES.map((scope) => scopeRow(scope, values, errors)),
      })}
    </fieldset>
    <div class="card-footer">
      <button class="button button-primary" type="submit" data-generate${flag('disabled', granted === 0)} aria-describedby="generate-hint">Generate Key</button>
      <a class="button" href="${API_KEYS_PATH}">Cancel</a>
      <p class="hint" id="generate-hint"${flag('hidden', granted > 0)}>Choose at least one scope above None to generate a key.</p>
    </div>
  </section>`;
}

/** The create form: name, expiry and a level per scope, with presets (SPEC.md §5). */
export function createApiKeyPage(
  viewer: Viewer,
  values: ApiKeyFormValues,
  errors?: ApiKeyFormErrors,
) {
  return appPage(
    viewer,
    { title: errors ? 'Error: Create API key' : 'Create API key', path: API_KEYS_PATH },
    html`${pageHeader({
        breadcrumb: API_KEYS_BREADCRUMB,
        title: 'Create API key',
        description:
          'Name the key, choose what it may access, and generate it. You will see the value once.',
      })}
      ${apiKeyErrorSummary(errors)}
      <form method="post" action="${API_KEYS_PATH}" novalidate data-permissions-form>
        ${csrfField(viewer.csrfToken)} ${detailsSection(values, errors)}
        ${permissionsSection(values, errors)}
      </form>`,
  );
}

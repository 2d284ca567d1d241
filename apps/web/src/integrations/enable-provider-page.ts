import { type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { choice } from '../views/choice';
import { csrfField } from '../views/csrf-field';
import { errorSummary } from '../views/error-summary';
import { formField } from '../views/form-field';
import { formatDate } from '../views/format-date';
import { appPage, pageHeader } from '../views/layout';
import { type EnableProviderFormValues } from './enable-provider-form';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH, providerPath } from './integrations-list-page';

function sinceField(values: EnableProviderFormValues, error: string | undefined): SafeHtml {
  return formField(
    {
      id: 'since',
      label: 'Recover deliveries created since (UTC)',
      hint: 'Dead deliveries, and those skipped while it was disabled, created at or after this time are queued again in the order they were created, with their ids: the receiver sees the same webhook-id and can tell a repeat.',
      error,
    },
    (a11y) =>
      html`<input type="datetime-local" id="since" name="since" value="${values.since}" ${a11y} />`,
  );
}

/**
 * Enabling a disabled provider, with or without recovering its deliveries; for an enabled one,
 * recovering only. A refused time is shown on its field.
 */
export function enableProviderPage(
  viewer: Viewer,
  provider: WebhookProviderView,
  values: EnableProviderFormValues,
  error?: string,
): SafeHtml {
  const path = providerPath(provider);
  const off = provider.disabled;
  const disabled = off !== undefined;
  const title = disabled ? `Enable ${provider.name}` : `Recover deliveries of ${provider.name}`;
  const items = error === undefined ? [] : [{ href: '#since', message: error }];
  return appPage(
    viewer,
    { title: error === undefined ? title : `Error: ${title}`, path: INTEGRATIONS_PATH },
    html`${pageHeader({
        breadcrumb: [...INTEGRATIONS_BREADCRUMB, { label: provider.name, href: path }],
        title,
        description: disabled
          ? `Disabled at ${formatDate(off.at)}: ${off.reason}. Once enabled, notifications decided from now on are sent to it again.`
          : 'Queue again the deliveries that died, for an endpoint that is back. Nothing else changes.',
      })}
      ${errorSummary(disabled ? 'The provider was not enabled' : 'Nothing was recovered', items)}
      <form method="post" action="${path}/enable" novalidate>
        ${csrfField(viewer.csrfToken)}
        <section class="card" aria-labelledby="enable-heading">
          <div class="card-header">
            <h2 id="enable-heading">${disabled ? 'Enable' : 'Recover'}</h2>
          </div>
          <div class="card-body">
            ${
              disabled
                ? html`<fieldset class="field">
                      <legend class="label">What to do</legend>
                      <div class="choices">
                        ${choice({
                          type: 'radio',
                          id: 'recover-no',
                          name: 'recover',
                          value: 'no',
                          checked: !values.recover,
                          label: 'Enable only',
                          description:
                            'Nothing is sent again: dead deliveries can still be resent one by one, and those skipped while it was disabled stay skipped.',
                        })}
                        ${choice({
                          type: 'radio',
                          id: 'recover-yes',
                          name: 'recover',
                          value: 'yes',
                          checked: values.recover,
                          label: 'Enable and recover',
                          description:
                            'Also queue again the deliveries created since the time below.',
                        })}
                      </div>
                    </fieldset>
                    ${sinceField(values, error)}`
                : html`<input type="hidden" name="recover" value="yes" />
                    ${sinceField(values, error)}`
            }
          </div>
          <div class="card-footer">
            <button class="button button-primary" type="submit">
              ${disabled ? 'Enable provider' : 'Recover deliveries'}
            </button>
            <a class="button" href="${path}">Cancel</a>
          </div>
        </section>
      </form>`,
  );
}

import { type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { textField } from '../views/form-field';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH, providerPath } from './integrations-list-page';

/** The question before disabling a provider by hand, with the reason every admin will see. */
export function disableProviderPage(viewer: Viewer, provider: WebhookProviderView): SafeHtml {
  const path = providerPath(provider);
  const title = `Disable ${provider.name}`;
  return appPage(
    viewer,
    { title, path: INTEGRATIONS_PATH },
    html`${pageHeader({
        breadcrumb: [...INTEGRATIONS_BREADCRUMB, { label: provider.name, href: path }],
        title,
        description:
          'For an endpoint known to be down: Vigil stops sending to it instead of retrying into the void.',
      })}
      <form method="post" action="${path}/disable" novalidate>
        ${csrfField(viewer.csrfToken)}
        <section class="card" aria-labelledby="disable-heading">
          <div class="card-header">
            <h2 id="disable-heading">Disable “${provider.name}”?</h2>
          </div>
          <div class="card-body">
            <div class="alert alert-warning">
              ${icons.warning}
              <div>
                Its pending deliveries, and the notifications decided while it is disabled, are
                recorded as skipped. Enabling it later can queue them again.
              </div>
            </div>
            ${textField({
              id: 'reason',
              name: 'reason',
              label: 'Reason (optional)',
              hint: `Shown to every admin until it is enabled. Left blank: “Disabled by ${viewer.session.user.email}”.`,
              value: '',
              maxlength: 500,
              width: 'wide',
            })}
          </div>
          <div class="card-footer">
            <button class="button button-danger" type="submit">Disable provider</button>
            <a class="button" href="${path}">Cancel</a>
          </div>
        </section>
      </form>`,
  );
}

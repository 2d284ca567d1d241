import { type WebhookProviderView } from '@vigil/control-plane';
import { html } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { errorSummary } from '../views/error-summary';
import { appPage, pageHeader } from '../views/layout';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH, providerPath } from './integrations-list-page';
import {
  FILTER_FIELD_ANCHORS,
  filterFields,
  type FilterFormErrors,
  type FilterFormValues,
} from './provider-filter-form';

/** Which notifications a provider receives, as a form (admins only). */
export function providerFilterPage(
  viewer: Viewer,
  provider: WebhookProviderView,
  values: FilterFormValues,
  errors?: FilterFormErrors,
) {
  const e = errors ?? {};
  const items = FILTER_FIELD_ANCHORS.flatMap(([key, href]) =>
    e[key] === undefined ? [] : [{ href, message: e[key] }],
  );
  const path = providerPath(provider);
  const title = `Filter of ${provider.name}`;
  return appPage(
    viewer,
    { title: items.length > 0 ? `Error: ${title}` : title, path: INTEGRATIONS_PATH },
    html`${pageHeader({
        breadcrumb: [...INTEGRATIONS_BREADCRUMB, { label: provider.name, href: path }],
        title,
        description:
          'Which notifications this provider receives. Those it does not receive are listed among its deliveries as skipped, with the reason; notifications already sent or skipped stay as they are.',
      })}
      ${errorSummary('The filter was not changed', items)}
      <form method="post" action="${path}/filter" novalidate>
        ${csrfField(viewer.csrfToken)}
        <section class="card" aria-labelledby="filter-heading">
          <div class="card-header"><h2 id="filter-heading">Filter</h2></div>
          <div class="card-body">${filterFields(values, e)}</div>
        </section>
        <div class="form-actions">
          <button class="button button-primary" type="submit">Save filter</button>
          <a class="button" href="${path}">Cancel</a>
        </div>
      </form>`,
  );
}

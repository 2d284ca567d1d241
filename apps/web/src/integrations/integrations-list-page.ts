import {
  type DeliveryView,
  type FallbackDestinationView,
  type WebhookProviderView,
} from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type WebhookProviderList } from '@vigil/workspace';
import { deliveryStatusBadge } from '../deliveries/delivery-status-badge';
import { GLOBAL_FALLBACK_PATH } from '../fallback/fallback-destination-paths';
import { fallbackDestinationSection } from '../fallback/fallback-destination-section';
import { type Viewer } from '../security/signed-in-session.decorator';
import { dataTable } from '../views/data-table';
import { formatDate } from '../views/format-date';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { notice } from '../views/notice';
import { tableDate } from '../views/table-date';
import { deliveryWhat } from './delivery-what';
import { destinationLabel, kindLabel } from './webhook-provider-form';

export const INTEGRATIONS_PATH = '/settings/integrations';
export const INTEGRATIONS_BREADCRUMB = [
  { label: 'Settings' },
  { label: 'Integrations', href: INTEGRATIONS_PATH },
];

export function providerPath(provider: Pick<WebhookProviderView, 'id'>): string {
  return `${INTEGRATIONS_PATH}/${provider.id}`;
}

function providerRow(provider: WebhookProviderView, latest: DeliveryView | undefined): SafeHtml {
  return html`<tr data-provider-id="${provider.id}">
    <td class="cell-name">
      <a href="${providerPath(provider)}">${provider.name}</a
      ><span class="cell-sub"
        >${kindLabel(provider.kind)}${
          provider.destination !== 'webhook' && ` · ${destinationLabel(provider.destination)}`
        }</span
      >
    </td>
    <td class="cell-url"><span class="mono">${provider.url}</span></td>
    <td class="cell-date">${tableDate(provider.createdAt)}</td>
    <td>
      ${
        latest === undefined
          ? html`<span class="muted">None yet</span>`
          : html`${deliveryStatusBadge(latest.status)}<span class="cell-sub"
                >${deliveryWhat(latest)} · ${formatDate(latest.createdAt)}</span
              >`
      }
    </td>
    <td class="cell-actions">
      <a
        class="button button-small"
        href="${providerPath(provider)}"
        aria-label="Deliveries and settings of ${provider.name}"
        >Deliveries</a
      >
    </td>
  </tr>`;
}

/**
 * Settings → Integrations: the enrolled webhook providers, each with its latest delivery, and
 * the global fallback destination.
 */
export function integrationsListPage(
  viewer: Viewer,
  list: WebhookProviderList,
  fallback: { readonly global: FallbackDestinationView | null; readonly notice?: string },
  message?: string,
) {
  const admin = viewer.session.user.role === 'admin';
  const { providers } = list;
  const enroll = html`<a class="button button-primary" href="${INTEGRATIONS_PATH}/new"
    >${icons.plus}Enroll provider</a
  >`;
  return appPage(
    viewer,
    { title: 'Integrations', path: INTEGRATIONS_PATH },
    html`${pageHeader({
        breadcrumb: [{ label: 'Settings' }],
        title: 'Integrations',
        description:
          'Webhook providers Vigil may notify: automation platforms and custom endpoints. A provider must be enrolled here before Notifications can select it.',
      })}
      ${notice(message)}
      <section class="card" aria-labelledby="providers-heading">
        <div class="card-header split">
          <div>
            <h2 id="providers-heading">Webhook providers</h2>
            <p>
              Each gets an HTTP POST with a JSON body, signed with its own secret (Standard
              Webhooks). Failed deliveries are retried, then shown as Dead and can be resent.
            </p>
          </div>
          ${admin && providers.length > 0 && enroll}
        </div>
        ${
          providers.length === 0
            ? html`<div class="empty">
                <h2>No webhook providers yet</h2>
                <p>
                  ${
                    admin
                      ? 'Enroll an automation platform or a custom webhook URL to receive detection and investigation notifications.'
                      : 'A workspace admin can enroll an automation platform or a custom webhook URL.'
                  }
                </p>
                ${admin && enroll}
              </div>`
            : dataTable({
                caption: 'Webhook providers: name, URL, dates and latest delivery',
                columns: [
                  { label: 'Name' },
                  { label: 'URL' },
                  { label: 'Enrolled' },
                  { label: 'Latest delivery' },
                  { label: 'Actions', hidden: true },
                ],
                rows: providers.map((p) => providerRow(p, list.latest.get(p.id))),
              })
        }
      </section>
      ${fallbackDestinationSection({
        global: fallback.global,
        changeHref: admin ? GLOBAL_FALLBACK_PATH : undefined,
        notice: fallback.notice,
      })}`,
  );
}

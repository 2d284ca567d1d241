import {
  WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
  WEBHOOK_URL_MAX_LENGTH,
  type ActiveSession,
  type DeliveryAttempt,
  type DeliveryStatus,
  type DeliveryView,
  type WebhookProviderView,
} from '@vigil/control-plane';
import {
  choice,
  csrfField,
  describedBy,
  errorSummary,
  fieldError,
  invalid,
  noticeAlert,
} from '../views/form-parts';
import { confirmCard } from '../views/confirm-card';
import { formatDate } from '../views/format-date';
import { flag, html, type SafeHtml } from '@vigil/http';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { secretShownOnce } from '../views/secret-shown-once';
import { tableDate } from '../views/table-date';
import { warningStatus } from '../views/warning-status';
import { TEST_NOTIFICATION_PREFIX } from './test-event-delivery';
import {
  KIND_CHOICES,
  kindLabel,
  type ProviderFormErrors,
  type ProviderFormValues,
} from './webhook-provider-form';

export const INTEGRATIONS_PATH = '/settings/integrations';
const BREADCRUMB = [{ label: 'Settings' }, { label: 'Integrations', href: INTEGRATIONS_PATH }];

const STATUS_LABELS: Readonly<Record<DeliveryStatus, string>> = {
  pending: 'Pending',
  delivering: 'Sending',
  delivered: 'Delivered',
  dead: 'Dead',
};

export interface DeliveryWithAttempts {
  readonly delivery: DeliveryView;
  readonly attempts: readonly DeliveryAttempt[];
}

function isAdmin(session: ActiveSession): boolean {
  return session.user.role === 'admin';
}

function providerPath(provider: Pick<WebhookProviderView, 'id'>): string {
  return `${INTEGRATIONS_PATH}/${provider.id}`;
}

function statusBadge(status: DeliveryStatus): SafeHtml {
  return html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>`;
}

function deliveryWhat(delivery: DeliveryView): string {
  if (delivery.notificationId.startsWith(TEST_NOTIFICATION_PREFIX)) return 'Test event';
  switch (delivery.kind) {
    case 'detection':
      return 'Detection update';
    case 'investigation':
      return 'Investigation update';
    case 'digest':
      return 'Digest';
  }
}

function integrationsPage(
  session: ActiveSession,
  csrfToken: string,
  title: string,
  content: SafeHtml,
  head?: SafeHtml,
): SafeHtml {
  return appPage(session, { title, csrfToken, path: INTEGRATIONS_PATH, head }, content);
}

export interface IntegrationsListModel {
  readonly session: ActiveSession;
  readonly csrfToken: string;
  readonly providers: readonly WebhookProviderView[];
  /** The newest delivery to each provider, when there is one. */
  readonly latest: ReadonlyMap<string, DeliveryView>;
  readonly notice?: string;
}

export function integrationsListPage(model: IntegrationsListModel): SafeHtml {
  const admin = isAdmin(model.session);
  const enroll = html`<a class="button button-primary" href="${INTEGRATIONS_PATH}/new"
    >${icons.plus}Enroll provider</a
  >`;
  return integrationsPage(
    model.session,
    model.csrfToken,
    'Integrations',
    html`${pageHeader({
        breadcrumb: [{ label: 'Settings' }],
        title: 'Integrations',
        description:
          'Webhook providers Vigil may notify: automation platforms and custom endpoints. A provider must be enrolled here before Notifications can select it.',
      })}
      ${noticeAlert(model.notice)}
      <section class="card" aria-labelledby="providers-heading">
        <div class="card-header split">
          <div>
            <h2 id="providers-heading">Webhook providers</h2>
            <p>
              Each gets an HTTP POST with a JSON body, signed with its own secret (Standard
              Webhooks). Failed deliveries are retried, then shown as Dead and can be resent.
            </p>
          </div>
          ${admin && model.providers.length > 0 && enroll}
        </div>
        ${
          model.providers.length === 0
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
            : html`<div class="table-wrap">
                <table>
                  <caption class="visually-hidden">
                    Webhook providers: name, URL, dates and latest delivery
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">URL</th>
                      <th scope="col">Enrolled</th>
                      <th scope="col">Latest delivery</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${model.providers.map((provider) => {
                      const latest = model.latest.get(provider.id);
                      return html`<tr data-provider-id="${provider.id}">
                        <td class="cell-name">
                          <a href="${providerPath(provider)}">${provider.name}</a
                          ><span class="cell-sub">${kindLabel(provider.kind)}</span>
                        </td>
                        <td class="cell-url"><span class="mono">${provider.url}</span></td>
                        <td class="cell-date">${tableDate(provider.createdAt)}</td>
                        <td>
                          ${
                            latest === undefined
                              ? html`<span class="muted">None yet</span>`
                              : html`${statusBadge(latest.status)}<span class="cell-sub"
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
                    })}
                  </tbody>
                </table>
              </div>`
        }
      </section>`,
  );
}

export function enrollProviderPage(
  session: ActiveSession,
  csrfToken: string,
  values: ProviderFormValues,
  errors?: ProviderFormErrors,
): SafeHtml {
  const e = errors ?? {};
  const items = [
    e.name && { href: '#name', message: e.name },
    e.kind && { href: `#kind-${KIND_CHOICES[0].key}`, message: e.kind },
    e.url && { href: '#url', message: e.url },
  ].filter((item): item is { href: string; message: string } => Boolean(item));
  return integrationsPage(
    session,
    csrfToken,
    items.length > 0 ? 'Error: Enroll a webhook provider' : 'Enroll a webhook provider',
    html`${pageHeader({
        breadcrumb: BREADCRUMB,
        title: 'Enroll a webhook provider',
        description:
          'Vigil will POST notifications to this URL. Its signing secret is shown once, right after enrollment.',
      })}
      ${errorSummary('The provider was not enrolled', items)}
      <form method="post" action="${INTEGRATIONS_PATH}" novalidate>
        ${csrfField(csrfToken)}
        <section class="card" aria-labelledby="provider-heading">
          <div class="card-header"><h2 id="provider-heading">Provider</h2></div>
          <div class="card-body">
            <div class="field">
              <label for="name">Name</label>
              <p class="hint" id="name-hint">
                Shown in Notifications when selecting providers, and sent as the recipient name.
              </p>
              ${fieldError('name-error', e.name)}
              <input
                type="text"
                id="name"
                name="name"
                value="${values.name}"
                maxlength="${WEBHOOK_PROVIDER_NAME_MAX_LENGTH}"
                autocomplete="off"
                ${flag('autofocus', errors === undefined)}${invalid(e.name !== undefined)}${describedBy('name-hint', e.name !== undefined && 'name-error')}
              />
            </div>
            <fieldset class="field" ${describedBy(e.kind !== undefined && 'kind-error')}>
              <legend class="label">Kind</legend>
              ${fieldError('kind-error', e.kind)}
              <div class="choices">
                ${KIND_CHOICES.map((kind) =>
                  choice({
                    type: 'radio',
                    id: `kind-${kind.key}`,
                    name: 'kind',
                    value: kind.key,
                    checked: values.kind === kind.key,
                    invalid: e.kind !== undefined,
                    label: kind.label,
                    description: kind.description,
                  }),
                )}
              </div>
            </fieldset>
            <div class="field field-wide">
              <label for="url">URL</label>
              <p class="hint" id="url-hint">
                An http(s) address reachable from Vigil. Private, loopback and link-local addresses
                are refused unless the operator allows them.
              </p>
              ${fieldError('url-error', e.url)}
              <input
                type="text"
                inputmode="url"
                id="url"
                name="url"
                value="${values.url}"
                maxlength="${WEBHOOK_URL_MAX_LENGTH}"
                spellcheck="false"
                autocomplete="off"
                placeholder="https://"
                ${invalid(e.url !== undefined)}${describedBy('url-hint', e.url !== undefined && 'url-error')}
              />
            </div>
          </div>
          <div class="card-footer">
            <button class="button button-primary" type="submit">Enroll provider</button>
            <a class="button" href="${INTEGRATIONS_PATH}">Cancel</a>
          </div>
        </section>
      </form>`,
  );
}

/** After enrollment or rotation: the signing secret, this once. */
export function providerSecretPage(
  session: ActiveSession,
  csrfToken: string,
  provider: WebhookProviderView,
  secret: string,
  reason: 'enrolled' | 'rotated',
): SafeHtml {
  const title = reason === 'enrolled' ? 'Provider enrolled' : 'Signing secret rotated';
  return integrationsPage(
    session,
    csrfToken,
    title,
    html`${pageHeader({ breadcrumb: BREADCRUMB, title })}
    ${warningStatus(
      'Copy the signing secret now',
      `This is the only time it is shown. ${
        reason === 'rotated'
          ? 'Requests are signed with it from now on; the previous secret no longer verifies.'
          : 'If it is lost, rotate the secret to get a new one.'
      }`,
    )}
    ${secretShownOnce({
      owner: provider.name,
      id: 'signing-secret',
      label: 'Signing secret',
      value: secret,
      details: html`<dt>URL</dt>
        <dd><span class="mono">${provider.url}</span></dd>
        <dt>Kind</dt>
        <dd>${kindLabel(provider.kind)}</dd>
        <dt>Verify with</dt>
        <dd>
          The Standard Webhooks headers <span class="mono">webhook-id</span>,
          <span class="mono">webhook-timestamp</span> and
          <span class="mono">webhook-signature</span> (HMAC-SHA256 with this secret).
        </dd>`,
      doneHref: providerPath(provider),
    })}`,
    html`<meta name="vigil-replace-url" content="${INTEGRATIONS_PATH}/secret-shown" />`,
  );
}

/** Where the secret page's history entry points once the secret has been shown. */
export function secretGonePage(session: ActiveSession, csrfToken: string): SafeHtml {
  return integrationsPage(
    session,
    csrfToken,
    'Signing secret',
    html`${pageHeader({ breadcrumb: BREADCRUMB, title: 'Signing secret' })}
      ${warningStatus(
        'The signing secret is no longer shown',
        'A secret is shown only once, right after enrollment or rotation. If it was not copied, rotate the provider’s secret to get a new one.',
      )}
      <p><a class="button" href="${INTEGRATIONS_PATH}">Back to Integrations</a></p>`,
  );
}

function attemptsList(attempts: readonly DeliveryAttempt[]): SafeHtml {
  if (attempts.length === 0) return html`<span class="muted">No attempt yet</span>`;
  return html`<ol class="attempts">
    ${attempts.map(
      (a) =>
        html`<li>
          <span class="attempt-head"
            >#${a.attempt} ·
            <time datetime="${a.attemptedAt.toISOString()}">${formatDate(a.attemptedAt)}</time> ·
            ${a.statusCode === null ? 'no HTTP status' : `HTTP ${a.statusCode}`} · ${a.latencyMs}
            ms</span
          >${a.error && html`<span class="attempt-error">${a.error}</span>`}
        </li>`,
    )}
  </ol>`;
}

export interface ProviderPageModel {
  readonly session: ActiveSession;
  readonly csrfToken: string;
  readonly provider: WebhookProviderView;
  readonly deliveries: readonly DeliveryWithAttempts[];
  readonly notice?: string;
}

export function providerPage(model: ProviderPageModel): SafeHtml {
  const { provider } = model;
  const admin = isAdmin(model.session);
  const path = providerPath(provider);
  return integrationsPage(
    model.session,
    model.csrfToken,
    provider.name,
    html`${pageHeader({
        breadcrumb: BREADCRUMB,
        title: provider.name,
        description: kindLabel(provider.kind),
      })}
      ${noticeAlert(model.notice)}
      <section class="card" aria-labelledby="provider-heading">
        <div class="card-header"><h2 id="provider-heading">Provider</h2></div>
        <div class="card-body">
          <dl class="details">
            <dt>URL</dt>
            <dd><span class="mono">${provider.url}</span></dd>
            <dt>Kind</dt>
            <dd>${kindLabel(provider.kind)}</dd>
            <dt>Enrolled</dt>
            <dd>${formatDate(provider.createdAt)}</dd>
            <dt>Secret rotated</dt>
            <dd>${provider.rotatedAt === null ? 'Never' : formatDate(provider.rotatedAt)}</dd>
          </dl>
        </div>
        ${
          admin &&
          html`<div class="card-footer">
            <form method="post" action="${path}/test">
              ${csrfField(model.csrfToken)}
              <button class="button button-primary" type="submit">Send a test event</button>
            </form>
            <a class="button" href="${path}/rotate">Rotate secret</a>
            <a
              class="button button-subtle-danger"
              href="${path}/delete"
              aria-label="Delete provider ${provider.name}"
              >Delete provider</a
            >
          </div>`
        }
      </section>
      <section class="card" aria-labelledby="deliveries-heading">
        <div class="card-header">
          <h2 id="deliveries-heading">Recent deliveries</h2>
          <p>
            The newest first, with every attempt. The notifier sends pending deliveries; while it is
            not running they stay Pending. A Dead delivery used up its retries and can be resent.
          </p>
        </div>
        ${
          model.deliveries.length === 0
            ? html`<div class="empty">
                <h2>No deliveries yet</h2>
                <p>
                  ${
                    admin
                      ? 'Send a test event to check that the endpoint receives and verifies notifications.'
                      : 'Notifications sent to this provider will be listed here.'
                  }
                </p>
              </div>`
            : html`<div class="table-wrap">
                <table class="deliveries">
                  <caption class="visually-hidden">
                    Recent deliveries: status, what was sent, when, and every attempt
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Status</th>
                      <th scope="col">Notification</th>
                      <th scope="col">Created</th>
                      <th scope="col">Attempts</th>
                      <th scope="col"><span class="visually-hidden">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${model.deliveries.map(
                      ({ delivery, attempts }) =>
                        html`<tr data-delivery-id="${delivery.id}">
                          <td>
                            ${statusBadge(delivery.status)}${
                              delivery.status === 'pending' &&
                              delivery.nextAttemptAt !== null &&
                              html`<span class="cell-sub"
                                >Next attempt ${formatDate(delivery.nextAttemptAt)}</span
                              >`
                            }
                          </td>
                          <td class="cell-name">
                            ${deliveryWhat(delivery)}<span class="cell-sub mono"
                              >${delivery.id}</span
                            >
                          </td>
                          <td class="cell-date">${tableDate(delivery.createdAt)}</td>
                          <td class="cell-attempts">${attemptsList(attempts)}</td>
                          <td class="cell-actions">
                            ${
                              admin &&
                              delivery.status === 'dead' &&
                              html`<form
                                method="post"
                                action="${path}/deliveries/${delivery.id}/resend"
                              >
                                ${csrfField(model.csrfToken)}
                                <button
                                  class="button button-small"
                                  type="submit"
                                  aria-label="Resend delivery ${delivery.id}"
                                >
                                  Resend
                                </button>
                              </form>`
                            }
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

/** Confirmation before rotating or deleting: both break the receiving side at once. */
export function confirmProviderPage(
  session: ActiveSession,
  csrfToken: string,
  provider: WebhookProviderView,
  action: 'rotate' | 'delete',
): SafeHtml {
  const rotate = action === 'rotate';
  const path = providerPath(provider);
  const question = rotate
    ? `Rotate the secret of “${provider.name}”?`
    : `Delete “${provider.name}”?`;
  return integrationsPage(
    session,
    csrfToken,
    rotate ? `Rotate the secret of ${provider.name}` : `Delete ${provider.name}`,
    html`${pageHeader({
      breadcrumb: [...BREADCRUMB, { label: provider.name, href: path }],
      title: rotate ? 'Rotate signing secret' : 'Delete webhook provider',
    })}
    ${confirmCard({
      question,
      warning: rotate
        ? 'Requests are signed with a new secret from now on, including retries of earlier deliveries. The endpoint rejects them until it is given the new secret, which is shown once.'
        : 'Vigil stops sending to this URL at once: pending deliveries to it fail, and Notifications no longer offers it. This cannot be undone.',
      severity: rotate ? 'warning' : 'error',
      details: html`<dt>URL</dt>
        <dd><span class="mono">${provider.url}</span></dd>
        <dt>Kind</dt>
        <dd>${kindLabel(provider.kind)}</dd>
        <dt>Enrolled</dt>
        <dd>${formatDate(provider.createdAt)}</dd>`,
      action: `${path}/${action}`,
      csrfToken,
      button: rotate ? 'Rotate secret' : 'Delete provider',
      cancelHref: path,
    })}`,
  );
}

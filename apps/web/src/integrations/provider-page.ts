import {
  type DeliveryAttempt,
  type DeliveryWithAttempts,
  type PagerDutyDestinationView,
  type WebhookProviderView,
} from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type WebhookProviderOverview } from '@vigil/workspace';
import { deliveryStatusBadge } from '../deliveries/delivery-status-badge';
import { resendDeliveryForm } from '../deliveries/resend-delivery-form';
import { skippedBecause } from '../deliveries/skipped-because';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { dataTable } from '../views/data-table';
import { formatDate, timeElement } from '../views/format-date';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { notice } from '../views/notice';
import { tableDate } from '../views/table-date';
import { deliveryWhat } from './delivery-what';
import { describeFilter } from './provider-filter-form';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH, providerPath } from './integrations-list-page';
import { destinationLabel, kindLabel } from './webhook-provider-form';

/** While a rotation's overlap lasts: until when the replaced secret still signs. */
function previousSecretStatus(provider: WebhookProviderView): SafeHtml {
  const until = provider.previousSecretValidUntil;
  if (until === undefined) return html``;
  return html`<div class="alert alert-warning overlap-status" role="status">
    ${icons.warning}
    <div>
      <p>The previous secret still signs until ${timeElement(until)}.</p>
      <p class="muted">
        Requests carry a signature with each secret until then: move the endpoint to the new one
        before that time. If the old secret leaked, rotate again and stop it at once.
      </p>
    </div>
  </div>`;
}

/**
 * How the endpoint is doing, prominent when it needs attention: disabled (with why, and what
 * happens to its notifications meanwhile) or failing (since when, how many dead in a row).
 */
function healthStatus(provider: WebhookProviderView): SafeHtml {
  const { disabled, health } = provider;
  if (disabled !== undefined) {
    return html`<div class="alert alert-error" role="status" id="provider-health">
      ${icons.warning}
      <div>
        <h2>Disabled at ${timeElement(disabled.at)}: ${disabled.reason}</h2>
        <p>Its notifications are recorded as skipped until it is enabled.</p>
      </div>
    </div>`;
  }
  if (health.failingSince === null) return html``;
  return html`<div class="alert alert-warning" role="status" id="provider-health">
    ${icons.warning}
    <div>
      <h2>${healthSummary(provider)}</h2>
      <p>
        Every attempt has failed since then. If it goes on, the notifier disables the provider and
        its notifications are recorded as skipped.
      </p>
    </div>
  </div>`;
}

/** The health in a few words, for the details. */
function healthSummary(provider: WebhookProviderView): string {
  const { disabled, health } = provider;
  if (disabled !== undefined) return `Disabled since ${formatDate(disabled.at)}`;
  if (health.failingSince === null) return 'Healthy';
  const dead = health.deadInARow === 1 ? '1 dead' : `${health.deadInARow} dead`;
  return `Failing since ${formatDate(health.failingSince)}, ${dead} in a row`;
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

function deliveryRow(row: DeliveryWithAttempts, viewer: Viewer, path: string): SafeHtml {
  const { delivery, attempts } = row;
  const admin = viewer.session.user.role === 'admin';
  return html`<tr data-delivery-id="${delivery.id}">
    <td>
      ${deliveryStatusBadge(delivery.status)}${
        delivery.status === 'pending' &&
        delivery.nextAttemptAt !== null &&
        html`<span class="cell-sub">Next attempt ${formatDate(delivery.nextAttemptAt)}</span>`
      }${skippedBecause(delivery)}
    </td>
    <td class="cell-name">
      ${deliveryWhat(delivery)}<span class="cell-sub mono">${delivery.id}</span>
    </td>
    <td class="cell-date">${tableDate(delivery.createdAt)}</td>
    <td class="cell-attempts">${attemptsList(attempts)}</td>
    <td class="cell-actions">
      ${admin && delivery.status === 'dead' && resendDeliveryForm(path, delivery.id, viewer.csrfToken)}
    </td>
  </tr>`;
}

/** A provider: its details, its admin actions and its recent deliveries with every attempt. */
export function providerPage(
  viewer: Viewer,
  overview: WebhookProviderOverview,
  message?: string,
): SafeHtml {
  const { provider, deliveries } = overview;
  const admin = viewer.session.user.role === 'admin';
  const path = providerPath(provider);
  return appPage(
    viewer,
    { title: provider.name, path: INTEGRATIONS_PATH },
    html`${pageHeader({
        breadcrumb: INTEGRATIONS_BREADCRUMB,
        title: provider.name,
        description:
          provider.destination === 'webhook'
            ? kindLabel(provider.kind)
            : `${kindLabel(provider.kind)} · ${destinationLabel(provider.destination)}`,
      })}
      ${notice(message)} ${healthStatus(provider)}
      <section class="card" aria-labelledby="provider-heading">
        <div class="card-header"><h2 id="provider-heading">Provider</h2></div>
        <div class="card-body">
          <dl class="details">
            <dt>URL</dt>
            <dd><span class="mono">${provider.url}</span></dd>
            <dt>Kind</dt>
            <dd>${kindLabel(provider.kind)}</dd>
            <dt>Sends</dt>
            <dd>${destinationLabel(provider.destination)}</dd>
            <dt>Health</dt>
            <dd>${healthSummary(provider)}</dd>
            <dt>Receives</dt>
            <dd>${describeFilter(provider.filter)}</dd>
            ${provider.pagerDuty && pagerDutyDetails(provider.pagerDuty)}
            <dt>Enrolled</dt>
            <dd>${formatDate(provider.createdAt)}</dd>
            ${
              provider.destination === 'webhook' &&
              html`<dt>Secret rotated</dt>
                <dd>${provider.rotatedAt === null ? 'Never' : formatDate(provider.rotatedAt)}</dd>`
            }
          </dl>
          ${previousSecretStatus(provider)}
        </div>
        ${
          admin &&
          html`<div class="card-footer">
            <form method="post" action="${path}/test">
              ${csrfField(viewer.csrfToken)}
              <button class="button button-primary" type="submit">Send a test event</button>
            </form>
            ${
              provider.destination === 'webhook' &&
              html`<a class="button" href="${path}/rotate">Rotate secret</a>`
            }
            <a class="button" href="${path}/filter">Edit filter</a>
            ${
              provider.disabled === undefined
                ? html`<a class="button" href="${path}/enable">Recover deliveries…</a>
                    <a class="button button-subtle-danger" href="${path}/disable">Disable…</a>`
                : html`<a class="button" href="${path}/enable">Enable…</a>`
            }
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
            not running they stay Pending. A Dead delivery used up its retries and can be resent; a
            Skipped one was held back by the provider’s filter or while the provider was disabled.
          </p>
        </div>
        ${
          deliveries.length === 0
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
            : dataTable({
                caption: 'Recent deliveries: status, what was sent, when, and every attempt',
                className: 'deliveries',
                columns: [
                  { label: 'Status' },
                  { label: 'Notification' },
                  { label: 'Created' },
                  { label: 'Attempts' },
                  { label: 'Actions', hidden: true },
                ],
                rows: deliveries.map((row) => deliveryRow(row, viewer, path)),
              })
        }
      </section>`,
  );
}

/** PagerDuty's settings: where incidents go and how severities are picked (nothing secret). */
function pagerDutyDetails(settings: PagerDutyDestinationView): SafeHtml {
  return html`<dt>Region</dt>
    <dd>${settings.region.toUpperCase()}</dd>
    <dt>Source</dt>
    <dd>${settings.source}</dd>
    <dt>Severity by risk score</dt>
    <dd>
      ${settings.severityMapping.bands
        .map((band) => `${band.from}–${band.to} ${band.severity}`)
        .join(', ')};
      without a score: ${settings.severityMapping.unscored}
    </dd>`;
}

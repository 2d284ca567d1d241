import {
  type ActiveSession,
  type DeliveryAttempt,
  type DeliveryStatus,
  type DeliveryView,
} from '@vigil/control-plane';
import { type AffectedUser, type DetectionSummary, type EventView } from '@vigil/search';
import { formatDate } from '../views/format-date';
import { html, type SafeHtml } from '@vigil/http';
import { icons } from '../views/icons';
import { appPage, pageHeader } from '../views/layout';
import { detectionPath, formatCount, riskBadge, tableDate, withQuery } from './detection-format';
import { DETECTIONS_PATH } from './detection-list-page';
import {
  detectionNotificationsSection,
  notificationStateBadge,
  type DetectionNotificationsModel,
} from './detection-notifications-section';

export interface DetectionPageModel {
  readonly detection: DetectionSummary;
  readonly events: {
    readonly items: readonly EventView[];
    readonly nextCursor: string | null;
    /** The filter as typed. */
    readonly query: string;
    /** Where the page starts; absent on the first page. */
    readonly cursor?: string;
    /** Why the filter was refused, with its position. */
    readonly error?: string;
  };
  readonly users: {
    readonly items: readonly AffectedUser[];
    readonly nextCursor: string | null;
    readonly cursor?: string;
  };
  readonly notifications: DetectionNotificationsModel;
  readonly deliveries: DetectionDeliveriesModel;
}

/** One delivery about the detection, with who it went to and how its last attempt went. */
export interface DetectionDeliveryRow {
  readonly delivery: DeliveryView;
  /** The provider's name (webhook) or the recipient address (email); null for a deleted provider. */
  readonly targetName: string | null;
  readonly lastAttempt: DeliveryAttempt | null;
}

export interface DetectionDeliveriesModel {
  /** Newest first. */
  readonly items: readonly DetectionDeliveryRow[];
  /** Whether the viewer may resend dead deliveries (workspace admins). */
  readonly canResend: boolean;
  /** When the page is rendered (epoch ms): a pending delivery due before then is due now. */
  readonly now: number;
  readonly notice?: string;
}

/** How many recent deliveries the page shows. */
export const DETECTION_DELIVERIES_SHOWN = 20;

const QUERY_EXAMPLE = "risk_score > 7 AND happened > '2025-05-01T00:00:00.000Z'";

function stat(label: string, value: SafeHtml | string, id?: string): SafeHtml {
  return html`<div class="stat">
    <dt${id ? html` id="${id}"` : ''}>${label}</dt>
    <dd>${value}</dd>
  </div>`;
}

function eventFlags(event: EventView): SafeHtml {
  return html`${event.high_prevalence && html`<span class="tag">High prevalence</span>`}${
    event.allowlisted && html`<span class="tag">Allowlisted</span>`
  }`;
}

function eventsSection(model: DetectionPageModel): SafeHtml {
  const { detection, events, users } = model;
  const path = detectionPath(detection.id);
  const bad = events.error !== undefined;
  return html`<section class="card" id="events" aria-labelledby="events-heading">
    <div class="card-header">
      <h2 id="events-heading">Events</h2>
      <p>Newest first.</p>
    </div>
    <form class="filter" method="get" action="${path}#events" role="search">
      ${users.cursor && html`<input type="hidden" name="users" value="${users.cursor}" />`}
      <label for="q">Filter events</label>
      <div class="filter-row">
        <input
          type="text"
          id="q"
          name="q"
          value="${events.query}"
          class="mono"
          spellcheck="false"
          autocomplete="off"
          placeholder="${QUERY_EXAMPLE}"
          ${bad ? html` aria-invalid="true"` : ''}
          aria-describedby="${bad ? 'q-error q-hint' : 'q-hint'}"
        />
        <button class="button" type="submit">Apply</button>
        ${events.query !== '' && html`<a class="button" href="${withQuery(path, { users: users.cursor })}#events">Clear</a>`}
      </div>
      ${bad && html`<p class="error-message" id="q-error" role="alert">${icons.alert}${events.error}</p>`}
      <p class="hint" id="q-hint">
        The query language of the API: fields id, employee_email, happened, risk_score, source,
        high_prevalence, allowlisted; for example <span class="mono">${QUERY_EXAMPLE}</span>.
      </p>
    </form>
    ${
      bad
        ? html``
        : events.items.length === 0
          ? html`<div class="empty">
              <h2>No events match</h2>
              <p>
                ${events.cursor ? 'This page is past the last matching event.' : 'Change or clear the filter.'}
              </p>
            </div>`
          : html`<div class="table-wrap">
              <table class="events-table">
                <caption class="visually-hidden">
                  Events of this detection, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Happened</th>
                    <th scope="col">Person</th>
                    <th scope="col">Event</th>
                    <th scope="col">Source</th>
                    <th scope="col" class="num">Risk</th>
                  </tr>
                </thead>
                <tbody>
                  ${events.items.map(
                    (e) =>
                      html`<tr data-event-id="${e.id}">
                        <td class="cell-date">${tableDate(e.happened)}</td>
                        <td class="cell-person">
                          ${e.employee_name}<span class="cell-sub">${e.employee_email}</span>
                        </td>
                        <td class="cell-event">
                          ${e.description || e.issue_type}<span class="cell-sub"
                            >${e.issue_type} · ${e.asset_name} ·
                            <span class="mono">${e.id}</span></span
                          >${eventFlags(e)}
                        </td>
                        <td>${e.source}</td>
                        <td class="num">${riskBadge(e.risk_score)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
    ${
      !bad &&
      (events.cursor !== undefined || events.nextCursor !== null) &&
      html`<nav class="card-footer pager" aria-label="Event pages">
        ${
          events.cursor !== undefined &&
          html`<a
            class="button button-small"
            href="${withQuery(path, { q: events.query, users: users.cursor })}#events"
            >Newest events</a
          >`
        }
        ${
          events.nextCursor !== null &&
          html`<a
            class="button button-small"
            rel="next"
            href="${withQuery(path, { q: events.query, cursor: events.nextCursor, users: users.cursor })}#events"
            >Older events</a
          >`
        }
      </nav>`
    }
  </section>`;
}

function usersSection(model: DetectionPageModel): SafeHtml {
  const { detection, events, users } = model;
  const path = detectionPath(detection.id);
  const keep = { q: events.query, cursor: events.cursor };
  return html`<section class="card" id="users" aria-labelledby="users-heading">
    <div class="card-header">
      <h2 id="users-heading">Affected users</h2>
      <p>
        ${formatCount(detection.user_count)} ${detection.user_count === 1 ? 'person' : 'people'}, by
        email.
      </p>
    </div>
    ${
      users.items.length === 0
        ? html`<div class="empty"><p>No more affected users.</p></div>`
        : html`<div class="table-wrap">
            <table>
              <caption class="visually-hidden">
                Affected users: person, events, highest risk and last event
              </caption>
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col" class="num">Events</th>
                  <th scope="col" class="num">Max risk</th>
                  <th scope="col">Last event</th>
                </tr>
              </thead>
              <tbody>
                ${users.items.map(
                  (u) =>
                    html`<tr>
                      <td class="cell-person">
                        ${u.employee_name}<span class="cell-sub">${u.employee_email}</span>
                      </td>
                      <td class="num">${formatCount(u.event_count)}</td>
                      <td class="num">${riskBadge(u.max_risk_score)}</td>
                      <td class="cell-date">${tableDate(u.last_seen)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${
      (users.cursor !== undefined || users.nextCursor !== null) &&
      html`<nav class="card-footer pager" aria-label="Affected user pages">
        ${users.cursor !== undefined && html`<a class="button button-small" href="${withQuery(path, keep)}#users">First users</a>`}
        ${users.nextCursor !== null && html`<a class="button button-small" rel="next" href="${withQuery(path, { ...keep, users: users.nextCursor })}#users">More users</a>`}
      </nav>`
    }
  </section>`;
}

const DELIVERY_STATUS_LABELS: Readonly<Record<DeliveryStatus, string>> = {
  pending: 'Pending',
  delivering: 'Sending',
  delivered: 'Delivered',
  dead: 'Dead',
};

/** A date on one line and its time below, as in the other tables of the page. */
function dayAndTime(at: Date): SafeHtml {
  const [day, time] = formatDate(at).split(', ');
  return html`<time datetime="${at.toISOString()}">${day}<span class="time">${time}</span></time>`;
}

function deliveryStatusCell(delivery: DeliveryView, now: number): SafeHtml {
  const next = delivery.status === 'pending' ? delivery.nextAttemptAt : null;
  return html`<span class="badge badge-${delivery.status}"
      >${DELIVERY_STATUS_LABELS[delivery.status]}</span
    >${
      next !== null &&
      html`<span class="cell-sub"
        >${next.getTime() <= now ? 'Due now' : html`Next attempt ${dayAndTime(next)}`}</span
      >`
    }`;
}

function deliveryTargetCell(row: DetectionDeliveryRow): SafeHtml {
  const { delivery, targetName } = row;
  if (delivery.channel === 'email') {
    return html`Email<span class="cell-sub">${delivery.target}</span>`;
  }
  return html`Webhook<span class="cell-sub"
      >${targetName ?? html`Deleted provider <span class="mono">${delivery.target}</span>`}</span
    >`;
}

function lastAttemptCell(attempt: DeliveryAttempt | null): SafeHtml {
  if (attempt === null) return html`<span class="muted">No attempt yet</span>`;
  const outcome =
    attempt.statusCode !== null
      ? `HTTP ${attempt.statusCode}`
      : attempt.error === null
        ? 'Sent'
        : 'No HTTP status';
  return html`${dayAndTime(attempt.attemptedAt)}<span class="cell-sub">${outcome}</span>${
      attempt.error && html`<span class="cell-sub attempt-error">${attempt.error}</span>`
    }`;
}

function deliveriesSection(model: DetectionPageModel, csrfToken: string): SafeHtml {
  const { deliveries } = model;
  const path = detectionPath(model.detection.id);
  return html`<section class="card" id="deliveries" aria-labelledby="deliveries-heading">
    <div class="card-header">
      <h2 id="deliveries-heading">Recent deliveries</h2>
      <p>
        Notifications about this detection, newest first (the ${DETECTION_DELIVERIES_SHOWN} most
        recent). Failed deliveries are retried; a Dead one used up its
        retries${deliveries.canResend ? ' and can be resent' : ''}.
      </p>
    </div>
    ${
      deliveries.notice &&
      html`<div class="notice-in-card">
        <div class="alert alert-success" role="status">
          ${icons.check}
          <div>${deliveries.notice}</div>
        </div>
      </div>`
    }
    ${
      deliveries.items.length === 0
        ? html`<div class="empty">
            <h2>No deliveries yet</h2>
            <p>Webhooks and emails sent about this detection will be listed here.</p>
          </div>`
        : html`<div class="table-wrap">
            <table class="deliveries">
              <caption class="visually-hidden">
                Recent deliveries: status, where it went, attempts and the last attempt
              </caption>
              <thead>
                <tr>
                  <th scope="col">Status</th>
                  <th scope="col">Sent to</th>
                  <th scope="col" class="num">Attempts</th>
                  <th scope="col">Last attempt</th>
                  <th scope="col"><span class="visually-hidden">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                ${deliveries.items.map(
                  (row) =>
                    html`<tr data-delivery-id="${row.delivery.id}">
                      <td class="cell-date">${deliveryStatusCell(row.delivery, deliveries.now)}</td>
                      <td class="cell-name">${deliveryTargetCell(row)}</td>
                      <td class="num">${formatCount(row.delivery.attemptCount)}</td>
                      <td class="cell-date">${lastAttemptCell(row.lastAttempt)}</td>
                      <td class="cell-actions">
                        ${
                          deliveries.canResend &&
                          row.delivery.status === 'dead' &&
                          html`<form
                            method="post"
                            action="${path}/deliveries/${row.delivery.id}/resend"
                          >
                            <input type="hidden" name="_csrf" value="${csrfToken}" />
                            <button
                              class="button button-small"
                              type="submit"
                              aria-label="Resend delivery ${row.delivery.id}"
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
  </section>`;
}

/** A detection: its figures, events, affected users, notification settings and deliveries. */
export function detectionPage(
  session: ActiveSession,
  csrfToken: string,
  model: DetectionPageModel,
) {
  const { detection } = model;
  const refused = model.notifications.refused !== undefined || model.events.error !== undefined;
  return appPage(
    session,
    {
      title: `${refused ? 'Error: ' : ''}${detection.name || detection.id}`,
      csrfToken,
      path: DETECTIONS_PATH,
    },
    html`${pageHeader({
        breadcrumb: [{ label: 'Monitor' }, { label: 'Detections', href: DETECTIONS_PATH }],
        title: detection.name || detection.id,
        actions: html`<a class="header-link" href="#notifications"
          >${notificationStateBadge(model.notifications)}</a
        >`,
      })}
      <dl class="stats" aria-label="Detection figures">
        ${stat('Events', formatCount(detection.event_count))}
        ${stat('Affected users', formatCount(detection.user_count))}
        ${stat('Max risk', riskBadge(detection.max_risk_score))}
        ${stat('First seen', html`<time datetime="${detection.first_seen}">${formatDate(new Date(detection.first_seen))}</time>`)}
        ${stat('Last seen', html`<time datetime="${detection.last_seen}">${formatDate(new Date(detection.last_seen))}</time>`)}
      </dl>
      <p class="detection-id muted">Detection id <span class="mono">${detection.id}</span></p>
      ${eventsSection(model)} ${usersSection(model)}
      ${detectionNotificationsSection(model.notifications)} ${deliveriesSection(model, csrfToken)}`,
  );
}

import { html, type SafeHtml } from '@vigil/http';
import { type DetectionOverview, type FallbackDestinationsOverview } from '@vigil/workspace';
import {
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from '../notifications/notification-settings-form';
import { fallbackDestinationSection } from '../fallback/fallback-destination-section';
import { detectionFallbackPath } from '../fallback/fallback-destination-paths';
import { type Viewer } from '../security/signed-in-session.decorator';
import { formatDate } from '../views/format-date';
import { appPage, pageHeader } from '../views/layout';
import { detectionDeliveriesSection } from './detection-deliveries-section';
import { detectionEventsSection } from './detection-events-section';
import { formatCount, riskBadge } from './detection-format';
import { DETECTIONS_PATH } from './detection-list-page';
import {
  detectionNotificationsSection,
  notificationStateBadge,
  type DetectionNotificationsModel,
} from './detection-notifications-section';
import { detectionUsersSection } from './detection-users-section';

/** What the last change did, by the `notice` it redirected with, in the card it concerns. */
const NOTIFICATION_NOTICES: Readonly<Record<string, string>> = {
  'custom-on':
    'This detection now uses its own notification settings, starting from a copy of the global settings.',
  'custom-off': 'This detection follows the global notification settings again.',
  saved: 'Notification settings of this detection saved.',
  snoozed: 'Notifications of this detection are snoozed.',
  disabled: 'Notifications of this detection are disabled until resumed.',
  resumed: 'Notifications of this detection are resumed.',
};
const DELIVERY_NOTICES: Readonly<Record<string, string>> = {
  resent: 'Delivery queued again with a fresh retry schedule.',
};

export interface DetectionPageModel {
  readonly overview: DetectionOverview;
  /** Its fallback destination and the global one; the card is left out without it. */
  readonly fallback?: FallbackDestinationsOverview;
  /** When the page is rendered (epoch ms). */
  readonly now: number;
  /** The `notice` of the redirect that led here. */
  readonly notice?: string;
  /** The custom settings form as typed, when the server refused it. */
  readonly refused?: {
    readonly values: NotificationSettingsFormValues;
    readonly errors: NotificationSettingsFormErrors;
  };
}

function stat(label: string, value: SafeHtml | string): SafeHtml {
  return html`<div class="stat">
    <dt>${label}</dt>
    <dd>${value}</dd>
  </div>`;
}

function moment(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${formatDate(new Date(iso))}</time>`;
}

/** A detection: its figures, events, affected users, notification settings and deliveries. */
export function detectionPage(viewer: Viewer, model: DetectionPageModel): SafeHtml {
  const { overview, now, notice } = model;
  const { detection } = overview;
  const admin = viewer.session.user.role === 'admin';
  const notifications: DetectionNotificationsModel = {
    detectionId: detection.id,
    csrfToken: viewer.csrfToken,
    canEdit: admin,
    config: overview.config,
    global: overview.global,
    providers: overview.providers,
    now,
    refused: model.refused,
    notice: notice === undefined ? undefined : NOTIFICATION_NOTICES[notice],
  };
  const refused = model.refused !== undefined || overview.events.error !== undefined;
  return appPage(
    viewer,
    {
      title: `${refused ? 'Error: ' : ''}${detection.name || detection.id}`,
      path: DETECTIONS_PATH,
    },
    html`${pageHeader({
        breadcrumb: [{ label: 'Monitor' }, { label: 'Detections', href: DETECTIONS_PATH }],
        title: detection.name || detection.id,
        actions: html`<a class="header-link" href="#notifications"
          >${notificationStateBadge(notifications)}</a
        >`,
      })}
      <dl class="stats" aria-label="Detection figures">
        ${stat('Events', formatCount(detection.event_count))}
        ${stat('Affected users', formatCount(detection.user_count))}
        ${stat('Max risk', riskBadge(detection.max_risk_score))}
        ${stat('First seen', moment(detection.first_seen))}
        ${stat('Last seen', moment(detection.last_seen))}
      </dl>
      <p class="detection-id muted">Detection id <span class="mono">${detection.id}</span></p>
      ${detectionEventsSection(overview)} ${detectionUsersSection(overview)}
      ${detectionNotificationsSection(notifications)}
      ${detectionDeliveriesSection({
        detectionId: detection.id,
        items: overview.deliveries,
        canResend: admin,
        csrfToken: viewer.csrfToken,
        now,
        notice: notice === undefined ? undefined : DELIVERY_NOTICES[notice],
      })}
      ${
        model.fallback &&
        fallbackDestinationSection({
          global: model.fallback.global,
          detection: { own: model.fallback.detection },
          changeHref: admin ? detectionFallbackPath(detection.id) : undefined,
          notice:
            notice === 'fallback-changed'
              ? 'Fallback destination of this detection saved.'
              : undefined,
        })
      }`,
  );
}

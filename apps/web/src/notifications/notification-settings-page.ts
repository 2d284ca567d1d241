import { type WebhookProviderView } from '@vigil/control-plane';
import { quantity } from '@vigil/contracts';
import { html, type SafeHtml } from '@vigil/http';
import { type NotificationSettings } from '@vigil/notification-policy';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { appPage, pageHeader } from '../views/layout';
import { notice } from '../views/notice';
import {
  notificationSettingsEditor,
  settingsErrorItems,
  settingsErrorSummary,
} from './notification-settings-editor';
import {
  FREQUENCY_CHOICES,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from './notification-settings-form';
import { silenceBadge } from './silence-badge';
import { type SilenceStatus } from './silence-status';

export const NOTIFICATIONS_PATH = '/settings/notifications';

const n = (value: number) => value.toLocaleString('en-US');

export interface NotificationSettingsPageModel {
  readonly viewer: Viewer;
  readonly settings: NotificationSettings;
  /** What the form shows: the stored settings, or what was typed when refused. */
  readonly values: NotificationSettingsFormValues;
  readonly providers: readonly WebhookProviderView[];
  readonly silence: SilenceStatus;
  readonly errors?: NotificationSettingsFormErrors;
  readonly notice?: string;
}

function silenceSection(model: NotificationSettingsPageModel, admin: boolean): SafeHtml {
  const { silence } = model;
  const description =
    silence.kind === 'on'
      ? `Vigil sends notifications as configured below.${admin ? ' Silence them for a while, or until you resume them.' : ''}`
      : silence.kind === 'snoozed'
        ? html`<time datetime="${silence.until.toISOString()}">${silence.summary}</time>. Events
            during the snooze are not lost: the first notification after it reports them all.`
        : `${silence.summary}. Events meanwhile are not lost: the first notification after resuming reports them all.`;
  return html`<section class="card" aria-labelledby="silence-heading">
    <div class="card-header split">
      <div>
        <h2 id="silence-heading">Silencing</h2>
        <p id="silence-status">${description}</p>
      </div>
      ${silenceBadge(silence)}
    </div>
    ${
      admin &&
      html`<form
        class="card-footer"
        method="post"
        action="${NOTIFICATIONS_PATH}/silence"
        aria-labelledby="silence-heading"
      >
        ${csrfField(model.viewer.csrfToken)}
        ${
          silence.kind !== 'on' &&
          html`<button class="button button-primary" type="submit" name="silence" value="resume">
            Resume notifications
          </button>`
        }
        <span class="button-group" role="group" aria-label="Snooze">
          <button class="button" type="submit" name="silence" value="1h">Snooze for 1 hour</button>
          <button class="button" type="submit" name="silence" value="24h">
            Snooze for 24 hours
          </button>
          <button class="button" type="submit" name="silence" value="7d">Snooze for 7 days</button>
        </span>
        ${
          silence.kind !== 'disabled' &&
          html`<button
            class="button button-subtle-danger"
            type="submit"
            name="silence"
            value="disable"
          >
            Disable notifications
          </button>`
        }
      </form>`
    }
  </section>`;
}

function readOnlyView(model: NotificationSettingsPageModel): SafeHtml {
  const { settings, providers } = model;
  const selected = providers.filter((p) => settings.webhookProviderIds.includes(p.id));
  const frequency = FREQUENCY_CHOICES.find((c) => c.key === settings.frequency)!.label;
  return html`<section class="card settings-form" aria-labelledby="current-heading">
    <div class="card-header">
      <h2 id="current-heading">Current settings</h2>
      <p>Only workspace admins can change notification settings.</p>
    </div>
    <div class="card-body">
      <dl class="details">
        <dt>Email</dt>
        <dd>${settings.emailEnabled ? 'On' : 'Off'}</dd>
        <dt>Recipients</dt>
        <dd>
          ${
            settings.recipients.length === 0
              ? html`<span class="muted">None</span>`
              : html`<ul class="plain-list">
                  ${settings.recipients.map((r) => html`<li>${r}</li>`)}
                </ul>`
          }
        </dd>
        <dt>Frequency mode</dt>
        <dd>${frequency}</dd>
        <dt>Notify when the event count exceeds</dt>
        <dd>
          ${settings.threshold === null ? html`<span class="muted">Not set</span>` : n(settings.threshold)}
        </dd>
        <dt>Batch window</dt>
        <dd>${quantity(settings.batchWindowMinutes, 'minute')}</dd>
        <dt>Webhooks</dt>
        <dd>${settings.webhookEnabled ? 'On' : 'Off'}</dd>
        <dt>Providers</dt>
        <dd>
          ${
            selected.length === 0
              ? html`<span class="muted">None selected</span>`
              : html`<ul class="plain-list">
                  ${selected.map((p) => html`<li>${p.name}</li>`)}
                </ul>`
          }
        </dd>
        <dt>Max events per notification</dt>
        <dd>${n(settings.maxEventsPerNotification)}</dd>
      </dl>
    </div>
  </section>`;
}

/** Settings → Notifications: editable for workspace admins, read-only for members. */
export function notificationSettingsPage(model: NotificationSettingsPageModel): SafeHtml {
  const { viewer } = model;
  const admin = viewer.session.user.role === 'admin';
  const refused = settingsErrorItems(model.errors).length > 0;
  return appPage(
    viewer,
    { title: refused ? 'Error: Notifications' : 'Notifications', path: NOTIFICATIONS_PATH },
    html`${pageHeader({
      breadcrumb: [{ label: 'Settings' }],
      title: 'Notifications',
      description:
        'Global settings: how Vigil tells people about new detection events and investigation updates. Detections with a custom configuration follow their own.',
    })}
    ${notice(model.notice)} ${settingsErrorSummary(model.errors)} ${silenceSection(model, admin)}
    ${
      admin
        ? notificationSettingsEditor({
            layout: 'page',
            action: NOTIFICATIONS_PATH,
            csrfToken: viewer.csrfToken,
            values: model.values,
            errors: model.errors,
            providers: model.providers,
            discardHref: NOTIFICATIONS_PATH,
          })
        : readOnlyView(model)
    }`,
  );
}

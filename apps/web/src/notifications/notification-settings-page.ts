import { type ActiveSession, type WebhookProviderView } from '@vigil/control-plane';
import {
  DEFAULT_BATCH_WINDOW_MINUTES,
  DEFAULT_MAX_EVENTS_PER_NOTIFICATION,
  MAX_BATCH_WINDOW_MINUTES,
  MAX_MAX_EVENTS_PER_NOTIFICATION,
  MIN_BATCH_WINDOW_MINUTES,
  MIN_MAX_EVENTS_PER_NOTIFICATION,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { html, type SafeHtml } from '@vigil/http';
import { appPage, pageHeader } from '../views/layout';
import {
  choice,
  csrfField,
  describedBy,
  errorSummary,
  fieldError,
  noticeAlert,
  numberField,
  recipientsField,
} from '../views/form-parts';
import {
  FREQUENCY_CHOICES,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from './notification-settings-form';
import { type SilenceStatus } from './silence-status';

export const NOTIFICATIONS_PATH = '/settings/notifications';
const INTEGRATIONS_PATH = '/settings/integrations';

const n = (value: number) => value.toLocaleString('en-US');

export interface NotificationSettingsPageModel {
  readonly session: ActiveSession;
  readonly csrfToken: string;
  readonly settings: NotificationSettings;
  /** What the form shows: the stored settings, or what was typed when refused. */
  readonly values: NotificationSettingsFormValues;
  readonly providers: readonly WebhookProviderView[];
  readonly silence: SilenceStatus;
  readonly errors?: NotificationSettingsFormErrors;
  readonly notice?: string;
}

function silenceBadge(silence: SilenceStatus): SafeHtml {
  switch (silence.kind) {
    case 'on':
      return html`<span class="badge badge-active">Notifications on</span>`;
    case 'disabled':
      return html`<span class="badge badge-dead">Disabled</span>`;
    case 'snoozed':
      return html`<span class="badge badge-pending">Snoozed</span>`;
  }
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
        ${csrfField(model.csrfToken)}
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

function summaryItems(errors: NotificationSettingsFormErrors | undefined) {
  if (errors === undefined) return [];
  return [
    errors.recipients && { href: '#recipients', message: errors.recipients },
    errors.frequency && { href: '#frequency-batch', message: errors.frequency },
    errors.threshold && { href: '#threshold', message: errors.threshold },
    errors.batchWindowMinutes && { href: '#batch-window', message: errors.batchWindowMinutes },
    errors.providers && { href: '#providers', message: errors.providers },
    errors.maxEvents && { href: '#max-events', message: errors.maxEvents },
    ...errors.other.map((message) => ({ message })),
  ].filter((item): item is { href?: string; message: string } => Boolean(item));
}

function providerChoices(model: NotificationSettingsPageModel): SafeHtml {
  const { values, errors, providers } = model;
  const bad = errors?.providers !== undefined;
  if (providers.length === 0) {
    return html`<div class="field" id="providers" tabindex="-1">
      <span class="label">Providers</span>
      ${fieldError('providers-error', errors?.providers)}
      <p class="hint">
        No webhook provider is enrolled yet. A provider must be enrolled before it can be selected:
        <a href="${INTEGRATIONS_PATH}">enroll one in Integrations</a>.
      </p>
    </div>`;
  }
  return html`<fieldset
    class="field"
    id="providers"
    tabindex="-1"
    ${describedBy('providers-hint', bad && 'providers-error')}
  >
    <legend class="label">Providers</legend>
    <p class="hint" id="providers-hint">
      Every selected provider gets each detection’s notification at once, in every frequency mode.
      <a href="${INTEGRATIONS_PATH}">Manage providers in Integrations</a>.
    </p>
    ${fieldError('providers-error', errors?.providers)}
    <div class="choices">
      ${providers.map((p) =>
        choice({
          type: 'checkbox',
          id: `provider-${p.id}`,
          name: 'provider',
          value: p.id,
          checked: values.providerIds.includes(p.id),
          invalid: bad,
          label: p.name,
          description: html`${p.kind === 'automation' ? 'Automation platform' : 'Custom webhook'} ·
            <span class="mono">${p.url}</span>`,
        }),
      )}
    </div>
  </fieldset>`;
}

function editForm(model: NotificationSettingsPageModel): SafeHtml {
  const { values, errors } = model;
  const e = errors ?? { other: [] };
  return html`<form class="settings-form" method="post" action="${NOTIFICATIONS_PATH}" novalidate>
    ${csrfField(model.csrfToken)}
    <section class="card" aria-labelledby="email-heading">
      <div class="card-header">
        <h2 id="email-heading">Email</h2>
        <p>Who gets email about detections with new events and updated investigations.</p>
      </div>
      <div class="card-body">
        ${choice({
          type: 'checkbox',
          id: 'email-enabled',
          name: 'email_enabled',
          checked: values.emailEnabled,
          label: 'Send email notifications',
        })}
        ${recipientsField({ value: values.recipients, error: e.recipients, rows: 4 })}
      </div>
    </section>
    <section class="card" aria-labelledby="frequency-heading">
      <div class="card-header">
        <h2 id="frequency-heading">Frequency</h2>
        <p>When email is sent. Webhooks always fire immediately, in every mode.</p>
      </div>
      <div class="card-body">
        <fieldset class="field" ${describedBy(e.frequency !== undefined && 'frequency-error')}>
          <legend class="label">Frequency mode</legend>
          ${fieldError('frequency-error', e.frequency)}
          <div class="choices">
            ${FREQUENCY_CHOICES.map((c) =>
              choice({
                type: 'radio',
                id: `frequency-${c.key}`,
                name: 'frequency',
                value: c.key,
                checked: values.frequency === c.key,
                invalid: e.frequency !== undefined,
                label: c.label,
                description: c.description,
              }),
            )}
          </div>
        </fieldset>
        ${numberField({ id: 'threshold', name: 'threshold', label: 'Notify when the event count exceeds', hint: 'Required for Threshold mode: a whole number of events.', value: values.threshold, error: e.threshold })}
        ${numberField({ id: 'batch-window', name: 'batch_window_minutes', label: 'Batch window (minutes)', hint: `How often Batch mode sends its digest. Default ${DEFAULT_BATCH_WINDOW_MINUTES}; from ${MIN_BATCH_WINDOW_MINUTES} to ${n(MAX_BATCH_WINDOW_MINUTES)}.`, value: values.batchWindowMinutes, error: e.batchWindowMinutes })}
      </div>
    </section>
    <section class="card" aria-labelledby="webhook-heading">
      <div class="card-header">
        <h2 id="webhook-heading">Webhooks</h2>
        <p>An HTTP POST with a JSON body to enrolled providers, for every detection update.</p>
      </div>
      <div class="card-body">
        ${choice({
          type: 'checkbox',
          id: 'webhook-enabled',
          name: 'webhook_enabled',
          checked: values.webhookEnabled,
          label: 'Send webhook notifications',
        })}
        ${providerChoices(model)}
      </div>
    </section>
    <section class="card" aria-labelledby="limits-heading">
      <div class="card-header"><h2 id="limits-heading">Limits</h2></div>
      <div class="card-body">
        ${numberField({ id: 'max-events', name: 'max_events', label: 'Max events per notification', hint: `Event summaries attached to one notification; counts stay exact. Default ${n(DEFAULT_MAX_EVENTS_PER_NOTIFICATION)}; from ${MIN_MAX_EVENTS_PER_NOTIFICATION} to ${n(MAX_MAX_EVENTS_PER_NOTIFICATION)}.`, value: values.maxEvents, error: e.maxEvents })}
      </div>
      <div class="card-footer">
        <button class="button button-primary" type="submit">Save settings</button>
        <a class="button" href="${NOTIFICATIONS_PATH}">Discard changes</a>
      </div>
    </section>
  </form>`;
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
        <dd>${n(settings.batchWindowMinutes)} minutes</dd>
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
  const admin = model.session.user.role === 'admin';
  const items = summaryItems(model.errors);
  return appPage(
    model.session,
    {
      title: items.length > 0 ? 'Error: Notifications' : 'Notifications',
      csrfToken: model.csrfToken,
      path: NOTIFICATIONS_PATH,
    },
    html`${pageHeader({
      breadcrumb: [{ label: 'Settings' }],
      title: 'Notifications',
      description:
        'Global settings: how Vigil tells people about new detection events and investigation updates. Detections with a custom configuration follow their own.',
    })}
    ${noticeAlert(model.notice)} ${errorSummary('The settings were not saved', items)}
    ${silenceSection(model, admin)} ${admin ? editForm(model) : readOnlyView(model)}`,
  );
}

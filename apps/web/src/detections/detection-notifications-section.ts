import { type WebhookProviderView } from '@vigil/control-plane';
import {
  DEFAULT_BATCH_WINDOW_MINUTES,
  DEFAULT_MAX_EVENTS_PER_NOTIFICATION,
  MAX_BATCH_WINDOW_MINUTES,
  MAX_MAX_EVENTS_PER_NOTIFICATION,
  MIN_BATCH_WINDOW_MINUTES,
  MIN_MAX_EVENTS_PER_NOTIFICATION,
  resolveEffectiveSettings,
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import {
  csrfField,
  describedBy,
  errorSummary,
  fieldError,
  invalid,
  noticeAlert,
  numberField,
  recipientsField,
} from '../views/form-parts';
import {
  FREQUENCY_CHOICES,
  formValuesOf,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from '../notifications/notification-settings-form';
import { silenceStatus, type SilenceStatus } from '../notifications/silence-status';
import { flag, html, type SafeHtml } from '@vigil/http';
import { detectionPath } from './detection-format';

const NOTIFICATIONS_PATH = '/settings/notifications';
const INTEGRATIONS_PATH = '/settings/integrations';
const n = (value: number) => value.toLocaleString('en-US');

export interface DetectionNotificationsModel {
  readonly detectionId: string;
  readonly csrfToken: string;
  /** Workspace admins edit; members read. The server checks it again on every POST. */
  readonly canEdit: boolean;
  readonly config: DetectionNotificationConfig;
  readonly global: NotificationSettings;
  readonly providers: readonly WebhookProviderView[];
  readonly now: number;
  /** What the last change did; shown in this card, where the browser lands after it. */
  readonly notice?: string;
  /** The custom form as typed, when the server refused it. */
  readonly refused?: {
    readonly values: NotificationSettingsFormValues;
    readonly errors: NotificationSettingsFormErrors;
  };
}

export function notificationsPath(detectionId: string): string {
  return `${detectionPath(detectionId)}/notifications`;
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

/** The short state shown in the page header: on, snoozed or disabled, and from which settings. */
export function notificationStateBadge(model: DetectionNotificationsModel): SafeHtml {
  const effective = resolveEffectiveSettings(model.global, model.config);
  return silenceBadge(silenceStatus(effective.settings.silence, model.now));
}

function providerNames(settings: NotificationSettings, providers: readonly WebhookProviderView[]) {
  return providers.filter((p) => settings.webhookProviderIds.includes(p.id)).map((p) => p.name);
}

function frequencySummary(settings: NotificationSettings): string {
  switch (settings.frequency) {
    case 'batch':
      return `Batch: one digest every ${n(settings.batchWindowMinutes)} minutes`;
    case 'immediate':
      return 'Immediate: one email per update';
    case 'threshold':
      return `Threshold: when the event count exceeds ${n(settings.threshold ?? 0)}`;
  }
}

/** Settings as a read-only list: the global ones an inheriting detection follows, or for members. */
function settingsSummary(
  settings: NotificationSettings,
  providers: readonly WebhookProviderView[],
  now: number,
): SafeHtml {
  const names = providerNames(settings, providers);
  const silence = silenceStatus(settings.silence, now);
  return html`<dl class="details">
    <dt>Email</dt>
    <dd>
      ${settings.emailEnabled ? 'On' : 'Off'}${
        settings.emailEnabled &&
        settings.recipients.length > 0 &&
        html` — <span class="list-inline">${settings.recipients.join(', ')}</span>`
      }
    </dd>
    <dt>Frequency mode</dt>
    <dd>${frequencySummary(settings)}</dd>
    <dt>Webhooks</dt>
    <dd>
      ${settings.webhookEnabled ? 'On' : 'Off'}${
        settings.webhookEnabled && names.length > 0 && html` — ${names.join(', ')}`
      }
    </dd>
    <dt>Max events per notification</dt>
    <dd>${n(settings.maxEventsPerNotification)}</dd>
    <dt>Silencing</dt>
    <dd>${silence.kind === 'on' ? 'Not silenced' : silence.summary}</dd>
  </dl>`;
}

function toggleForm(model: DetectionNotificationsModel): SafeHtml {
  const on = model.config.useCustom;
  return html`<form
    class="toggle-row"
    method="post"
    action="${notificationsPath(model.detectionId)}/custom"
  >
    ${csrfField(model.csrfToken)}
    <input type="hidden" name="use_custom" value="${on ? 'off' : 'on'}" />
    <button
      class="switch"
      type="submit"
      role="switch"
      aria-checked="${on ? 'true' : 'false'}"
      aria-describedby="custom-hint"
    >
      <span class="switch-track" aria-hidden="true"><span class="switch-thumb"></span></span>
      <span class="switch-label">Use custom notification configuration</span>
    </button>
    <p class="hint" id="custom-hint">
      ${
        on
          ? 'On: this detection uses its own settings below. Turn it off to follow the global settings again; its own settings are then discarded.'
          : html`Off: this detection follows the
              <a href="${NOTIFICATIONS_PATH}">global notification settings</a>, including later
              changes. Turning it on starts from a copy of them.`
      }
    </p>
  </form>`;
}

function silenceForm(model: DetectionNotificationsModel, silence: SilenceStatus): SafeHtml {
  const own = model.config.useCustom;
  return html`<form
    class="card-footer"
    method="post"
    action="${notificationsPath(model.detectionId)}/silence"
    aria-label="Silence this detection"
  >
    ${csrfField(model.csrfToken)}
    ${
      own &&
      silence.kind !== 'on' &&
      html`<button class="button button-primary" type="submit" name="silence" value="resume">
        Resume
      </button>`
    }
    <span class="button-group" role="group" aria-label="Snooze this detection">
      <button class="button" type="submit" name="silence" value="1h">Snooze 1 h</button>
      <button class="button" type="submit" name="silence" value="24h">Snooze 24 h</button>
      <button class="button" type="submit" name="silence" value="7d">Snooze 7 d</button>
    </span>
    ${
      !(own && silence.kind === 'disabled') &&
      html`<button class="button button-subtle-danger" type="submit" name="silence" value="disable">
        Disable
      </button>`
    }
    <p class="hint">
      ${
        own
          ? 'Silencing keeps this detection’s custom settings; it stays custom after a snooze ends.'
          : 'Snoozing or disabling copies the global settings into a custom configuration for this detection; it stays custom afterwards.'
      }
    </p>
  </form>`;
}

function providerChoices(
  model: DetectionNotificationsModel,
  values: NotificationSettingsFormValues,
  error: string | undefined,
): SafeHtml {
  if (model.providers.length === 0) {
    return html`<div class="field" id="providers" tabindex="-1">
      <span class="label">Providers</span>
      ${fieldError('providers-error', error)}
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
    ${describedBy(error !== undefined && 'providers-error')}
  >
    <legend class="label">Providers</legend>
    ${fieldError('providers-error', error)}
    <div class="choices">
      ${model.providers.map(
        (p) =>
          html`<label class="choice">
            <input
              type="checkbox"
              name="provider"
              value="${p.id}"
              ${flag('checked', values.providerIds.includes(p.id))}
              ${invalid(error !== undefined)}
            />
            <span
              >${p.name}<span class="choice-desc"
                >${p.kind === 'automation' ? 'Automation platform' : 'Custom webhook'}</span
              ></span
            >
          </label>`,
      )}
    </div>
  </fieldset>`;
}

function customForm(model: DetectionNotificationsModel, custom: NotificationSettings): SafeHtml {
  const values = model.refused?.values ?? formValuesOf(custom);
  const e = model.refused?.errors ?? { other: [] };
  const items = [
    e.recipients && { href: '#recipients', message: e.recipients },
    e.frequency && { href: '#frequency-batch', message: e.frequency },
    e.threshold && { href: '#threshold', message: e.threshold },
    e.batchWindowMinutes && { href: '#batch-window', message: e.batchWindowMinutes },
    e.providers && { href: '#providers', message: e.providers },
    e.maxEvents && { href: '#max-events', message: e.maxEvents },
    ...e.other.map((message) => ({ message })),
  ].filter((item): item is { href?: string; message: string } => Boolean(item));
  return html`<form
    class="detection-settings"
    method="post"
    action="${notificationsPath(model.detectionId)}"
    novalidate
    aria-labelledby="custom-settings-heading"
  >
    ${csrfField(model.csrfToken)}
    <div class="card-body">
      <h3 id="custom-settings-heading">Custom settings of this detection</h3>
      ${errorSummary('The settings were not saved', items)}
      <div class="settings-grid">
        <div>
          <label class="choice">
            <input
              type="checkbox"
              id="email-enabled"
              name="email_enabled"
              ${flag('checked', values.emailEnabled)}
            />
            <span>Send email notifications</span>
          </label>
          ${recipientsField({ value: values.recipients, error: e.recipients, rows: 3 })}
          <label class="choice">
            <input
              type="checkbox"
              id="webhook-enabled"
              name="webhook_enabled"
              ${flag('checked', values.webhookEnabled)}
            />
            <span>Send webhook notifications</span>
          </label>
          ${providerChoices(model, values, e.providers)}
        </div>
        <div>
          <fieldset class="field" ${describedBy(e.frequency !== undefined && 'frequency-error')}>
            <legend class="label">Frequency mode</legend>
            ${fieldError('frequency-error', e.frequency)}
            <div class="choices">
              ${FREQUENCY_CHOICES.map(
                (choice) =>
                  html`<label class="choice">
                    <input
                      type="radio"
                      id="frequency-${choice.key}"
                      name="frequency"
                      value="${choice.key}"
                      ${flag('checked', values.frequency === choice.key)}
                      ${invalid(e.frequency !== undefined)}
                    />
                    <span
                      >${choice.label}<span class="choice-desc">${choice.description}</span></span
                    >
                  </label>`,
              )}
            </div>
          </fieldset>
          ${numberField({ id: 'threshold', name: 'threshold', label: 'Notify when the event count exceeds', hint: 'Required for Threshold mode.', value: values.threshold, error: e.threshold })}
          ${numberField({ id: 'batch-window', name: 'batch_window_minutes', label: 'Batch window (minutes)', hint: `Default ${DEFAULT_BATCH_WINDOW_MINUTES}; from ${MIN_BATCH_WINDOW_MINUTES} to ${n(MAX_BATCH_WINDOW_MINUTES)}.`, value: values.batchWindowMinutes, error: e.batchWindowMinutes })}
          ${numberField({ id: 'max-events', name: 'max_events', label: 'Max events per notification', hint: `Default ${n(DEFAULT_MAX_EVENTS_PER_NOTIFICATION)}; from ${MIN_MAX_EVENTS_PER_NOTIFICATION} to ${n(MAX_MAX_EVENTS_PER_NOTIFICATION)}.`, value: values.maxEvents, error: e.maxEvents })}
        </div>
      </div>
    </div>
    <div class="card-footer">
      <button class="button button-primary" type="submit">Save settings</button>
      <a class="button" href="${detectionPath(model.detectionId)}#notifications">Discard changes</a>
    </div>
  </form>`;
}

/** The notification card of a detection (SPEC.md §2.5, §3.2). */
export function detectionNotificationsSection(model: DetectionNotificationsModel): SafeHtml {
  const effective = resolveEffectiveSettings(model.global, model.config);
  const silence = silenceStatus(effective.settings.silence, model.now);
  const source =
    effective.source === 'custom'
      ? 'This detection uses its own notification settings.'
      : 'This detection follows the global notification settings.';
  return html`<section
    class="card"
    id="notifications"
    tabindex="-1"
    aria-labelledby="notifications-heading"
  >
    <div class="card-header split">
      <div>
        <h2 id="notifications-heading">Notifications</h2>
        <p>${source}${silence.kind !== 'on' && ` ${silence.summary}.`}</p>
      </div>
      ${silenceBadge(silence)}
    </div>
    ${model.notice && html`<div class="notice-in-card">${noticeAlert(model.notice)}</div>`}
    ${
      model.canEdit
        ? html`<div class="card-body">${toggleForm(model)}</div>
            ${
              effective.source === 'custom'
                ? customForm(model, effective.settings)
                : html`<div class="card-body inherited">
                    <h3>Global settings in force</h3>
                    ${settingsSummary(effective.settings, model.providers, model.now)}
                  </div>`
            }
            ${silenceForm(model, silence)}`
        : html`<div class="card-body">
              ${settingsSummary(effective.settings, model.providers, model.now)}
            </div>
            <div class="card-footer">
              <p class="muted">Only workspace admins can change notification settings.</p>
            </div>`
    }
  </section>`;
}

import { type WebhookProviderView } from '@vigil/control-plane';
import { quantity } from '@vigil/contracts';
import { html, type SafeHtml } from '@vigil/http';
import {
  resolveEffectiveSettings,
  type DetectionNotificationConfig,
  type NotificationSettings,
} from '@vigil/notification-policy';
import { notificationSettingsEditor } from '../notifications/notification-settings-editor';
import {
  formValuesOf,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from '../notifications/notification-settings-form';
import { silenceBadge } from '../notifications/silence-badge';
import { silenceStatus, type SilenceStatus } from '../notifications/silence-status';
import { csrfField } from '../views/csrf-field';
import { cardNotice } from '../views/notice';
import { detectionPath } from './detection-format';
import { dryRunPath } from './detection-dry-run-page';

const NOTIFICATIONS_PATH = '/settings/notifications';
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
      return `Batch: one digest every ${quantity(settings.batchWindowMinutes, 'minute')}`;
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
        <p>
          <a href="${dryRunPath(model.detectionId)}">What would be sent now</a>: each channel and
          target, and why not.
        </p>
      </div>
      ${silenceBadge(silence)}
    </div>
    ${cardNotice(model.notice)}
    ${
      model.canEdit
        ? html`<div class="card-body">${toggleForm(model)}</div>
            ${
              effective.source === 'custom'
                ? notificationSettingsEditor({
                    layout: 'card',
                    action: notificationsPath(model.detectionId),
                    csrfToken: model.csrfToken,
                    values: model.refused?.values ?? formValuesOf(effective.settings),
                    errors: model.refused?.errors,
                    providers: model.providers,
                    discardHref: `${detectionPath(model.detectionId)}#notifications`,
                  })
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

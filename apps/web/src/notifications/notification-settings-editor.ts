import { type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import {
  DEFAULT_BATCH_WINDOW_MINUTES,
  DEFAULT_MAX_EVENTS_PER_NOTIFICATION,
  MAX_BATCH_WINDOW_MINUTES,
  MAX_MAX_EVENTS_PER_NOTIFICATION,
  MIN_BATCH_WINDOW_MINUTES,
  MIN_MAX_EVENTS_PER_NOTIFICATION,
} from '@vigil/notification-policy';
import { choice } from '../views/choice';
import { csrfField } from '../views/csrf-field';
import { errorSummary, type ErrorSummaryItem } from '../views/error-summary';
import { radioGroup } from '../views/radio-group';
import { describedBy, fieldError, formField, textField } from '../views/form-field';
import {
  FREQUENCY_CHOICES,
  type NotificationSettingsFormErrors,
  type NotificationSettingsFormValues,
} from './notification-settings-form';

const INTEGRATIONS_PATH = '/settings/integrations';
const n = (value: number) => value.toLocaleString('en-US');

/**
 * The one form for notification settings (SPEC.md §2.5), global or of a detection: `page` lays
 * its groups out as the cards of Settings → Notifications, `card` as two columns inside a
 * detection's Notifications card, with its own error summary.
 */
export interface NotificationSettingsEditorModel {
  readonly layout: 'page' | 'card';
  readonly action: string;
  readonly csrfToken: string;
  /** What the form shows: the stored settings, or what was typed when refused. */
  readonly values: NotificationSettingsFormValues;
  readonly errors?: NotificationSettingsFormErrors;
  readonly providers: readonly WebhookProviderView[];
  readonly discardHref: string;
}

/** The problems of a refused form, each linking to its control, in the order of the form. */
export function settingsErrorItems(
  errors: NotificationSettingsFormErrors | undefined,
): ErrorSummaryItem[] {
  if (errors === undefined) return [];
  return [
    errors.recipients && { href: '#recipients', message: errors.recipients },
    errors.frequency && { href: '#frequency-batch', message: errors.frequency },
    errors.threshold && { href: '#threshold', message: errors.threshold },
    errors.batchWindowMinutes && { href: '#batch-window', message: errors.batchWindowMinutes },
    errors.providers && { href: '#providers', message: errors.providers },
    errors.maxEvents && { href: '#max-events', message: errors.maxEvents },
    ...errors.other.map((message) => ({ message })),
  ].filter((item): item is ErrorSummaryItem => Boolean(item));
}

export function settingsErrorSummary(errors: NotificationSettingsFormErrors | undefined) {
  return errorSummary('The settings were not saved', settingsErrorItems(errors));
}

function numberField(options: {
  id: string;
  name: string;
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
}): SafeHtml {
  return textField({ ...options, width: 'narrow', inputmode: 'numeric' });
}

function emailFields(model: NotificationSettingsEditorModel, e: NotificationSettingsFormErrors) {
  const rows = model.layout === 'page' ? '4' : '3';
  return html`${choice({
    type: 'checkbox',
    id: 'email-enabled',
    name: 'email_enabled',
    checked: model.values.emailEnabled,
    label: 'Send email notifications',
  })}
  ${formField(
    {
      id: 'recipients',
      label: 'Recipients',
      hint: 'One address per line, or separated by commas.',
      error: e.recipients,
    },
    (a11y) =>
      html`<textarea
        id="recipients"
        name="recipients"
        rows="${rows}"
        spellcheck="false"
        autocomplete="off"
        ${a11y}
      >
${model.values.recipients}</textarea>`,
  )}`;
}

function frequencyFields(
  model: NotificationSettingsEditorModel,
  e: NotificationSettingsFormErrors,
) {
  const { values } = model;
  return html`${radioGroup({
    name: 'frequency',
    legend: 'Frequency mode',
    value: values.frequency,
    error: e.frequency,
    options: FREQUENCY_CHOICES,
  })}
  ${numberField({ id: 'threshold', name: 'threshold', label: 'Notify when the event count exceeds', hint: 'Required for Threshold mode: a whole number of events.', value: values.threshold, error: e.threshold })}
  ${numberField({ id: 'batch-window', name: 'batch_window_minutes', label: 'Batch window (minutes)', hint: `How often Batch mode sends its digest. Default ${DEFAULT_BATCH_WINDOW_MINUTES}; from ${MIN_BATCH_WINDOW_MINUTES} to ${n(MAX_BATCH_WINDOW_MINUTES)}.`, value: values.batchWindowMinutes, error: e.batchWindowMinutes })}`;
}

function providerChoices(model: NotificationSettingsEditorModel, error: string | undefined) {
  const { values, providers } = model;
  const bad = error !== undefined;
  if (providers.length === 0) {
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
    ${describedBy('providers-hint', bad && 'providers-error')}
  >
    <legend class="label">Providers</legend>
    <p class="hint" id="providers-hint">
      Every selected provider gets each detection’s notification at once, in every frequency mode.
      <a href="${INTEGRATIONS_PATH}">Manage providers in Integrations</a>.
    </p>
    ${fieldError('providers-error', error)}
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

function webhookFields(model: NotificationSettingsEditorModel, e: NotificationSettingsFormErrors) {
  return html`${choice({
    type: 'checkbox',
    id: 'webhook-enabled',
    name: 'webhook_enabled',
    checked: model.values.webhookEnabled,
    label: 'Send webhook notifications',
  })}
  ${providerChoices(model, e.providers)}`;
}

function limitFields(model: NotificationSettingsEditorModel, e: NotificationSettingsFormErrors) {
  return numberField({
    id: 'max-events',
    name: 'max_events',
    label: 'Max events per notification',
    hint: `Event summaries attached to one notification; counts stay exact. Default ${n(DEFAULT_MAX_EVENTS_PER_NOTIFICATION)}; from ${MIN_MAX_EVENTS_PER_NOTIFICATION} to ${n(MAX_MAX_EVENTS_PER_NOTIFICATION)}.`,
    value: model.values.maxEvents,
    error: e.maxEvents,
  });
}

function buttons(model: NotificationSettingsEditorModel): SafeHtml {
  return html`<div class="card-footer">
    <button class="button button-primary" type="submit">Save settings</button>
    <a class="button" href="${model.discardHref}">Discard changes</a>
  </div>`;
}

function group(id: string, heading: string, description: string, body: SafeHtml): SafeHtml {
  return html`<section class="card" aria-labelledby="${id}-heading">
    <div class="card-header">
      <h2 id="${id}-heading">${heading}</h2>
      <p>${description}</p>
    </div>
    <div class="card-body">${body}</div>
  </section>`;
}

function pageLayout(model: NotificationSettingsEditorModel, e: NotificationSettingsFormErrors) {
  return html`<form class="settings-form" method="post" action="${model.action}" novalidate>
    ${csrfField(model.csrfToken)}
    ${group('email', 'Email', 'Who gets email about detections with new events and updated investigations.', emailFields(model, e))}
    ${group('frequency', 'Frequency', 'When email is sent. Webhooks always fire immediately, in every mode.', frequencyFields(model, e))}
    ${group('webhook', 'Webhooks', 'An HTTP POST with a JSON body to enrolled providers, for every detection update.', webhookFields(model, e))}
    <section class="card" aria-labelledby="limits-heading">
      <div class="card-header"><h2 id="limits-heading">Limits</h2></div>
      <div class="card-body">${limitFields(model, e)}</div>
      ${buttons(model)}
    </section>
  </form>`;
}

function cardLayout(model: NotificationSettingsEditorModel, e: NotificationSettingsFormErrors) {
  return html`<form
    class="detection-settings"
    method="post"
    action="${model.action}"
    novalidate
    aria-labelledby="custom-settings-heading"
  >
    ${csrfField(model.csrfToken)}
    <div class="card-body">
      <h3 id="custom-settings-heading">Custom settings of this detection</h3>
      ${settingsErrorSummary(model.errors)}
      <div class="settings-grid">
        <div>${emailFields(model, e)} ${webhookFields(model, e)}</div>
        <div>${frequencyFields(model, e)} ${limitFields(model, e)}</div>
      </div>
    </div>
    ${buttons(model)}
  </form>`;
}

export function notificationSettingsEditor(model: NotificationSettingsEditorModel): SafeHtml {
  const e = model.errors ?? { other: [] };
  return model.layout === 'page' ? pageLayout(model, e) : cardLayout(model, e);
}

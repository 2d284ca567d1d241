import { WEBHOOK_PROVIDER_NAME_MAX_LENGTH, WEBHOOK_URL_MAX_LENGTH } from '@vigil/control-plane';
import { PAGERDUTY_SEVERITIES } from '@vigil/destinations';
import { html } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { errorSummary } from '../views/error-summary';
import { formField, textField } from '../views/form-field';
import { appPage, pageHeader } from '../views/layout';
import { radioGroup } from '../views/radio-group';
import { INTEGRATIONS_BREADCRUMB, INTEGRATIONS_PATH } from './integrations-list-page';
import { EMPTY_FILTER_FORM, FILTER_FIELD_ANCHORS, filterFields } from './provider-filter-form';
import {
  DESTINATION_CHOICES,
  EMPTY_PROVIDER_FORM,
  KIND_CHOICES,
  REGION_CHOICES,
  type ProviderFormErrors,
  type ProviderFormValues,
} from './webhook-provider-form';

/** Where each field's error links to in the summary, in the order the form shows them. */
const FIELD_ANCHORS: readonly [keyof ProviderFormErrors, string][] = [
  ['name', '#name'],
  ['kind', `#kind-${KIND_CHOICES[0].key}`],
  ['destination', `#destination-${DESTINATION_CHOICES[0].key}`],
  ['url', '#url'],
  ['routingKey', '#routingKey'],
  ['region', `#region-${REGION_CHOICES[0].key}`],
  ['source', '#source'],
  ['severityBands', '#severityBands'],
  ['severityUnscored', '#severityUnscored'],
  ...FILTER_FIELD_ANCHORS,
];

/**
 * The enrollment form: name, kind and what the provider receives, then the URL (a webhook, Slack
 * or Teams) or PagerDuty's settings. Both sections are in the page; the script shows the one of
 * the chosen destination (without it, each says which destinations it is for).
 */
export function enrollProviderPage(
  viewer: Viewer,
  values: ProviderFormValues,
  errors?: ProviderFormErrors,
) {
  const e = errors ?? {};
  const v = { ...EMPTY_PROVIDER_FORM, ...values };
  const items = FIELD_ANCHORS.flatMap(([key, href]) =>
    e[key] === undefined ? [] : [{ href, message: e[key] }],
  );
  const title = 'Enroll a webhook provider';
  return appPage(
    viewer,
    { title: items.length > 0 ? `Error: ${title}` : title, path: INTEGRATIONS_PATH },
    html`${pageHeader({
        breadcrumb: INTEGRATIONS_BREADCRUMB,
        title,
        description:
          'Vigil will send notifications here: its JSON payload to a webhook, or a message to Slack, Microsoft Teams or PagerDuty. A webhook’s signing secret is shown once, right after enrollment.',
      })}
      ${errorSummary('The provider was not enrolled', items)}
      <form method="post" action="${INTEGRATIONS_PATH}" novalidate data-destination-form>
        ${csrfField(viewer.csrfToken)}
        <section class="card" aria-labelledby="provider-heading">
          <div class="card-header"><h2 id="provider-heading">Provider</h2></div>
          <div class="card-body">
            ${textField({
              id: 'name',
              name: 'name',
              label: 'Name',
              hint: 'Shown in Notifications when selecting providers, and sent as the recipient name.',
              error: e.name,
              value: v.name,
              maxlength: WEBHOOK_PROVIDER_NAME_MAX_LENGTH,
              autofocus: errors === undefined,
            })}
            ${radioGroup({
              name: 'kind',
              legend: 'Kind',
              value: v.kind,
              error: e.kind,
              options: KIND_CHOICES,
            })}
            ${radioGroup({
              name: 'destination',
              legend: 'Sends',
              value: v.destination ?? 'webhook',
              error: e.destination,
              options: DESTINATION_CHOICES,
            })}
          </div>
        </section>
        <section
          class="card"
          aria-labelledby="address-heading"
          data-destination-section="webhook slack teams"
        >
          <div class="card-header">
            <h2 id="address-heading">Address</h2>
            <p>For a webhook, Slack or Microsoft Teams.</p>
          </div>
          <div class="card-body">
            ${textField({
              id: 'url',
              name: 'url',
              label: 'URL',
              hint: html`A webhook: any http(s) address reachable from Vigil (private, loopback and
                link-local addresses are refused unless the operator allows them). Slack: the app’s
                incoming webhook, <code>https://hooks.slack.com/services/…</code>. Teams: the
                workflow’s HTTP POST URL, its <code>sig</code> parameter included. Slack’s and
                Teams’ URLs are kept encrypted and never shown again in full.`,
              error: e.url,
              width: 'wide',
              value: v.url,
              inputmode: 'url',
              maxlength: WEBHOOK_URL_MAX_LENGTH,
              spellcheck: false,
              placeholder: 'https://',
            })}
          </div>
        </section>
        <section
          class="card"
          aria-labelledby="pagerduty-heading"
          data-destination-section="pagerduty"
        >
          <div class="card-header">
            <h2 id="pagerduty-heading">PagerDuty</h2>
            <p>For PagerDuty only.</p>
          </div>
          <div class="card-body">
            ${textField({
              id: 'routingKey',
              name: 'routingKey',
              label: 'Integration key',
              hint: 'The service’s Events API v2 integration key (32 letters and digits). Kept encrypted, never shown again.',
              error: e.routingKey,
              value: v.routingKey,
              maxlength: 64,
              spellcheck: false,
            })}
            ${radioGroup({
              name: 'region',
              legend: 'Region of the PagerDuty account',
              value: v.region || 'us',
              error: e.region,
              options: REGION_CHOICES,
            })}
            ${textField({
              id: 'source',
              name: 'source',
              label: 'Source',
              hint: 'Shown as the incident’s source; “vigil” when left empty.',
              error: e.source,
              value: v.source,
              maxlength: 255,
            })}
            ${formField(
              {
                id: 'severityBands',
                label: 'Severity by risk score',
                hint: 'One band per line, FROM-TO SEVERITY (info, warning, error or critical), from 0 up to 10 without gaps: a notification’s highest risk score picks its severity.',
                error: e.severityBands,
              },
              (a11y) =>
                html`<textarea
                  id="severityBands"
                  name="severityBands"
                  rows="5"
                  spellcheck="false"
                  ${a11y}
                >
${v.severityBands}</textarea>`,
            )}
            ${formField(
              {
                id: 'severityUnscored',
                label: 'Severity without a risk score',
                error: e.severityUnscored,
                width: 'narrow',
              },
              (a11y) =>
                html`<select id="severityUnscored" name="severityUnscored" ${a11y}>
                  ${PAGERDUTY_SEVERITIES.map(
                    (severity) =>
                      html`<option
                        value="${severity}"
                        ${severity === v.severityUnscored && html`selected`}
                      >
                        ${severity}
                      </option>`,
                  )}
                </select>`,
            )}
          </div>
        </section>
        <section class="card" aria-labelledby="filter-heading">
          <div class="card-header">
            <h2 id="filter-heading">Filter</h2>
            <p>
              Which notifications this provider receives. A notification it does not receive is
              listed among its deliveries as skipped, with the reason.
            </p>
          </div>
          <div class="card-body">${filterFields({ ...EMPTY_FILTER_FORM, ...values }, e)}</div>
        </section>
        <div class="form-actions">
          <button class="button button-primary" type="submit">Enroll provider</button>
          <a class="button" href="${INTEGRATIONS_PATH}">Cancel</a>
        </div>
      </form>`,
  );
}

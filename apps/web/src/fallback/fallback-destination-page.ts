import { type FallbackDestinationView, type WebhookProviderView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { csrfField } from '../views/csrf-field';
import { errorSummary } from '../views/error-summary';
import { formField } from '../views/form-field';
import { appPage, pageHeader } from '../views/layout';
import {
  FALLBACK_FIELDS,
  describeFallback,
  type FallbackFormErrors,
  type FallbackFormValues,
} from './fallback-destination-form';

export interface FallbackPageModel {
  /** Where the form posts and Cancel leads; the breadcrumb and the navigation's section. */
  readonly action: string;
  readonly backHref: string;
  readonly breadcrumb: readonly { label: string; href?: string }[];
  readonly section: string;
  /** Set for a detection: its name, and the global destination it would otherwise use. */
  readonly detection?: { readonly name: string; readonly global: FallbackDestinationView | null };
  readonly providers: readonly WebhookProviderView[];
  /** The destination as stored, for a provider no longer offered (disabled or deleted). */
  readonly current: FallbackDestinationView | null;
}

function providerOptions(model: FallbackPageModel, selected: string): SafeHtml {
  const offered = model.providers.map((p) => ({ id: p.id, name: p.name }));
  const current = model.current;
  // Kept selectable so saving the recipients does not drop a provider that is disabled now.
  if (current?.providerId && !offered.some((p) => p.id === current.providerId)) {
    offered.push({
      id: current.providerId,
      name: `${current.providerName ?? 'Deleted provider'} (not enabled)`,
    });
  }
  return html`<option value="" ${selected === '' && html`selected`}>None</option>
    ${offered.map(
      (p) =>
        html`<option value="${p.id}" ${p.id === selected && html`selected`}>${p.name}</option>`,
    )}`;
}

/** The fallback destination as a form (admins only): a provider, recipients, or both. */
export function fallbackDestinationPage(
  viewer: Viewer,
  model: FallbackPageModel,
  values: FallbackFormValues,
  errors: FallbackFormErrors = {},
): SafeHtml {
  const items = FALLBACK_FIELDS.flatMap((field) => {
    const message = errors[field];
    return message === undefined ? [] : [{ href: `#${field}`, message }];
  });
  const title =
    model.detection === undefined
      ? 'Global fallback destination'
      : `Fallback destination of ${model.detection.name}`;
  const global = model.detection?.global;
  return appPage(
    viewer,
    { title: items.length > 0 ? `Error: ${title}` : title, path: model.section },
    html`${pageHeader({
        breadcrumb: model.breadcrumb,
        title,
        description:
          model.detection === undefined
            ? 'Who is told, once, when a delivery dies after its last retry, with where it was going and why it failed. A detection may have its own instead.'
            : `Replaces the global fallback destination (${global ? describeFallback(global) : 'none'}) for this detection's deliveries. Leave both fields empty to use the global one again.`,
      })}
      ${errorSummary('The fallback destination was not changed', items)}
      <form method="post" action="${model.action}" novalidate>
        ${csrfField(viewer.csrfToken)}
        <section class="card" aria-labelledby="fallback-form-heading">
          <div class="card-header">
            <h2 id="fallback-form-heading">Destination</h2>
            <p>
              A provider, recipients, or both. Both empty:
              ${model.detection === undefined ? 'no fallback destination' : 'the global one applies'}.
            </p>
          </div>
          <div class="card-body">
            ${formField(
              {
                id: 'providerId',
                label: 'Provider',
                hint: 'An enabled provider; it receives the failure as a notice.',
                error: errors.providerId,
              },
              (a11y) =>
                html`<select id="providerId" name="providerId" ${a11y}>
                  ${providerOptions(model, values.providerId)}
                </select>`,
            )}
            ${formField(
              {
                id: 'recipients',
                label: 'Recipients',
                hint: 'Email addresses, one a line or separated by commas (at most 20).',
                error: errors.recipients,
                width: 'wide',
              },
              (a11y) =>
                html`<textarea
                  id="recipients"
                  name="recipients"
                  rows="4"
                  spellcheck="false"
                  autocomplete="off"
                  ${a11y}
                >
${values.recipients}</textarea>`,
            )}
          </div>
        </section>
        <div class="form-actions">
          <button class="button button-primary" type="submit">Save fallback destination</button>
          <a class="button" href="${model.backHref}">Cancel</a>
        </div>
      </form>`,
  );
}

import { flag, html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

/** Pieces shared by the forms: the CSRF field, errors next to controls, notices. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}

export function fieldError(id: string, message: string | undefined): SafeHtml {
  return html`${message && html`<p class="error-message" id="${id}">${icons.alert}${message}</p>`}`;
}

export function describedBy(...ids: (string | false | undefined)[]): SafeHtml {
  const list = ids.filter(Boolean).join(' ');
  return html`${list && html` aria-describedby="${list}"`}`;
}

export function invalid(on: boolean): SafeHtml {
  return html`${on && html` aria-invalid="true"`}`;
}

export function noticeAlert(notice: string | undefined): SafeHtml {
  return html`${
    notice &&
    html`<div class="alert alert-success" role="status">
      ${icons.check}
      <div>${notice}</div>
    </div>`
  }`;
}

/** The list of problems at the top of a refused form, each linking to its control. */
export function errorSummary(
  heading: string,
  items: readonly { href?: string; message: string }[],
  instruction = 'Fix the following and try again:',
): SafeHtml {
  if (items.length === 0) return html``;
  return html`<div
    class="alert alert-error"
    role="alert"
    tabindex="-1"
    id="error-summary"
    data-focus-on-load
  >
    ${icons.alert}
    <div>
      <h2>${heading}</h2>
      <p>${instruction}</p>
      <ul>
        ${items.map((item) =>
          item.href === undefined
            ? html`<li>${item.message}</li>`
            : html`<li><a href="${item.href}">${item.message}</a></li>`,
        )}
      </ul>
    </div>
  </div>`;
}

/**
 * A checkbox or radio with its label and an optional description, which is announced as the
 * control's description rather than part of its name.
 */
export function choice(control: {
  type: 'checkbox' | 'radio';
  id: string;
  name: string;
  value?: string;
  checked: boolean;
  invalid?: boolean;
  label: string;
  description?: SafeHtml | string;
  describedBy?: string;
}): SafeHtml {
  const descId = control.description === undefined ? undefined : `${control.id}-desc`;
  return html`<div class="choice">
    <input
      type="${control.type}"
      id="${control.id}"
      name="${control.name}"
      ${control.value === undefined ? '' : html`value="${control.value}"`}
      ${flag('checked', control.checked)}
      ${invalid(control.invalid === true)}
      ${describedBy(descId, control.describedBy)}
    />
    <div>
      <label for="${control.id}">${control.label}</label>
      ${descId && html`<span class="choice-desc" id="${descId}">${control.description}</span>`}
    </div>
  </div>`;
}

/** A whole-number field with its hint and, when refused, its error. */
export function numberField(options: {
  id: string;
  name: string;
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
}): SafeHtml {
  const { id, error } = options;
  return html`<div class="field field-narrow">
    <label for="${id}">${options.label}</label>
    <p class="hint" id="${id}-hint">${options.hint}</p>
    ${fieldError(`${id}-error`, error)}
    <input
      type="text"
      inputmode="numeric"
      id="${id}"
      name="${options.name}"
      value="${options.value}"
      autocomplete="off"
      ${invalid(error !== undefined)}
      ${describedBy(`${id}-hint`, error !== undefined && `${id}-error`)}
    />
  </div>`;
}

/** The email recipients box of the global and the per-detection notification settings. */
export function recipientsField(options: {
  value: string;
  error: string | undefined;
  rows: number;
}): SafeHtml {
  const { error } = options;
  return html`<div class="field">
    <label for="recipients">Recipients</label>
    <p class="hint" id="recipients-hint">One address per line, or separated by commas.</p>
    ${fieldError('recipients-error', error)}
    <textarea
      id="recipients"
      name="recipients"
      rows="${String(options.rows)}"
      spellcheck="false"
      autocomplete="off"
      ${invalid(error !== undefined)}${describedBy('recipients-hint', error !== undefined && 'recipients-error')}
    >
${options.value}</textarea>
  </div>`;
}

import { flag, html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

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

export interface FormFieldOptions {
  /** The control's id; its hint and error are `<id>-hint` and `<id>-error`. */
  readonly id: string;
  readonly label: string;
  readonly hint?: SafeHtml | string;
  readonly error?: string;
  /** Marks the control invalid without a message of its own (one shown elsewhere). */
  readonly invalid?: boolean;
  /** Another element describing the control, after its hint and error. */
  readonly describedBy?: string;
  readonly width?: 'narrow' | 'wide';
}

/**
 * A form control with its label, hint and error message. `control` renders the control; it
 * gets the attributes that tie it to them (aria-invalid, aria-describedby) to put in its tag.
 */
export function formField(
  options: FormFieldOptions,
  control: (a11y: SafeHtml) => SafeHtml,
): SafeHtml {
  const { id, hint, error } = options;
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const errorId = error === undefined ? undefined : `${id}-error`;
  const a11y = html`${invalid(error !== undefined || options.invalid === true)}${describedBy(
    hintId,
    errorId,
    options.describedBy,
  )}`;
  return html`<div class="field${options.width && ` field-${options.width}`}">
    <label for="${id}">${options.label}</label>
    ${hint !== undefined && html`<p class="hint" id="${hintId}">${hint}</p>`}
    ${fieldError(`${id}-error`, error)} ${control(a11y)}
  </div>`;
}

/** A one-line text input and its label, hint and error (formField), with its usual attributes. */
export function textField(
  options: FormFieldOptions & {
    readonly name: string;
    /** Absent: no value attribute (a password). */
    readonly value?: string;
    readonly type?: 'text' | 'email' | 'password';
    /** `off` unless told: what is typed here is rarely what a browser remembers. */
    readonly autocomplete?: string;
    readonly inputmode?: 'numeric' | 'decimal' | 'url';
    readonly maxlength?: number;
    readonly placeholder?: string;
    readonly required?: boolean;
    readonly autofocus?: boolean;
    readonly spellcheck?: false;
  },
): SafeHtml {
  return formField(
    options,
    (a11y) =>
      html`<input
        type="${options.type ?? 'text'}"
        ${options.inputmode && html`inputmode="${options.inputmode}"`}
        id="${options.id}"
        name="${options.name}"
        ${options.value !== undefined && html`value="${options.value}"`}
        ${options.maxlength !== undefined && html`maxlength="${options.maxlength}"`}
        ${options.spellcheck === false && html`spellcheck="false"`}
        autocomplete="${options.autocomplete ?? 'off'}"
        ${options.placeholder !== undefined && html`placeholder="${options.placeholder}"`}
        ${flag('required', options.required === true)}${flag('autofocus', options.autofocus === true)}${a11y}
      />`,
  );
}

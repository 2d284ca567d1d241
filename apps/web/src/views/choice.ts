import { flag, html, type SafeHtml } from '@vigil/http';
import { describedBy, invalid } from './form-field';

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

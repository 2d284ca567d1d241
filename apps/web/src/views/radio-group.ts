import { html, type SafeHtml } from '@vigil/http';
import { choice } from './choice';
import { describedBy, fieldError } from './form-field';

/**
 * One choice among a few, as radios with their descriptions under a legend. The radios' ids
 * are `<name>-<key>` and the error's `<name>-error`.
 */
export function radioGroup(group: {
  readonly name: string;
  readonly legend: string;
  readonly value: string;
  readonly error: string | undefined;
  readonly options: readonly { key: string; label: string; description: string }[];
}): SafeHtml {
  const { name, error } = group;
  const errorId = `${name}-error`;
  return html`<fieldset class="field" ${describedBy(error !== undefined && errorId)}>
    <legend class="label">${group.legend}</legend>
    ${fieldError(errorId, error)}
    <div class="choices">
      ${group.options.map((option) =>
        choice({
          type: 'radio',
          id: `${name}-${option.key}`,
          name,
          value: option.key,
          checked: group.value === option.key,
          invalid: error !== undefined,
          label: option.label,
          description: option.description,
        }),
      )}
    </div>
  </fieldset>`;
}

import { html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

/** One problem of a refused form, linking to its control when it has one. */
export interface ErrorSummaryItem {
  readonly href?: string;
  readonly message: string;
}

/** The list of problems at the top of a refused form, focused when the page loads. */
export function errorSummary(
  heading: string,
  items: readonly ErrorSummaryItem[],
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

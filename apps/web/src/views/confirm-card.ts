import { csrfField } from './csrf-field';
import { html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

/**
 * The question before an action that cannot be taken back: what it breaks, what it applies to,
 * and a form that posts the action with Cancel focused.
 */
export function confirmCard(confirm: {
  readonly question: string;
  readonly warning: string;
  /** `error` for what cannot be undone, `warning` for what can be recovered from. */
  readonly severity: 'warning' | 'error';
  readonly details: SafeHtml;
  readonly action: string;
  readonly csrfToken: string;
  readonly button: string;
  readonly cancelHref: string;
}): SafeHtml {
  const error = confirm.severity === 'error';
  return html`<section class="card" aria-labelledby="confirm-heading">
    <div class="card-header"><h2 id="confirm-heading">${confirm.question}</h2></div>
    <div class="card-body">
      <div class="alert ${error ? 'alert-error' : 'alert-warning'}">
        ${icons.warning}
        <div>${confirm.warning}</div>
      </div>
      <dl class="details">${confirm.details}</dl>
    </div>
    <form class="card-footer" method="post" action="${confirm.action}">
      ${csrfField(confirm.csrfToken)}
      <button class="button ${error ? 'button-danger' : 'button-primary'}" type="submit">
        ${confirm.button}
      </button>
      <a class="button" href="${confirm.cancelHref}" autofocus>Cancel</a>
    </form>
  </section>`;
}

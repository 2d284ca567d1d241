import { html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

/**
 * A credential shown this once, right after it was made: the value, read-only and focused, a Copy
 * button (revealed by the client script), what to know about it and the way on.
 */
export function secretShownOnce(secret: {
  /** The card's heading: what the credential belongs to. */
  readonly owner: string;
  /** The id of the value's input; its heading's id is derived from it. */
  readonly id: string;
  readonly label: string;
  readonly value: string;
  readonly details: SafeHtml;
  readonly doneHref: string;
}): SafeHtml {
  const headingId = `${secret.id}-heading`;
  return html`<section class="card" aria-labelledby="${headingId}">
    <div class="card-header"><h2 id="${headingId}">${secret.owner}</h2></div>
    <div class="card-body">
      <label for="${secret.id}">${secret.label}</label>
      <div class="secret">
        <input
          type="text"
          id="${secret.id}"
          value="${secret.value}"
          readonly
          spellcheck="false"
          autocomplete="off"
          data-focus-on-load
          aria-describedby="copy-status"
        />
        <button
          class="button"
          type="button"
          data-copy="${secret.id}"
          data-copy-status="copy-status"
          hidden
        >
          ${icons.copy}Copy
        </button>
      </div>
      <p class="copy-status" id="copy-status" role="status" aria-live="polite"></p>
      <dl class="details">${secret.details}</dl>
    </div>
    <div class="card-footer">
      <a class="button button-primary" href="${secret.doneHref}">Done</a>
    </div>
  </section>`;
}

import { html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

/** What the last change did, announced as the page's status; nothing without a notice. */
export function notice(text: string | undefined): SafeHtml {
  return html`${
    text &&
    html`<div class="alert alert-success" role="status">
      ${icons.check}
      <div>${text}</div>
    </div>`
  }`;
}

/** A notice inside a card, where the browser lands after a change made in that card. */
export function cardNotice(text: string | undefined): SafeHtml {
  return html`${text && html`<div class="notice-in-card">${notice(text)}</div>`}`;
}

import { html, type SafeHtml } from '@vigil/http';
import { icons } from './icons';

/** A warning announced as the page's status: a heading and what to do about it. */
export function warningStatus(heading: string, text: SafeHtml | string): SafeHtml {
  return html`<div class="alert alert-warning" role="status">
    ${icons.warning}
    <div>
      <h2>${heading}</h2>
      <p>${text}</p>
    </div>
  </div>`;
}

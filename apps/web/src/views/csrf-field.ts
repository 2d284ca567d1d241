import { html, type SafeHtml } from '@vigil/http';

/** The hidden field every state-changing form sends back (security/csrf.middleware.ts). */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${token}" />`;
}

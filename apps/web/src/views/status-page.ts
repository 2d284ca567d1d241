import { html, type SafeHtml } from '@vigil/http';
import { type Viewer } from '../security/signed-in-session.decorator';
import { appPage, standalonePage } from './layout';

export interface StatusPageModel {
  readonly status: number;
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly actions?: SafeHtml;
  readonly requestId?: string;
}

/** Refusals and failures, inside the application shell when someone is signed in. */
export function statusPage(
  viewer: Viewer | undefined,
  path: string,
  model: StatusPageModel,
): SafeHtml {
  const content = html`<div class="status-page">
    <p class="status-code">Error ${model.status}</p>
    <h1>${model.title}</h1>
    ${model.paragraphs.map((p) => html`<p class="muted">${p}</p>`)}
    ${model.requestId && html`<p class="muted">Reference: <span class="mono">${model.requestId}</span></p>`}
    ${model.actions && html`<div class="actions">${model.actions}</div>`}
  </div>`;
  if (viewer === undefined) {
    return standalonePage(model.title, html`<div class="auth-card">${content}</div>`);
  }
  return appPage(viewer, { title: model.title, path }, content);
}

import { TOKEN_STATE_LABELS, type ApiTokenView } from '@vigil/control-plane';
import { html, type SafeHtml } from '@vigil/http';

export function apiKeyStateBadge(token: ApiTokenView): SafeHtml {
  return html`<span class="badge badge-${token.state}">${TOKEN_STATE_LABELS[token.state]}</span>`;
}

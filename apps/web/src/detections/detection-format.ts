import { html, type SafeHtml } from '@vigil/http';

const COUNT = new Intl.NumberFormat('en-US');
const RISK = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatCount(n: number): string {
  return COUNT.format(n);
}

/** Risk scores are decimals; bands only colour them, the number is always shown. */
export function riskBadge(score: number): SafeHtml {
  const band = score >= 8 ? 'high' : score >= 5 ? 'medium' : 'low';
  return html`<span class="risk risk-${band}">${RISK.format(score)}</span>`;
}

export function detectionPath(id: string): string {
  return `/u/detections/${encodeURIComponent(id)}`;
}

/** A local link with its query string; parameters that are undefined or empty are left out. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(name, value);
  }
  const query = search.toString();
  return query === '' ? path : `${path}?${query}`;
}

import { html, type SafeHtml } from '@vigil/http';

const FORMAT = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

/** `3 Mar 2026, 09:05 UTC`: unambiguous for every reader, whatever their locale. */
export function formatDate(at: Date): string {
  return `${FORMAT.format(at)} UTC`;
}

/** A <time> element, or `fallback` when there is no date. */
export function timeElement(at: Date | null, fallback = 'Never'): SafeHtml {
  if (at === null) return html`<span class="muted">${fallback}</span>`;
  return html`<time datetime="${at.toISOString()}">${formatDate(at)}</time>`;
}

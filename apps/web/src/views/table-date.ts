import { formatDate } from './format-date';
import { html, type SafeHtml } from '@vigil/http';

/** A date on one line and its time below, for narrow table columns; `fallback` when there is none. */
export function tableDate(at: Date | null, fallback = 'Never'): SafeHtml {
  if (at === null) return html`<span class="muted">${fallback}</span>`;
  const [day, time] = formatDate(at).split(', ');
  return html`<time datetime="${at.toISOString()}">${day}<span class="time">${time}</span></time>`;
}

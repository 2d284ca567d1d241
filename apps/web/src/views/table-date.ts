import { html, type SafeHtml } from '@vigil/http';
import { formatDate } from './format-date';

/**
 * A date on one line and its time below, for narrow table columns; an ISO 8601 string is read
 * as a date. `fallback` when there is none.
 */
export function tableDate(at: Date | string | null, fallback = 'Never'): SafeHtml {
  if (at === null) return html`<span class="muted">${fallback}</span>`;
  const date = typeof at === 'string' ? new Date(at) : at;
  const [day, time] = formatDate(date).split(', ');
  return html`<time datetime="${date.toISOString()}"
    >${day}<span class="time">${time}</span></time
  >`;
}

import { html, type SafeHtml } from '@vigil/http';
import { type EventView } from '@vigil/search';
import { type DetectionOverview } from '@vigil/workspace';
import { dataTable } from '../views/data-table';
import { icons } from '../views/icons';
import { pager } from '../views/pager';
import { tableDate } from '../views/table-date';
import { detectionPath, riskBadge, withQuery } from './detection-format';

const QUERY_EXAMPLE = "risk_score > 7 AND happened > '2025-05-01T00:00:00.000Z'";

function eventFlags(event: EventView): SafeHtml {
  return html`${event.high_prevalence && html`<span class="tag">High prevalence</span>`}${
    event.allowlisted && html`<span class="tag">Allowlisted</span>`
  }`;
}

function eventRow(e: EventView): SafeHtml {
  return html`<tr data-event-id="${e.id}">
    <td class="cell-date">${tableDate(e.happened)}</td>
    <td class="cell-person">${e.employee_name}<span class="cell-sub">${e.employee_email}</span></td>
    <td class="cell-event">
      ${e.description || e.issue_type}<span class="cell-sub"
        >${e.issue_type} · ${e.asset_name} · <span class="mono">${e.id}</span></span
      >${eventFlags(e)}
    </td>
    <td>${e.source}</td>
    <td class="num">${riskBadge(e.risk_score)}</td>
  </tr>`;
}

function filterForm(model: DetectionOverview): SafeHtml {
  const { detection, events, users } = model;
  const path = detectionPath(detection.id);
  const bad = events.error !== undefined;
  return html`<form class="filter" method="get" action="${path}#events" role="search">
    ${users.cursor && html`<input type="hidden" name="users" value="${users.cursor}" />`}
    <label for="q">Filter events</label>
    <div class="filter-row">
      <input
        type="text"
        id="q"
        name="q"
        value="${events.query}"
        class="mono"
        spellcheck="false"
        autocomplete="off"
        placeholder="${QUERY_EXAMPLE}"
        ${bad ? html` aria-invalid="true"` : ''}
        aria-describedby="${bad ? 'q-error q-hint' : 'q-hint'}"
      />
      <button class="button" type="submit">Apply</button>
      ${events.query !== '' && html`<a class="button" href="${withQuery(path, { users: users.cursor })}#events">Clear</a>`}
    </div>
    ${bad && html`<p class="error-message" id="q-error" role="alert">${icons.alert}${events.error}</p>`}
    <p class="hint" id="q-hint">
      The query language of the API: fields id, employee_email, happened, risk_score, source,
      high_prevalence, allowlisted; for example <span class="mono">${QUERY_EXAMPLE}</span>.
    </p>
  </form>`;
}

function eventPager(model: DetectionOverview): SafeHtml {
  const { detection, events, users } = model;
  const path = detectionPath(detection.id);
  if (events.error !== undefined) return html``;
  return pager('Event pages', [
    events.cursor !== undefined && {
      label: 'Newest events',
      href: `${withQuery(path, { q: events.query, users: users.cursor })}#events`,
    },
    events.nextCursor !== null && {
      label: 'Older events',
      href: `${withQuery(path, { q: events.query, cursor: events.nextCursor, users: users.cursor })}#events`,
      next: true,
    },
  ]);
}

/** A detection's events, newest first, filtered by the query language of the API and paged. */
export function detectionEventsSection(model: DetectionOverview): SafeHtml {
  const { events } = model;
  return html`<section class="card" id="events" aria-labelledby="events-heading">
    <div class="card-header">
      <h2 id="events-heading">Events</h2>
      <p>Newest first.</p>
    </div>
    ${filterForm(model)}
    ${
      events.error !== undefined
        ? html``
        : events.items.length === 0
          ? html`<div class="empty">
              <h2>No events match</h2>
              <p>
                ${events.cursor ? 'This page is past the last matching event.' : 'Change or clear the filter.'}
              </p>
            </div>`
          : dataTable({
              caption: 'Events of this detection, newest first',
              className: 'events-table',
              columns: [
                { label: 'Happened' },
                { label: 'Person' },
                { label: 'Event' },
                { label: 'Source' },
                { label: 'Risk', numeric: true },
              ],
              rows: events.items.map(eventRow),
            })
    }
    ${eventPager(model)}
  </section>`;
}

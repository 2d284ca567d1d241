import { html, type SafeHtml } from '@vigil/http';
import { type AffectedUser } from '@vigil/search';
import { type DetectionOverview } from '@vigil/workspace';
import { dataTable } from '../views/data-table';
import { pager } from '../views/pager';
import { tableDate } from '../views/table-date';
import { detectionPath, formatCount, riskBadge, withQuery } from './detection-format';

function userRow(u: AffectedUser): SafeHtml {
  return html`<tr>
    <td class="cell-person">${u.employee_name}<span class="cell-sub">${u.employee_email}</span></td>
    <td class="num">${formatCount(u.event_count)}</td>
    <td class="num">${riskBadge(u.max_risk_score)}</td>
    <td class="cell-date">${tableDate(u.last_seen)}</td>
  </tr>`;
}

/** The people a detection's events concern, by email, a page at a time. */
export function detectionUsersSection(model: DetectionOverview): SafeHtml {
  const { detection, events, users } = model;
  const path = detectionPath(detection.id);
  const keep = { q: events.query, cursor: events.cursor };
  return html`<section class="card" id="users" aria-labelledby="users-heading">
    <div class="card-header">
      <h2 id="users-heading">Affected users</h2>
      <p>
        ${formatCount(detection.user_count)} ${detection.user_count === 1 ? 'person' : 'people'}, by
        email.
      </p>
    </div>
    ${
      users.items.length === 0
        ? html`<div class="empty"><p>No more affected users.</p></div>`
        : dataTable({
            caption: 'Affected users: person, events, highest risk and last event',
            columns: [
              { label: 'Person' },
              { label: 'Events', numeric: true },
              { label: 'Max risk', numeric: true },
              { label: 'Last event' },
            ],
            rows: users.items.map(userRow),
          })
    }
    ${pager('Affected user pages', [
      users.cursor !== undefined && {
        label: 'First users',
        href: `${withQuery(path, keep)}#users`,
      },
      users.nextCursor !== null && {
        label: 'More users',
        href: `${withQuery(path, { ...keep, users: users.nextCursor })}#users`,
        next: true,
      },
    ])}
  </section>`;
}

import { html, type SafeHtml } from '@vigil/http';
import { type DetectionListItem } from '@vigil/search';
import { type DetectionListPage } from '@vigil/workspace';
import { type Viewer } from '../security/signed-in-session.decorator';
import { dataTable } from '../views/data-table';
import { appPage, pageHeader } from '../views/layout';
import { pager } from '../views/pager';
import { tableDate } from '../views/table-date';
import { detectionPath, formatCount, riskBadge, withQuery } from './detection-format';

export const DETECTIONS_PATH = '/u/detections';

function detectionRow(d: DetectionListItem): SafeHtml {
  return html`<tr data-detection-id="${d.id}">
    <td class="cell-name">
      <a href="${detectionPath(d.id)}">${d.name || d.id}</a
      ><span class="cell-sub mono">${d.id}</span>
    </td>
    <td class="num">${formatCount(d.event_count)}</td>
    <td class="num">${riskBadge(d.max_risk_score)}</td>
    <td class="cell-date">${tableDate(d.last_seen)}</td>
  </tr>`;
}

function detectionPager(model: DetectionListPage): SafeHtml {
  if (model.items.length === 0) return html``;
  return pager('Detection pages', [
    model.paged && { label: 'First page', href: DETECTIONS_PATH },
    model.nextCursor !== null && {
      label: 'Next page',
      href: withQuery(DETECTIONS_PATH, { cursor: model.nextCursor }),
      next: true,
    },
  ]);
}

/** Monitor → Detections: every detection, most recently active first. */
export function detectionListPage(viewer: Viewer, model: DetectionListPage) {
  const { items } = model;
  return appPage(
    viewer,
    { title: 'Detections', path: DETECTIONS_PATH },
    html`${pageHeader({
        breadcrumb: [{ label: 'Monitor' }],
        title: 'Detections',
        description:
          'Every detection with events, the most recently active first. Open one for its events, affected users and notification settings.',
      })}
      <section class="card" aria-labelledby="detections-heading">
        <div class="card-header">
          <h2 id="detections-heading">Detections</h2>
          <p>Counts are exact. Affected users are counted on each detection’s page.</p>
        </div>
        ${
          items.length === 0
            ? html`<div class="empty">
                <h2>${model.paged ? 'No more detections' : 'No detections yet'}</h2>
                <p>
                  ${
                    model.paged
                      ? 'This page is past the end of the list.'
                      : 'Detections appear here as soon as connectors send their first events.'
                  }
                </p>
                ${model.paged && html`<a class="button" href="${DETECTIONS_PATH}">First page</a>`}
              </div>`
            : dataTable({
                caption:
                  'Detections: name, events, highest risk and last activity, most recent first',
                columns: [
                  { label: 'Detection' },
                  { label: 'Events', numeric: true },
                  { label: 'Max risk', numeric: true },
                  { label: 'Last activity' },
                ],
                rows: items.map(detectionRow),
              })
        }
        ${detectionPager(model)}
      </section>`,
  );
}

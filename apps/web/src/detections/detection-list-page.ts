import { type ActiveSession } from '@vigil/control-plane';
import { type DetectionListItem } from '@vigil/search';
import { html } from '@vigil/http';
import { appPage, pageHeader } from '../views/layout';
import { detectionPath, formatCount, riskBadge, tableDate, withQuery } from './detection-format';

export const DETECTIONS_PATH = '/u/detections';

export interface DetectionListModel {
  readonly items: readonly DetectionListItem[];
  readonly nextCursor: string | null;
  /** Whether this is a later page (offers the way back to the first). */
  readonly paged: boolean;
}

/** Monitor → Detections: every detection, most recently active first. */
export function detectionListPage(
  session: ActiveSession,
  csrfToken: string,
  model: DetectionListModel,
) {
  const { items } = model;
  return appPage(
    session,
    { title: 'Detections', csrfToken, path: DETECTIONS_PATH },
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
            : html`<div class="table-wrap">
                <table>
                  <caption class="visually-hidden">
                    Detections: name, events, highest risk and last activity, most recent first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Detection</th>
                      <th scope="col" class="num">Events</th>
                      <th scope="col" class="num">Max risk</th>
                      <th scope="col">Last activity</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${items.map(
                      (d) =>
                        html`<tr data-detection-id="${d.id}">
                          <td class="cell-name">
                            <a href="${detectionPath(d.id)}">${d.name || d.id}</a
                            ><span class="cell-sub mono">${d.id}</span>
                          </td>
                          <td class="num">${formatCount(d.event_count)}</td>
                          <td class="num">${riskBadge(d.max_risk_score)}</td>
                          <td class="cell-date">${tableDate(d.last_seen)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
        }
        ${
          (model.paged || model.nextCursor !== null) &&
          items.length > 0 &&
          html`<nav class="card-footer pager" aria-label="Detection pages">
            ${model.paged && html`<a class="button button-small" href="${DETECTIONS_PATH}">First page</a>`}
            ${
              model.nextCursor !== null &&
              html`<a
                class="button button-small"
                rel="next"
                href="${withQuery(DETECTIONS_PATH, { cursor: model.nextCursor })}"
                >Next page</a
              >`
            }
          </nav>`
        }
      </section>`,
  );
}

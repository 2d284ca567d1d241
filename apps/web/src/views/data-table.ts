import { html, type SafeHtml } from '@vigil/http';

export interface Column {
  readonly label: string;
  /** Right-aligned figures. */
  readonly numeric?: boolean;
  /** A heading only assistive technology reads (a column of buttons, say). */
  readonly hidden?: boolean;
}

/**
 * A table of rows, scrolling sideways on its own when it is wider than its card. The caption
 * names the table for assistive technology.
 */
export function dataTable(table: {
  readonly caption?: string;
  readonly className?: string;
  readonly columns: readonly Column[];
  readonly rows: readonly SafeHtml[];
}): SafeHtml {
  return html`<div class="table-wrap">
    <table${table.className && html` class="${table.className}"`}>
      ${
        table.caption &&
        html`<caption class="visually-hidden">
          ${table.caption}
        </caption>`
      }
      <thead>
        <tr>
          ${table.columns.map(
            (column) =>
              html`<th scope="col" ${column.numeric && html` class="num"`}>
                ${
                  column.hidden
                    ? html`<span class="visually-hidden">${column.label}</span>`
                    : column.label
                }
              </th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${table.rows}
      </tbody>
    </table>
  </div>`;
}

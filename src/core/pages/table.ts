// A table of records as the pages draw them: a caption, column headers, one row per record whose first cell is the
// row's header, in a scrolling box on narrow screens. Numbers and charts' data tables are charts.ts's dataTable.
import { html } from './html.ts';
import type { HtmlValue, SafeHtml } from './html.ts';

export function recordTable<T>(options: {
  caption: HtmlValue;
  columns: readonly string[];
  rows: readonly T[];
  /** The row's cells in column order; the first is its header. */
  cells: (row: T) => readonly HtmlValue[];
}): SafeHtml {
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${options.caption}
      </caption>
      <thead>
        <tr>
          ${options.columns.map((c) => html`<th scope="col">${c}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${options.rows.map((row) => {
          const [head, ...rest] = options.cells(row);
          return html`<tr>
            <th scope="row">${head}</th>
            ${rest.map((cell) => html`<td>${cell}</td>`)}
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

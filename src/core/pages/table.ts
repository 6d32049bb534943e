// A table of records as the pages draw them: a caption, column headers, one row per record with one cell as the
// row's header (the first unless told), in a scrolling box on narrow screens. Numbers and charts' data tables are
// charts.ts's dataTable.
import { html } from './html.ts';
import type { HtmlValue, SafeHtml } from './html.ts';

/** A column: its header, and a class for the header and every cell of it (`num`: figures, right-aligned). */
export type TableColumn = string | { label: HtmlValue; class: string };

export function recordTable<T>(options: {
  caption: HtmlValue;
  /** The caption for screen readers only, where a heading beside the table already says it. */
  hiddenCaption?: boolean;
  /** Classes beside `data` (`narrow`, …). */
  class?: string;
  /** Without the scrolling box (a table narrow enough for any screen). */
  noScroll?: boolean;
  columns: readonly TableColumn[];
  rows: readonly T[];
  /** The row's cells in column order. */
  cells: (row: T, index: number) => readonly HtmlValue[];
  /** Which cell is the row's header: the first by default. */
  rowHeader?: number;
}): SafeHtml {
  const columns = options.columns.map((c) => (typeof c === 'string' ? { label: c, class: '' } : c));
  const header = options.rowHeader ?? 0;
  // a header cell (scope col or row) or a data cell of column i, with the column's class
  const cell = (i: number, content: HtmlValue, scope?: 'col' | 'row') => {
    const cls = columns[i]?.class;
    if (scope === undefined) return cls ? html`<td class="${cls}">${content}</td>` : html`<td>${content}</td>`;
    return cls ? html`<th scope="${scope}" class="${cls}">${content}</th>` : html`<th scope="${scope}">${content}</th>`;
  };
  const table = html`<table class="data${options.class ? ` ${options.class}` : ''}">
    <caption${options.hiddenCaption ? html` class="visually-hidden"` : ''}>
      ${options.caption}
    </caption>
    <thead>
      <tr>
        ${columns.map((c, i) => cell(i, c.label, 'col'))}
      </tr>
    </thead>
    <tbody>
      ${options.rows.map(
        (row, r) =>
          html`<tr>
            ${options.cells(row, r).map((content, i) => cell(i, content, i === header ? 'row' : undefined))}
          </tr>`,
      )}
    </tbody>
  </table>`;
  return options.noScroll ? table : html`<div class="table-scroll">${table}</div>`;
}

/** A column of figures. */
export const numericColumn = (label: HtmlValue): TableColumn => ({ label, class: 'num' });

// A JATS/HTML table as a rectangular grid: rowspans and colspans are expanded, so column k of every row
// means the same thing. A spanning cell appears in each slot it covers, flagged `origin: false` after the first.

import { childElements, textOf, type XmlElement } from '../jats/tree.ts';

export interface GridCell {
  text: string;
  /** True in the slot where the cell is written; false in the slots a span copies it to. */
  origin: boolean;
  /** For a copy: whether a colspan (same row) or a rowspan (rows below) put it there. */
  copiedBy: 'col' | 'row' | null;
  colspan: number;
  rowspan: number;
  /** A <th>, or a cell whose whole text is bold. */
  header: boolean;
  /** Text of a bold run the cell starts with ('' if none): the label of "<bold>Antibodies</bold> <italic>notes</italic>". */
  lead: string;
}

export interface GridRow {
  section: 'thead' | 'tbody' | 'tfoot';
  cells: GridCell[];
}

const EMPTY: GridCell = { text: '', origin: true, copiedBy: null, colspan: 1, rowspan: 1, header: false, lead: '' };

function spanOf(value: string | undefined): number {
  const n = Number.parseInt(value ?? '1', 10);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 1000) : 1;
}

function isWhollyBold(cell: XmlElement): boolean {
  const text = textOf(cell);
  if (!text) return false;
  const boldText = cell.children
    .filter((c): c is XmlElement => typeof c !== 'string' && (c.name === 'bold' || c.name === 'b'))
    .map((c) => textOf(c))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return boldText.length > 0 && boldText.length >= text.length - 1;
}

function leadingBold(cell: XmlElement): string {
  let here = cell;
  // Through up to two wrappers (<p>, <styled-content>) to the first content.
  for (let depth = 0; depth < 3; depth++) {
    const first = here.children.find((c) => typeof c !== 'string' || c.trim() !== '');
    if (!first || typeof first === 'string') return '';
    if (first.name === 'bold' || first.name === 'b') return textOf(first);
    here = first;
  }
  return '';
}

/** Rows of a <table> in document order (thead, tbody…, tfoot, or bare <tr>), spans expanded. */
export function tableGrid(table: XmlElement): GridRow[] {
  const rows: { section: GridRow['section']; tr: XmlElement }[] = [];
  for (const child of childElements(table)) {
    if (child.name === 'tr') rows.push({ section: 'tbody', tr: child });
    else if (child.name === 'thead' || child.name === 'tbody' || child.name === 'tfoot') {
      for (const tr of childElements(child, 'tr')) rows.push({ section: child.name, tr });
    }
  }
  const grid: GridRow[] = [];
  // pending[col] = cells still covering that column from a rowspan above, with rows left.
  const pending: ({ cell: GridCell; left: number } | undefined)[] = [];
  for (const { section, tr } of rows) {
    const cells: GridCell[] = [];
    let col = 0;
    const fillPending = () => {
      while (pending[col] && pending[col]!.left > 0) {
        cells[col] = { ...pending[col]!.cell, origin: false, copiedBy: pending[col]!.cell.copiedBy ?? 'row' };
        pending[col]!.left--;
        col++;
      }
    };
    for (const cellEl of childElements(tr).filter((c) => c.name === 'td' || c.name === 'th')) {
      fillPending();
      const colspan = spanOf(cellEl.attrs.colspan);
      const rowspan = spanOf(cellEl.attrs.rowspan);
      const cell: GridCell = {
        text: textOf(cellEl),
        origin: true,
        copiedBy: null,
        colspan,
        rowspan,
        header: cellEl.name === 'th' || isWhollyBold(cellEl),
        lead: leadingBold(cellEl),
      };
      for (let k = 0; k < colspan; k++) {
        cells[col + k] = k === 0 ? cell : { ...cell, origin: false, copiedBy: 'col' };
        if (rowspan > 1) pending[col + k] = { cell: k === 0 ? cell : { ...cell, copiedBy: 'col' }, left: rowspan - 1 };
      }
      col += colspan;
    }
    fillPending();
    // Columns still covered by spans further right.
    for (let c = col; c < pending.length; c++) {
      if (pending[c] && pending[c]!.left > 0) {
        cells[c] = { ...pending[c]!.cell, origin: false, copiedBy: pending[c]!.cell.copiedBy ?? 'row' };
        pending[c]!.left--;
      }
    }
    grid.push({ section, cells });
  }
  const width = Math.max(0, ...grid.map((r) => r.cells.length));
  for (const row of grid) for (let c = 0; c < width; c++) row.cells[c] ??= EMPTY;
  return grid;
}

/** Non-empty cells of a row; a colspan counts once, a value carried down by a rowspan counts in each row. */
export function filledCells(row: GridRow): GridCell[] {
  const out: GridCell[] = [];
  for (const cell of row.cells) if (cell.text && cell.copiedBy !== 'col') out.push(cell);
  return out;
}

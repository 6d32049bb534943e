// Streamed .xlsx (Office Open XML SpreadsheetML, ECMA-376) writer.
//
// Why not write-excel-file (named in the stack): checked at version 4.1.1. Its writer takes the whole sheet as
// an array (validateSheetData requires Array.isArray), builds every sheet's XML as one string plus a
// shared-strings table of all text, and only then zips the finished files. Service E exports up to 10,000 rows
// from a database cursor that must never be held in memory at once, so this module writes the sheet XML row
// by row from an AsyncIterable and deflates it into the ZIP as it goes (zip.ts). Memory stays constant in the
// number of rows (measured by export-memory.test.ts).
//
// The package is minimal but complete: [Content_Types].xml, _rels/.rels, xl/workbook.xml,
// xl/_rels/workbook.xml.rels, xl/styles.xml, xl/worksheets/sheet1.xml.
// Layout: optional title rows (the first in a large bold font, the others plain), then a bold header row,
// then one row per data row. The header (and the titles above it) are frozen so they stay in view.
// Cells:
// - strings are inline strings (t="inlineStr"), so no shared-string table is ever held in memory; they are
//   stored as literal text (a string cell is never a formula in xlsx, so no formula guard is needed and the
//   text stays exact). Characters illegal in XML 1.0 (C0 controls except tab/LF/CR, lone surrogates,
//   U+FFFE/U+FFFF) are removed; CR is kept as `&#13;`; literal `_xHHHH_` sequences are escaped as
//   `_x005F_xHHHH_` so Excel does not decode them (ECMA-376 ST_Xstring).
// - Excel holds at most 32,767 characters in a cell: longer text is cut to 32,766 and ends with '…', and the
//   number of cut cells is reported through `onFinish` so a caller can log it.
// - finite numbers are numeric cells; NaN/±Infinity are left empty; bigints within ±2^53 are numbers, larger
//   ones are text (Excel keeps 15 significant digits, text keeps every digit).
// - booleans are boolean cells; null, undefined and empty text are empty cells (omitted).
// - Date objects are real date cells: the serial day number (UTC, 1900 date system) with a `yyyy-mm-dd`
//   style at midnight UTC and `yyyy-mm-dd hh:mm:ss` otherwise, so spreadsheets sort and filter them as dates.
//   Dates before 1900-03-01 (where Excel's serials are off by its 1900 leap-year bug) are written as ISO text.
//   Date-like strings stay strings: nothing is guessed.
// - arrays and other objects: their text as in cells.ts (arrays joined with '; ', objects as JSON).
// Limits: 1,048,576 rows and 16,384 columns per sheet (Excel's); exceeding them throws.

import { Readable } from 'node:stream';
import { CHUNK_CHARS, cellText, resolveColumns } from './cells.ts';
import type { ExportColumn, ResolvedColumn, RowSource } from './cells.ts';
import { zipChunks } from './zip.ts';

export interface XlsxOptions<Row> {
  columns: ReadonlyArray<ExportColumn<Row>>;
  /** Worksheet name; made valid for Excel by `sanitizeSheetName` (default "Sheet1"). */
  sheetName?: string;
  /** Rows written above the header, e.g. [["Key Resources Table"], ["DOI", "10.1101/…"], []]. */
  titleRows?: ReadonlyArray<ReadonlyArray<unknown>>;
  /** Keep the header (and title rows) in view while scrolling (default true). */
  freezeHeader?: boolean;
  /** zlib level 0–9 (default 6). */
  compressionLevel?: number;
  /** Timestamp recorded in the ZIP entries (default: now). */
  modifiedAt?: Date;
  /** Called once after the last row. */
  onFinish?: (stats: XlsxStats) => void;
}

export interface XlsxStats {
  /** Data rows written (title and header rows not counted). */
  rows: number;
  /** Cells whose text was cut to Excel's 32,767-character limit. */
  truncatedCells: number;
}

const XLSX_MAX_ROWS = 1_048_576;
const XLSX_MAX_COLUMNS = 16_384;
export const XLSX_MAX_CELL_CHARS = 32_767;

// cellXfs indices in styles.xml below.
const STYLE_HEADER = 1;
const STYLE_DATE = 2;
const STYLE_DATETIME = 3;
const STYLE_TITLE = 4;

const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** Column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

// XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
const XML_ILLEGAL = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
// Anything that needs more than a plain copy: markup characters, CR, controls, surrogates, U+FFFE/F.
const NEEDS_WORK = /[&<>"\r\x00-\x08\x0B\x0C\x0E-\x1F\uD800-\uDFFF\uFFFE\uFFFF]/;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** Removes characters XML 1.0 cannot carry. */
function stripXmlIllegal(text: string): string {
  return text.replace(XML_ILLEGAL, '');
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"\r]/g, (c) => ESCAPES[c]);
}

/**
 * Makes a name Excel accepts as a sheet name: at most 31 characters, none of `[]:*?/\`, not starting or
 * ending with an apostrophe, not empty, not the reserved "History".
 */
export function sanitizeSheetName(name: string | undefined): string {
  let clean = stripXmlIllegal(name ?? '')
    .replace(/[\x00-\x1F\x7F]/g, '')
    .replace(/[[\]:*?/\\]/g, '_')
    .trim();
  clean = Array.from(clean).slice(0, 31).join('');
  clean = clean.replace(/^'+|'+$/g, '').trim();
  if (clean === '') return 'Sheet1';
  return clean.toLowerCase() === 'history' ? 'History_' : clean;
}

const MS_PER_DAY = 86_400_000;
const EXCEL_EPOCH_OFFSET_DAYS = 25_569; // serial of 1970-01-01 in the 1900 date system
const FIRST_EXACT_SERIAL = 61; // 1900-03-01: earlier serials are shifted by the phantom 1900-02-29

const bits = new Float64Array(1);
const bitsAsInt = new BigInt64Array(bits.buffer);

/**
 * Serial day number of a UTC timestamp. The exact value is rarely a double; of the nearest doubles this picks
 * one at or just above it, so readers that floor `(serial - 25569) * 86400000` (read-excel-file does) get the
 * same millisecond back. The nudge is below a microsecond, far under what Excel displays.
 */
function excelSerial(ms: number): number {
  let serial = ms / MS_PER_DAY + EXCEL_EPOCH_OFFSET_DAYS;
  for (let i = 0; i < 4 && (serial - EXCEL_EPOCH_OFFSET_DAYS) * MS_PER_DAY < ms; i++) {
    bits[0] = serial;
    bitsAsInt[0] += 1n; // next representable double (serial is positive here)
    serial = bits[0];
  }
  return serial;
}

class SheetWriter<Row> {
  truncatedCells = 0;
  private readonly columns: ResolvedColumn<Row>[];
  private readonly refs: string[];

  constructor(columns: ResolvedColumn<Row>[]) {
    this.columns = columns;
    this.refs = columns.map((_, i) => columnName(i));
  }

  /** `<c>` for a text value, or '' when the text is empty. */
  private textCell(ref: string, text: string, style: number): string {
    let t = NEEDS_WORK.test(text) ? text.replace(XML_ILLEGAL, '') : text;
    if (t.length > XLSX_MAX_CELL_CHARS) {
      // Do not split a surrogate pair at the cut.
      let cut = XLSX_MAX_CELL_CHARS - 1;
      const code = t.charCodeAt(cut - 1);
      if (code >= 0xd800 && code <= 0xdbff) cut--;
      t = t.slice(0, cut) + '…';
      this.truncatedCells++;
    }
    if (t === '') return '';
    if (t.includes('_x')) t = t.replace(/_(?=x[0-9A-Fa-f]{4}_)/g, '_x005F_');
    if (NEEDS_WORK.test(t)) t = escapeXml(t);
    const space = /^\s|\s$/.test(t) ? ' xml:space="preserve"' : '';
    const s = style ? ` s="${style}"` : '';
    return `<c r="${ref}"${s} t="inlineStr"><is><t${space}>${t}</t></is></c>`;
  }

  cell(ref: string, value: unknown, textStyle: number): string {
    switch (typeof value) {
      case 'string':
        return this.textCell(ref, value, textStyle);
      case 'number':
        return Number.isFinite(value) ? `<c r="${ref}"><v>${value}</v></c>` : '';
      case 'boolean':
        return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
      case 'bigint':
        return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
          ? `<c r="${ref}"><v>${value}</v></c>`
          : this.textCell(ref, String(value), textStyle);
      case 'undefined':
        return '';
      case 'object': {
        if (value === null) return '';
        if (value instanceof Date) {
          const ms = value.getTime();
          if (Number.isNaN(ms)) return '';
          const serial = excelSerial(ms);
          if (serial < FIRST_EXACT_SERIAL) return this.textCell(ref, value.toISOString(), textStyle);
          const style = ms % MS_PER_DAY === 0 ? STYLE_DATE : STYLE_DATETIME;
          return `<c r="${ref}" s="${style}"><v>${serial}</v></c>`;
        }
        return this.textCell(ref, cellText(value), textStyle);
      }
      default:
        return this.textCell(ref, cellText(value), textStyle);
    }
  }

  /** A row of loose values (title or header rows). */
  plainRow(rowNumber: number, values: ReadonlyArray<unknown>, style: number): string {
    if (values.length > XLSX_MAX_COLUMNS) throw new RangeError(`xlsx rows hold at most ${XLSX_MAX_COLUMNS} cells`);
    let xml = `<row r="${rowNumber}">`;
    for (let i = 0; i < values.length; i++) xml += this.cell(columnName(i) + rowNumber, values[i], style);
    return xml + '</row>';
  }

  dataRow(rowNumber: number, row: Row): string {
    let xml = `<row r="${rowNumber}">`;
    const columns = this.columns;
    for (let i = 0; i < columns.length; i++) xml += this.cell(this.refs[i] + rowNumber, columns[i].read(row), 0);
    return xml + '</row>';
  }
}

function defaultWidth(header: string): number {
  return Math.min(50, Math.max(10, header.length + 2));
}

async function* sheetXml<Row>(
  rows: RowSource<Row>,
  options: XlsxOptions<Row>,
  columns: ResolvedColumn<Row>[],
  stats: XlsxStats,
): AsyncGenerator<string, void, undefined> {
  const writer = new SheetWriter(columns);
  const titleRows = options.titleRows ?? [];
  const headerRow = titleRows.length + 1;

  let xml = XML_DECL + `<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">`;
  if (options.freezeHeader ?? true) {
    const topLeft = `A${headerRow + 1}`;
    xml +=
      '<sheetViews><sheetView workbookViewId="0">' +
      `<pane ySplit="${headerRow}" topLeftCell="${topLeft}" activePane="bottomLeft" state="frozen"/>` +
      `<selection pane="bottomLeft" activeCell="${topLeft}" sqref="${topLeft}"/>` +
      '</sheetView></sheetViews>';
  } else {
    xml += '<sheetViews><sheetView workbookViewId="0"/></sheetViews>';
  }
  xml += '<sheetFormatPr defaultRowHeight="15"/><cols>';
  columns.forEach((c, i) => {
    const width = c.width !== undefined && Number.isFinite(c.width) && c.width > 0 ? Math.min(255, c.width) : defaultWidth(c.header);
    xml += `<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`;
  });
  xml += '</cols><sheetData>';
  titleRows.forEach((values, i) => {
    xml += writer.plainRow(i + 1, values, i === 0 ? STYLE_TITLE : 0);
  });
  xml += writer.plainRow(
    headerRow,
    columns.map((c) => c.header),
    STYLE_HEADER,
  );

  let rowNumber = headerRow;
  for await (const row of rows) {
    rowNumber++;
    if (rowNumber > XLSX_MAX_ROWS) throw new RangeError(`xlsx sheets hold at most ${XLSX_MAX_ROWS} rows`);
    xml += writer.dataRow(rowNumber, row);
    if (xml.length >= CHUNK_CHARS) {
      yield xml;
      xml = '';
    }
  }
  yield xml + '</sheetData></worksheet>';
  stats.rows = rowNumber - headerRow;
  stats.truncatedCells = writer.truncatedCells;
}

const CONTENT_TYPES_XML =
  XML_DECL +
  '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
  '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
  '</Types>';

const ROOT_RELS_XML =
  XML_DECL +
  `<Relationships xmlns="${NS_PKG_REL}">` +
  `<Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS_XML =
  XML_DECL +
  `<Relationships xmlns="${NS_PKG_REL}">` +
  `<Relationship Id="rId1" Type="${NS_REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${NS_REL}/styles" Target="styles.xml"/>` +
  '</Relationships>';

const FONT = '<sz val="11"/><name val="Calibri"/><family val="2"/>';
const STYLES_XML =
  XML_DECL +
  `<styleSheet xmlns="${NS_MAIN}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts>' +
  `<fonts count="3"><font>${FONT}</font><font><b/>${FONT}</font><font><b/><sz val="14"/><name val="Calibri"/><family val="2"/></font></fonts>` +
  // The first two fills are required by Excel (none and gray125).
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="5">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

function workbookXml(sheetName: string): string {
  return (
    XML_DECL +
    `<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
    '<bookViews><workbookView/></bookViews>' +
    `<sheets><sheet name="${escapeXml(sheetName).replaceAll("'", '&apos;')}" sheetId="1" r:id="rId1"/></sheets>` +
    '</workbook>'
  );
}

export async function* xlsxChunks<Row>(rows: RowSource<Row>, options: XlsxOptions<Row>): AsyncGenerator<Buffer, void, undefined> {
  const columns = resolveColumns(options.columns);
  if (columns.length > XLSX_MAX_COLUMNS) throw new RangeError(`xlsx sheets hold at most ${XLSX_MAX_COLUMNS} columns`);
  const stats: XlsxStats = { rows: 0, truncatedCells: 0 };
  yield* zipChunks(
    [
      { name: '[Content_Types].xml', data: CONTENT_TYPES_XML },
      { name: '_rels/.rels', data: ROOT_RELS_XML },
      { name: 'xl/workbook.xml', data: workbookXml(sanitizeSheetName(options.sheetName)) },
      { name: 'xl/_rels/workbook.xml.rels', data: WORKBOOK_RELS_XML },
      { name: 'xl/styles.xml', data: STYLES_XML },
      { name: 'xl/worksheets/sheet1.xml', data: sheetXml(rows, options, columns, stats) },
    ],
    { level: options.compressionLevel, modifiedAt: options.modifiedAt },
  );
  options.onFinish?.(stats);
}

/** The workbook as a byte stream, ready for `reply.send()`. */
export function xlsxReadable<Row>(rows: RowSource<Row>, options: XlsxOptions<Row>): Readable {
  return Readable.from(xlsxChunks(rows, options), { objectMode: false });
}

// Streamed CSV: UTF-8, a header row, RFC 4180 quoting (csv-stringify) and CRLF line endings.
//
// Decisions (common.md "Formats"):
// - Records end with CRLF, as RFC 4180 specifies; the last record ends with one too. Fields holding a bare CR
//   or LF are quoted as well (csv-stringify only quotes the record delimiter itself, so `quoted_match` adds
//   them), so a parser never splits a record inside a field.
// - Formula-injection guard: text that begins with `=`, `+`, `-`, `@`, tab or CR gets a leading `'`. Only
//   values that are JavaScript numbers or bigints are exempt: a negative NUMBER is data (-3 stays -3), while a
//   STRING starting with '-' ("-3", "-cmd") is escaped, since the writer cannot know what a spreadsheet will
//   make of it. The header row is guarded like any other text.
// - No byte order mark unless `bom: true` (some Excel versions need it to detect UTF-8).
// - Values become text as in cells.ts (`cellText`): null → empty, Date → ISO 8601, arrays joined with '; '.
// Rows are pulled one at a time and written in batches of at most ~64 KiB, so memory does not grow with the
// number of rows; a slow reader slows the row source down (back-pressure through async iteration).

import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { CHUNK_CHARS, cellText, guardFormula, resolveColumns } from './cells.ts';
import type { ExportColumn, RowSource } from './cells.ts';

export interface CsvOptions<Row> {
  columns: ReadonlyArray<ExportColumn<Row>>;
  /** Write the header row (default true). */
  header?: boolean;
  /** Start with a UTF-8 byte order mark (default false). */
  bom?: boolean;
  /** Prefix formula-like text with `'` (default true). */
  formulaGuard?: boolean;
  /** Called once after the last row, with the number of data rows written. */
  onFinish?: (stats: { rows: number }) => void;
}

const CSV_RECORD_DELIMITER = '\r\n';

// Most rows per csv-stringify call; the character bound below usually comes first.
const MAX_BATCH_ROWS = 1024;

const STRINGIFY_OPTIONS = {
  record_delimiter: CSV_RECORD_DELIMITER,
  // Two substring tests are cheaper than a regular expression per field.
  quoted_match: ['\r', '\n'],
};

export async function* csvChunks<Row>(rows: RowSource<Row>, options: CsvOptions<Row>): AsyncGenerator<Buffer, void, undefined> {
  const columns = resolveColumns(options.columns);
  const guard = options.formulaGuard ?? true;
  const text = (value: unknown): string => {
    const s = cellText(value);
    return guard && typeof value !== 'number' && typeof value !== 'bigint' ? guardFormula(s) : s;
  };

  let batch: string[][] = [];
  let batchChars = 0;
  let prefix = options.bom ? '\uFEFF' : '';
  const flush = (): Buffer => {
    const out = Buffer.from(prefix + stringify(batch, STRINGIFY_OPTIONS), 'utf8');
    prefix = '';
    batch = [];
    batchChars = 0;
    return out;
  };

  if (options.header ?? true) {
    batch.push(columns.map((c) => text(c.header)));
  }
  let count = 0;
  for await (const row of rows) {
    const record = new Array<string>(columns.length);
    for (let i = 0; i < columns.length; i++) {
      const s = text(columns[i].read(row));
      record[i] = s;
      batchChars += s.length + 1;
    }
    batch.push(record);
    count++;
    if (batchChars >= CHUNK_CHARS || batch.length >= MAX_BATCH_ROWS) yield flush();
  }
  if (batch.length > 0 || prefix !== '') yield flush();
  options.onFinish?.({ rows: count });
}

/** The CSV as a byte stream, ready for `reply.send()`. */
export function csvReadable<Row>(rows: RowSource<Row>, options: CsvOptions<Row>): Readable {
  return Readable.from(csvChunks(rows, options), { objectMode: false });
}

// Streaming reader of the grants CSV on papaparse's streaming parser (chunk mode): the file is decoded and
// parsed chunk by chunk and rows are handed over one at a time, so memory does not grow with the file, and
// an async onRow (a database write) holds the reading back (backpressure) instead of buffering rows.
import { createReadStream, statSync } from 'node:fs';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import Papa from 'papaparse';
import { resolveColumns } from './columns.ts';
import type { ColumnMapping, GrantsSchema } from './columns.ts';
import type { NotableMatcher } from './notable.ts';
import { mapRow } from './record.ts';
import type { GrantRecord, SkipReason } from './record.ts';
import { decodeByteCell } from '../../../core/text-decoding.ts';
import { checkLastRecord, countFileLineBreaks, countLineBreaks, fileTail } from './truncation.ts';
import type { TextEnd } from './truncation.ts';

export class GrantsCsvHeaderError extends Error {
  readonly missing: string[];
  constructor(message: string, missing: string[]) {
    super(message);
    this.name = 'GrantsCsvHeaderError';
    this.missing = missing;
  }
}

export interface ReadProgress {
  /** Data rows read so far (the header excluded). */
  rowsRead: number;
  recordsMapped: number;
  skipped: number;
  skipReasons: Record<string, number>;
  bytesRead: number;
  /** File size when reading a path; null for a stream. */
  totalBytes: number | null;
  done: boolean;
}

export interface ReadSummary {
  schema: GrantsSchema;
  referenceColumn: ColumnMapping['referenceColumn'];
  ignoredColumns: string[];
  rowsRead: number;
  recordsMapped: number;
  skipped: number;
  skipReasons: Record<string, number>;
  bytesRead: number;
}

export interface ReadGrantsOptions {
  onProgress?: (progress: ReadProgress) => void;
  /** Rows between two onProgress calls (default 10,000); a last call always comes at the end. */
  progressEveryRows?: number;
  onHeader?: (mapping: ColumnMapping) => void;
  onSkip?: (reason: SkipReason, rowNumber: number) => void;
  notable?: NotableMatcher;
}

/** Row number is 1 for the first data row (the line after the header, counting quoted newlines as one row). */
export type GrantRowHandler = (record: GrantRecord, rowNumber: number) => void | Promise<void>;

/** A line of only white space: not a row (cells as parsed: decoded here). */
function isBlankRow(cells: readonly string[]): boolean {
  return cells.length === 1 && decodeByteCell(cells[0]).trim() === '';
}

function isPromise(value: unknown): value is Promise<void> {
  return typeof value === 'object' && value !== null && typeof (value as Promise<void>).then === 'function';
}

interface RowSource {
  batches: AsyncIterable<string[][]>;
  bytesRead: () => number;
  totalBytes: number | null;
  /** After the last batch: how the text ended (see TextEnd). */
  end: () => TextEnd;
}

// The file is parsed as Latin-1 (one character a byte) and only the cells holding a byte above 127 are
// decoded as UTF-8 afterwards: the CSV's own characters (comma, quote, line breaks) are ASCII, and no byte of
// a multi-byte UTF-8 character is, so the cells come out the same. Decoded as UTF-8 at once, a chunk with a
// single character above U+00FF (a typographic apostrophe: one every 2 KB or so of the generated file)
// becomes a two-byte string, and so does every cell cut from it: parsing as Latin-1 is faster and keeps the
// peak memory of an import lower.
// A cell is then read by decodeByteCell (core/text-decoding.ts): UTF-8, stray bytes as Windows-1252, NUL as
// U+FFFD. The importer decodes only the cells a record is made of (mapRow's decodeCell), so the French
// columns are never decoded (and the French halves of bilingual cells are cut off before decoding: record.ts),
// which saves the reading thread much of its decoding. parseOnly, the
// benchmark's baseline, decodes every cell, as a parse does.

// Bytes read (and rows parsed) at a time. The rows of a parsed chunk stay alive until the last of them is
// handled, so every collection of the young generation meanwhile copies them: with 1 MiB chunks the reading
// thread spent much of its time in the collector. Smaller chunks copy less, but papaparse's own cost per chunk
// grows as they shrink: 64 KiB sits between the two (`npm run bench -- grants` measures an import).
const CHUNK_BYTES = 1 << 16;

/**
 * Bytes → Latin-1 text → papaparse in chunk mode → (with `decodeCells`) cells read as UTF-8. Each parsed chunk is one batch of
 * rows; while the consumer still holds a batch, the text stream is paused, so at most a couple of chunks are
 * ever in memory.
 */
function openRows(input: string | Readable, decodeCells: boolean): RowSource {
  let source: Readable;
  let text: Readable;
  let bytesRead: () => number;
  let totalBytes: number | null = null;
  // a stream's end and line breaks are noted as it passes (a file's are read from the file when asked)
  let tail = '';
  let streamLineBreaks = { n: 0, r: 0 };
  if (typeof input === 'string') {
    // stat before opening, so that a missing file fails here and leaves no stream behind
    totalBytes = statSync(input).size;
    const file = createReadStream(input, { encoding: 'latin1', highWaterMark: CHUNK_BYTES });
    source = file;
    text = file;
    bytesRead = () => file.bytesRead;
  } else {
    let bytes = 0;
    source = input;
    // Latin-1 maps every byte to one character, so a multi-byte character split across chunks needs no care.
    // A stream of text (not bytes) is turned back into its UTF-8 bytes first.
    const decode = new Transform({
      decodeStrings: false,
      transform(chunk: Buffer | string, _encoding, callback) {
        const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
        bytes += buffer.length;
        const latin1 = buffer.toString('latin1');
        if (latin1.length > 0) {
          tail = (tail + latin1).slice(-2);
          streamLineBreaks = {
            n: streamLineBreaks.n + countLineBreaks(latin1, '\n'),
            r: streamLineBreaks.r + countLineBreaks(latin1, '\r'),
          };
        }
        callback(null, latin1);
      },
    });
    source.on('error', (error) => decode.destroy(error));
    source.pipe(decode);
    text = decode;
    bytesRead = () => bytes;
  }

  let unterminatedQuote = false;
  let linebreak = '\n';
  async function* batches(): AsyncGenerator<string[][]> {
    const queue: string[][][] = [];
    let finished = false;
    let failure: unknown = null;
    let wake: (() => void) | null = null;
    const notify = (): void => {
      const w = wake;
      wake = null;
      w?.();
    };
    Papa.parse<string[]>(text, {
      header: false,
      delimiter: ',',
      skipEmptyLines: true, // 'greedy' (whitespace-only lines) doubles the parse time; see isBlankRow
      chunk(results) {
        if (results.data.length > 0) queue.push(results.data as string[][]);
        if (results.meta.linebreak) linebreak = results.meta.linebreak;
        // (only at the end: the parser takes everything after an unclosed quote into that field)
        for (const e of results.errors) if (e.code === 'MissingQuotes') unterminatedQuote = true;
        if (queue.length >= 2) text.pause();
        notify();
      },
      complete() {
        finished = true;
        notify();
      },
      error(error: unknown) {
        failure = error;
        notify();
      },
    });
    try {
      for (;;) {
        const batch = queue.shift();
        if (batch) {
          if (queue.length < 2 && text.isPaused()) text.resume();
          if (decodeCells) for (const row of batch) for (let i = 0; i < row.length; i++) row[i] = decodeByteCell(row[i]);
          yield batch;
          continue;
        }
        if (failure) throw failure;
        if (finished) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    } finally {
      if (!finished) {
        source.destroy();
        if (text !== source) text.destroy();
      }
    }
  }
  const end = (): TextEnd => {
    const file = typeof input === 'string' ? input : null;
    const last = file !== null ? fileTail(file, totalBytes ?? 0, 2) : tail;
    return {
      unterminatedQuote,
      endsWithLineBreak: last.endsWith('\n') || last.endsWith('\r'),
      lineBreaks: () =>
        file !== null ? countFileLineBreaks(file, linebreak) : linebreak.endsWith('\r') ? streamLineBreaks.r : streamLineBreaks.n,
      linebreak,
    };
  };
  return { batches: batches(), bytesRead, totalBytes, end };
}

/**
 * Reads a grants CSV (a path or a readable stream of bytes or text), resolves the columns by header name
 * and calls onRow for every row that maps to a record; skipped rows are counted by reason. Rejects with a
 * GrantsCsvHeaderError naming the missing column when the header lacks a required one.
 */
export async function readGrantsCsv(
  input: string | Readable,
  onRow: GrantRowHandler,
  options: ReadGrantsOptions = {},
): Promise<ReadSummary> {
  const { batches, bytesRead, totalBytes, end } = openRows(input, false);
  const every = Math.max(1, options.progressEveryRows ?? 10_000);
  const skipReasons = new Map<string, number>();
  let mapping: ColumnMapping | null = null;
  let lastRecord: string[] | null = null;
  let rowsRead = 0;
  let recordsMapped = 0;
  let skipped = 0;
  const progress = (done: boolean): void =>
    options.onProgress?.({
      rowsRead,
      recordsMapped,
      skipped,
      skipReasons: Object.fromEntries(skipReasons),
      bytesRead: bytesRead(),
      totalBytes,
      done,
    });

  for await (const batch of batches) {
    for (const cells of batch) {
      if (isBlankRow(cells)) continue;
      if (mapping === null) {
        const resolved = resolveColumns(cells.map(decodeByteCell));
        if (!resolved.ok) throw new GrantsCsvHeaderError(resolved.error, resolved.missing);
        mapping = resolved.mapping;
        options.onHeader?.(mapping);
        continue;
      }
      rowsRead++;
      lastRecord = cells;
      const mapped = mapRow(cells, mapping, { notable: options.notable, decodeCell: decodeByteCell });
      if (mapped.ok) {
        recordsMapped++;
        const pending = onRow(mapped.record, rowsRead);
        if (isPromise(pending)) await pending;
      } else {
        skipped++;
        skipReasons.set(mapped.reason, (skipReasons.get(mapped.reason) ?? 0) + 1);
        options.onSkip?.(mapped.reason, rowsRead);
      }
      if (rowsRead % every === 0) progress(false);
    }
  }
  if (mapping === null) throw new GrantsCsvHeaderError('the file is empty: no header row', ['header']);
  checkLastRecord(end(), lastRecord, mapping.columnCount);
  progress(true);
  return {
    schema: mapping.schema,
    referenceColumn: mapping.referenceColumn,
    ignoredColumns: mapping.ignoredColumns,
    rowsRead,
    recordsMapped,
    skipped,
    skipReasons: Object.fromEntries(skipReasons),
    bytesRead: bytesRead(),
  };
}

export interface ParseSummary {
  /** Data rows (the header excluded). */
  rows: number;
  headerColumns: number;
  bytesRead: number;
}

/** The same decode-and-parse path as readGrantsCsv without mapping: the baseline for import benchmarks. */
export async function parseOnly(input: string | Readable): Promise<ParseSummary> {
  const { batches, bytesRead } = openRows(input, true);
  let count = -1;
  let headerColumns = 0;
  for await (const batch of batches) {
    for (const cells of batch) {
      if (isBlankRow(cells)) continue;
      if (count === -1) headerColumns = cells.length;
      count++;
    }
  }
  return { rows: Math.max(0, count), headerColumns, bytesRead: bytesRead() };
}

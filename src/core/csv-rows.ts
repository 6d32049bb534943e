// Streamed CSV reading on papaparse's step mode: rows arrive in batches through an async generator, and the
// parser is paused while the consumer (a database write) still holds a full batch, so memory stays bounded
// by the batch size whatever the file size. Malformed quoting is an error (the file is damaged and the rows
// after it cannot be trusted); a file whose last record is cut (a quoted field that never closes, or fewer
// cells than the records before it) is refused as truncated, naming the line; a row with the wrong number of
// fields elsewhere is reported to the caller. Used by every importer of a CSV file (E's sources, B's registry export).
import fs from 'node:fs';
import Papa from 'papaparse';
import { TruncatedSourceError } from './import.ts';
import { storableText } from './source-text.ts';
import { decodeByteCell } from './text-decoding.ts';

interface CsvRow {
  /** 1 for the first data row after the header. */
  rowNumber: number;
  /** The file's line on which the record starts (the header is line 1; quoted line breaks count). */
  line: number;
  cells: string[];
}

export class CsvFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvFormatError';
  }
}

export interface CsvBatches {
  header: string[];
  batches: AsyncGenerator<CsvRow[], void, undefined>;
}

/** Header cells compared case-insensitively, whitespace and a byte-order mark ignored. */
export function headerKey(cell: string): string {
  return cell
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** Line breaks inside a row's (quoted) cells. */
function innerLineBreaks(cells: readonly string[]): number {
  let n = 0;
  for (const cell of cells) for (let i = cell.indexOf('\n'); i >= 0; i = cell.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * How cells become text: `bytes` reads the file byte by byte and decodes each cell on its own (UTF-8, stray bytes as
 * Windows-1252, NUL as U+FFFD: files assembled from several sources); `utf8` decodes the file as UTF-8 (NUL as U+FFFD).
 */
export type CsvText = 'bytes' | 'utf8';

/**
 * The error a record's quoting raises, or null. Bad quoting, or a quote the header never closes, is a damaged file;
 * a quoted field that never closes after the header runs to the end of the file: the file stops inside its last record.
 */
function quotingFailure(
  errors: readonly Papa.ParseError[],
  inHeader: boolean,
  file: string,
  rowNumber: number,
  line: number,
): Error | null {
  const invalid = errors.find((e) => e.code === 'InvalidQuotes');
  const unterminated = errors.find((e) => e.code === 'MissingQuotes');
  if (invalid || (unterminated && inHeader))
    return new CsvFormatError(
      `${file}: malformed CSV near data row ${rowNumber + 1} (line ${line}): ${(invalid ?? unterminated)!.message}`,
    );
  if (unterminated) return new TruncatedSourceError(file, `line ${line}: the last record's quoted field is not closed`);
  return null;
}

/**
 * Opens `file` and reads its header; the returned generator yields the data rows in batches of up to
 * `batchSize`. Blank lines are skipped. The last row is held back until the end of the file is known, so
 * that a cut last record is refused (TruncatedSourceError) before any row of the batch holding it is used.
 */
export async function openCsv(file: string, batchSize = 1000, text: CsvText = 'bytes'): Promise<CsvBatches> {
  const queue: CsvRow[] = [];
  let header: string[] | null = null;
  let rowNumber = 0;
  let line = 1;
  let failure: Error | null = null;
  let done = false;
  let parser: Papa.Parser | null = null;
  let paused = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  // `bytes`: the bytes as Latin-1, each cell then read as text by decodeByteCell
  const input = fs.createReadStream(file, { encoding: text === 'bytes' ? 'latin1' : 'utf8', highWaterMark: 256 * 1024 });
  const decode = text === 'bytes' ? decodeByteCell : storableText;
  input.on('error', (error) => {
    failure ??= error;
    done = true;
    notify();
  });
  // papaparse reads Node streams, but its types only name the browser File.
  Papa.parse<string[]>(input as unknown as File, {
    header: false,
    // Every source this reads is comma-separated; guessing the delimiter from a first chunk can pick another.
    delimiter: ',',
    // Blank lines come through (and are dropped below) so that line numbers stay those of the file.
    skipEmptyLines: false,
    step(result, p) {
      parser = p;
      const start = line;
      const cells = result.data;
      line += 1 + innerLineBreaks(cells);
      const problem = quotingFailure(result.errors, header === null, file, rowNumber, start);
      if (problem) {
        failure ??= problem;
        p.abort();
        return;
      }
      if (cells.length === 1 && cells[0] === '') return; // a blank line
      for (let i = 0; i < cells.length; i++) cells[i] = decode(cells[i]);
      if (header === null) {
        header = cells;
      } else {
        rowNumber++;
        queue.push({ rowNumber, line: start, cells });
        if (queue.length > batchSize && !paused) {
          paused = true;
          p.pause();
        }
      }
      notify();
    },
    complete() {
      done = true;
      notify();
    },
    error(error: Error) {
      failure ??= error;
      done = true;
      notify();
    },
  });

  const waitForData = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  // The header is the first row; wait for it (or for the end of an empty file).
  while (header === null && !done && !failure) await waitForData();
  if (failure) throw failure;
  if (header === null) throw new CsvFormatError(`${file}: the file is empty (no header row)`);

  // header is assigned in the parser callback, which TypeScript's narrowing does not follow.
  const width = (header as string[]).length;
  let previousWidth = width;
  /** The last record of a file must be as wide as the records before it (or the header): else it was cut. */
  const checkLast = () => {
    const last = queue[queue.length - 1];
    if (last && last.cells.length < Math.min(width, previousWidth))
      throw new TruncatedSourceError(
        file,
        `line ${last.line}: the last record has ${last.cells.length} of the ${Math.min(width, previousWidth)} fields of the records before it`,
      );
  };
  async function* batches(): AsyncGenerator<CsvRow[], void, undefined> {
    try {
      while (true) {
        if (failure) throw failure;
        // Until the end is known, one row stays behind: it may be the last one.
        if (queue.length > batchSize) {
          const batch = queue.splice(0, batchSize);
          previousWidth = batch[batch.length - 1].cells.length;
          yield batch;
          continue;
        }
        if (done && queue.length > 0) {
          if (failure) throw failure;
          if (queue.length > 1) previousWidth = queue[queue.length - 2].cells.length;
          checkLast();
          yield queue.splice(0, batchSize);
          continue;
        }
        if (done) {
          if (failure) throw failure;
          return;
        }
        if (paused) {
          // resume() may parse (and pause again) synchronously: look at the queue again before waiting.
          paused = false;
          (parser as Papa.Parser | null)?.resume();
          continue;
        }
        await waitForData();
      }
    } finally {
      if (!done) {
        (parser as Papa.Parser | null)?.abort();
        input.destroy();
      }
    }
  }
  return { header, batches: batches() };
}

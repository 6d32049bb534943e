// Streamed CSV reading on papaparse's step mode: rows arrive in batches through an async generator, and the
// parser is paused while the consumer (a database write) still holds a full batch, so memory stays bounded
// by the batch size whatever the file size. Malformed quoting is an error (the file is damaged and the rows
// after it cannot be trusted); a row with the wrong number of fields is reported to the caller.
import fs from 'node:fs';
import Papa from 'papaparse';
import { decodeByteCell } from '../../../core/text-decoding.ts';

export interface CsvRow {
  /** 1 for the first data row after the header. */
  rowNumber: number;
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

/**
 * Opens `file` and reads its header; the returned generator yields the data rows in batches of up to
 * `batchSize`. Blank lines are skipped.
 */
export async function openCsv(file: string, batchSize = 1000): Promise<CsvBatches> {
  const queue: CsvRow[] = [];
  let header: string[] | null = null;
  let rowNumber = 0;
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

  // bytes as Latin-1, each cell then read as text by decodeByteCell (UTF-8, stray bytes as Windows-1252, NUL as U+FFFD)
  const input = fs.createReadStream(file, { encoding: 'latin1', highWaterMark: 256 * 1024 });
  input.on('error', (error) => {
    failure ??= error;
    done = true;
    notify();
  });
  // papaparse reads Node streams, but its types only name the browser File.
  Papa.parse<string[]>(input as unknown as File, {
    header: false,
    skipEmptyLines: 'greedy',
    step(result, p) {
      parser = p;
      const quoteError = result.errors.find((e) => e.type === 'Quotes');
      if (quoteError) {
        failure ??= new CsvFormatError(`${file}: malformed CSV near data row ${rowNumber + 1}: ${quoteError.message}`);
        p.abort();
        return;
      }
      const cells = result.data;
      for (let i = 0; i < cells.length; i++) cells[i] = decodeByteCell(cells[i]);
      if (header === null) {
        header = cells;
      } else {
        rowNumber++;
        queue.push({ rowNumber, cells });
        if (queue.length >= batchSize && !paused) {
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

  async function* batches(): AsyncGenerator<CsvRow[], void, undefined> {
    try {
      while (true) {
        if (failure) throw failure;
        if (queue.length >= batchSize || (done && queue.length > 0)) {
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

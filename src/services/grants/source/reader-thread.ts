// readGrantsCsv in a worker thread: decoding, parsing and mapping the CSV (about 10 s of CPU for the
// 1.3-million-row file) run beside the caller, whose thread is left to write what it receives. Same contract
// as readGrantsCsv (records in file order, skips, progress, header errors naming the missing column); rows
// travel in batches, and at most a few batches are in flight, so a slow consumer holds the reading back.
// For a file path with the default notable rules; anything else is read on the caller's thread.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import { GrantsCsvHeaderError, readGrantsCsv } from './reader.ts';
import type { GrantRowHandler, ReadGrantsOptions, ReadProgress, ReadSummary } from './reader.ts';
import type { ColumnMapping } from './columns.ts';
import type { GrantRecord, SkipReason } from './record.ts';

const BATCH_ROWS = 1000;
const MAX_BATCHES_IN_FLIGHT = 4;
const WORKER_KIND = 'pdi-grants-csv-reader';
const READER_HEAP_MB = 128;

type FromWorker =
  | { type: 'header'; mapping: ColumnMapping }
  | { type: 'rows'; records: GrantRecord[]; rowNumbers: number[]; skips: Array<[SkipReason, number]>; progress: ReadProgress | null }
  | { type: 'done'; summary: ReadSummary }
  | { type: 'error'; name: string; message: string; missing?: string[] };

/** Reads `input` like readGrantsCsv, in a worker thread when it can (a path, the default notable rules). */
export function readGrantsCsvThreaded(input: string | Readable, onRow: GrantRowHandler, options: ReadGrantsOptions = {}): Promise<ReadSummary> {
  if (typeof input !== 'string' || options.notable !== undefined) return readGrantsCsv(input, onRow, options);
  return new Promise<ReadSummary>((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: { kind: WORKER_KIND, file: input, progressEveryRows: options.progressEveryRows },
      // The thread holds one parsed chunk and a few batches (a few MB); without a cap its heap grows with its
      // garbage to ~250 MB and the import passes 600 MB of RSS.
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB },
    });
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(error);
    };
    // Messages are handled one after another: a batch's rows may wait on the caller's writes.
    let chain = Promise.resolve();
    worker.on('message', (message: FromWorker) => {
      chain = chain
        .then(async () => {
          if (settled) return;
          switch (message.type) {
            case 'header':
              options.onHeader?.(message.mapping);
              break;
            case 'rows': {
              for (const [reason, rowNumber] of message.skips) options.onSkip?.(reason, rowNumber);
              const { records, rowNumbers } = message;
              for (let i = 0; i < records.length; i++) {
                const pending = onRow(records[i], rowNumbers[i]);
                if (pending) await pending;
              }
              if (message.progress) options.onProgress?.(message.progress);
              worker.postMessage('ack');
              break;
            }
            case 'done':
              settled = true;
              resolve(message.summary);
              break;
            case 'error': {
              const error =
                message.name === 'GrantsCsvHeaderError' ? new GrantsCsvHeaderError(message.message, message.missing ?? []) : Object.assign(new Error(message.message), { name: message.name });
              fail(error);
              break;
            }
          }
        })
        .catch(fail);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      void chain.then(() => fail(new Error(`the CSV reader thread stopped (exit code ${code}) before the end of the file`)));
    });
  });
}

/** The worker's side: read the file, post batches, wait for acknowledgements when too many are in flight. */
async function runWorker(port: NonNullable<typeof parentPort>, file: string, progressEveryRows: number | undefined): Promise<void> {
  let inFlight = 0;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    inFlight--;
    const w = wake;
    wake = null;
    w?.();
  });
  let records: GrantRecord[] = [];
  let rowNumbers: number[] = [];
  let skips: Array<[SkipReason, number]> = [];
  let progress: ReadProgress | null = null;
  const post = async (): Promise<void> => {
    port.postMessage({ type: 'rows', records, rowNumbers, skips, progress } satisfies FromWorker);
    records = [];
    rowNumbers = [];
    skips = [];
    progress = null;
    inFlight++;
    while (inFlight >= MAX_BATCHES_IN_FLIGHT) {
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
  };
  try {
    const summary = await readGrantsCsv(
      file,
      (record, rowNumber) => {
        records.push(record);
        rowNumbers.push(rowNumber);
        return records.length >= BATCH_ROWS ? post() : undefined;
      },
      {
        progressEveryRows,
        onHeader: (mapping) => port.postMessage({ type: 'header', mapping } satisfies FromWorker),
        onSkip: (reason, rowNumber) => skips.push([reason, rowNumber]),
        onProgress: (p) => (progress = p),
      },
    );
    if (records.length > 0 || skips.length > 0 || progress !== null) await post();
    port.postMessage({ type: 'done', summary } satisfies FromWorker);
  } catch (error) {
    const e = error as Error & { missing?: string[] };
    port.postMessage({ type: 'error', name: e.name ?? 'Error', message: e.message ?? String(error), missing: e.missing } satisfies FromWorker);
  }
  port.close();
}

if (!isMainThread && parentPort && (workerData as { kind?: string } | null)?.kind === WORKER_KIND) {
  const data = workerData as { file: string; progressEveryRows?: number };
  void runWorker(parentPort, data.file, data.progressEveryRows);
}

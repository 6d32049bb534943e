// The importer's reading side: the CSV decoded, parsed, mapped and cut into ready-to-bind batches of
// agreements (batcher.ts, rows.ts), in a worker thread when the input is a file with the default notable rules
// (the parse is most of an import's CPU: on its own core, beside the thread that writes), else on the caller's
// thread. Either way the caller gets the same batches in the same order, the same skips, progress and summary,
// and header errors naming the missing column. At most a few batches are in flight: a slow writer holds the
// reading back.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { Readable } from 'node:stream';
import type { DialectName } from '../../../core/db/dialect.ts';
import type { AggregateOptions, GrantsAggregates } from '../aggregates.ts';
import { GrantsCsvHeaderError, GrantsCsvTruncatedError, readGrantsCsv } from '../source/index.ts';
import type { NotableMatcher, ReadGrantsOptions, ReadProgress, ReadSummary, SkipReason } from '../source/index.ts';
import { AgreementBatcher } from './batcher.ts';
import type { RowBatch } from './rows.ts';
import { AgreementTracker, SOURCE_TO_COME } from './tracker.ts';

const MAX_BATCHES_IN_FLIGHT = 4;
const WORKER_KIND = 'pdi-grants-import-reader';
// The thread holds one parsed chunk and a few batches (a few MB); without a cap its heap grows with its
// garbage to ~250 MB and the import passes 600 MB of RSS.
const READER_HEAP_MB = 128;
// Its young generation: the garbage of each parsed chunk dies there. Smaller spends more of the thread's time
// in the collector, larger raises the import's peak RSS: 64 MB balances the two.
const READER_YOUNG_MB = 64;

export interface BatchReadOptions extends Pick<ReadGrantsOptions, 'onProgress' | 'onSkip' | 'progressEveryRows'> {
  dialect: DialectName;
  notable?: NotableMatcher;
  /** Read on the caller's thread even for a file (tests compare both ways). */
  inThread?: boolean;
  /**
   * A first import on SQLite: the agreements get their ids from `firstId` on, and their aggregates are
   * accumulated while reading (tracker.ts).
   */
  aggregates?: { firstId: number; options?: AggregateOptions };
}

export interface BatchReadResult {
  summary: ReadSummary;
  /**
   * With `options.aggregates`: the aggregates of the agreements read, computed after the last batch (in the
   * reading thread, beside the writing); their data source and calculator titles are to be filled in
   * (withDataSource, fillTitles). Null otherwise.
   */
  aggregates: Promise<GrantsAggregates> | null;
}

type WorkerData = {
  kind: string;
  file: string;
  dialect: DialectName;
  progressEveryRows?: number;
  aggregates?: BatchReadOptions['aggregates'];
};

type FromWorker =
  | { type: 'batch'; batch: RowBatch | null; skips: Array<[SkipReason, number]>; progress: ReadProgress | null }
  | { type: 'done'; summary: ReadSummary }
  | { type: 'aggregates'; aggregates: GrantsAggregates }
  | { type: 'error'; name: string; message: string; missing?: string[]; line?: number; reason?: string };

/** Reads `input` and hands each batch to `onBatch` (awaited before the next). */
export function readAgreementBatches(
  input: string | Readable,
  options: BatchReadOptions,
  onBatch: (batch: RowBatch) => Promise<void>,
): Promise<BatchReadResult> {
  if (typeof input !== 'string' || options.notable !== undefined || options.inThread) return readInThread(input, options, onBatch);
  return new Promise<BatchReadResult>((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), {
      workerData: {
        kind: WORKER_KIND,
        file: input,
        dialect: options.dialect,
        progressEveryRows: options.progressEveryRows,
        aggregates: options.aggregates,
      } satisfies WorkerData,
      resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB, maxYoungGenerationSizeMb: READER_YOUNG_MB },
    });
    let settled = false;
    // after the summary, the worker still owes the aggregates (when asked for)
    let aggregatesSettled = !options.aggregates;
    let resolveAggregates: (a: GrantsAggregates) => void = () => {};
    let rejectAggregates: (e: unknown) => void = () => {};
    const aggregates = options.aggregates
      ? new Promise<GrantsAggregates>((res, rej) => {
          resolveAggregates = res;
          rejectAggregates = rej;
        })
      : null;
    // (a rejection nobody awaits, after a failed read, is not an unhandled one)
    aggregates?.catch(() => {});
    const fail = (error: unknown): void => {
      if (!aggregatesSettled) {
        aggregatesSettled = true;
        rejectAggregates(error);
      }
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(error);
    };
    // Messages are handled one after another: a batch waits for the previous one's write.
    let chain = Promise.resolve();
    worker.on('message', (message: FromWorker) => {
      chain = chain
        .then(async () => {
          if (message.type === 'aggregates') {
            aggregatesSettled = true;
            resolveAggregates(message.aggregates);
          } else if (message.type === 'error') {
            // (after the summary: a failure of the aggregates, which rejects them)
            fail(errorFromWorker(message));
          } else if (settled) {
            return;
          } else if (message.type === 'batch') {
            for (const [reason, rowNumber] of message.skips) options.onSkip?.(reason, rowNumber);
            if (message.batch) await onBatch(message.batch);
            if (message.progress) options.onProgress?.(message.progress);
            worker.postMessage('ack');
          } else {
            settled = true;
            resolve({ summary: message.summary, aggregates });
          }
        })
        .catch(fail);
    });
    worker.on('error', fail);
    worker.on('exit', (code) => {
      void chain.then(() =>
        fail(new Error(`the CSV reader thread stopped (exit code ${code}) before ${settled ? 'its aggregates' : 'the end of the file'}`)),
      );
    });
  });
}

/** The worker's error as the same error read on this thread would be (header and truncation errors by class). */
function errorFromWorker(message: Extract<FromWorker, { type: 'error' }>): Error {
  if (message.name === 'GrantsCsvHeaderError') return new GrantsCsvHeaderError(message.message, message.missing ?? []);
  if (message.name === 'GrantsCsvTruncatedError') return new GrantsCsvTruncatedError(message.line ?? 0, message.reason ?? message.message);
  return Object.assign(new Error(message.message), { name: message.name });
}

async function readInThread(
  input: string | Readable,
  options: BatchReadOptions,
  onBatch: (batch: RowBatch) => Promise<void>,
): Promise<BatchReadResult> {
  const { summary, tracker } = await readRows(input, options, onBatch);
  let aggregates: Promise<GrantsAggregates> | null = null;
  if (tracker) {
    aggregates = new Promise((resolve) => resolve(tracker.aggregate(SOURCE_TO_COME, options.aggregates?.options)));
    aggregates.catch(() => {}); // awaited by the caller, or not at all after a failure
  }
  return { summary, aggregates };
}

async function readRows(
  input: string | Readable,
  options: BatchReadOptions,
  onBatch: (batch: RowBatch) => Promise<void>,
): Promise<{ summary: ReadSummary; tracker: AgreementTracker | null }> {
  const tracker = options.aggregates ? new AgreementTracker(options.aggregates.firstId) : null;
  const batcher = new AgreementBatcher(options.dialect, tracker);
  const summary = await readGrantsCsv(
    input,
    (record) => {
      const batch = batcher.add(record);
      return batch ? onBatch(batch) : undefined;
    },
    { notable: options.notable, onSkip: options.onSkip, onProgress: options.onProgress, progressEveryRows: options.progressEveryRows },
  );
  const last = batcher.finish();
  if (last) await onBatch(last);
  return { summary, tracker };
}

/** The worker's side: read, cut batches, post them, wait for acknowledgements when too many are in flight. */
async function runWorker(port: NonNullable<typeof parentPort>, data: WorkerData): Promise<void> {
  let inFlight = 0;
  let wake: (() => void) | null = null;
  port.on('message', () => {
    inFlight--;
    const w = wake;
    wake = null;
    w?.();
  });
  let skips: Array<[SkipReason, number]> = [];
  let progress: ReadProgress | null = null;
  const post = async (batch: RowBatch | null): Promise<void> => {
    port.postMessage({ type: 'batch', batch, skips, progress } satisfies FromWorker);
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
    const { summary, tracker } = await readRows(
      data.file,
      { ...data, onSkip: (reason, rowNumber) => skips.push([reason, rowNumber]), onProgress: (p) => (progress = p) },
      (batch) => post(batch),
    );
    // the skips and the last progress after the last batch
    if (skips.length > 0 || progress !== null) await post(null);
    port.postMessage({ type: 'done', summary } satisfies FromWorker);
    // then the aggregates, while the writing thread finishes
    if (tracker)
      port.postMessage({
        type: 'aggregates',
        aggregates: tracker.aggregate(SOURCE_TO_COME, data.aggregates?.options),
      } satisfies FromWorker);
  } catch (error) {
    const e = error as Error & { missing?: string[]; line?: number; reason?: string };
    port.postMessage({
      type: 'error',
      name: e.name ?? 'Error',
      message: e.message ?? String(error),
      missing: e.missing,
      line: e.line,
      reason: e.reason,
    } satisfies FromWorker);
  }
  port.close();
}

// (Node types workerData as any: the kind says it is this module's WorkerData)
if (!isMainThread && parentPort && (workerData as { kind?: string } | null)?.kind === WORKER_KIND) {
  void runWorker(parentPort, workerData as WorkerData);
}

// Memory probe for the streamed writers, run as its own process with --expose-gc by export-memory.test.ts
// (a fresh process, so other tests' garbage does not blur the figures):
//   node --expose-gc test/support/export/memory-probe.ts [rows]
// For each writer it streams `rows` seeded rows of 16 columns from an async generator into a sink that
// discards the bytes (asynchronously, so back-pressure is exercised), forcing a GC every 10,000 rows and
// recording the live heap. It prints one JSON object: per format the baseline, the peak growth over the
// baseline, the bytes written and the rows counted; and what holding the rows in memory would cost, measured
// on 20,000 rows and scaled, so the test can show its bound is meaningful.

import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { csvReadable } from '../../../src/core/export/csv.ts';
import { jsonReadable } from '../../../src/core/export/json.ts';
import { xlsxReadable } from '../../../src/core/export/xlsx.ts';
import { TEST_COLUMNS, seededRows, seededRowsAsync } from './rows.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('memory-probe needs --expose-gc');
  process.exit(2);
}
const rowCount = Number(process.argv[2] ?? 200_000);
const SAMPLE_EVERY = 10_000;
const MB = 1024 * 1024;

function liveHeap(): number {
  gc!();
  return process.memoryUsage().heapUsed;
}

export interface FormatFigures {
  baselineMB: number;
  peakGrowthMB: number;
  finalGrowthMB: number;
  bytesWritten: number;
  rows: number;
  samples: number;
  seconds: number;
}

async function probe(
  format: string,
  makeStream: (rows: AsyncIterable<Record<string, unknown>>, onRows: (n: number) => void) => Readable,
): Promise<FormatFigures> {
  const baseline = liveHeap();
  let peak = baseline;
  let samples = 0;
  let counted = 0;
  async function* sampled(): AsyncGenerator<Record<string, unknown>> {
    let i = 0;
    for await (const row of seededRowsAsync(rowCount, `memory-${format}`)) {
      if (++i % SAMPLE_EVERY === 0) {
        peak = Math.max(peak, liveHeap());
        samples++;
      }
      yield row;
    }
  }
  let bytesWritten = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      bytesWritten += chunk.length;
      setImmediate(callback);
    },
  });
  const started = process.hrtime.bigint();
  await pipeline(
    makeStream(sampled(), (n) => (counted = n)),
    sink,
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const final = liveHeap();
  peak = Math.max(peak, final);
  return {
    baselineMB: baseline / MB,
    peakGrowthMB: (peak - baseline) / MB,
    finalGrowthMB: (final - baseline) / MB,
    bytesWritten,
    rows: counted,
    samples,
    seconds,
  };
}

const figures: Record<string, unknown> = { rowCount, columns: TEST_COLUMNS.length };
figures.xlsx = await probe('xlsx', (rows, onRows) => xlsxReadable(rows, { columns: TEST_COLUMNS, onFinish: (s) => onRows(s.rows) }));
figures.csv = await probe('csv', (rows, onRows) => csvReadable(rows, { columns: TEST_COLUMNS, onFinish: (s) => onRows(s.rows) }));
figures.json = await probe('json', (rows, onRows) =>
  jsonReadable({
    arrayKey: 'papers',
    rows,
    tail: ({ rowCount: n }) => {
      onRows(n);
      return { count: n };
    },
  }),
);

// Peak resident set of the whole streaming run (V8 heap, zlib buffers, code), before the step below.
figures.maxRssMB = (process.resourceUsage().maxRSS * 1024) / MB;

// What the same rows cost when held: 20,000 of them, scaled to rowCount.
const before = liveHeap();
const held = [...seededRows(20_000, 'memory-held')];
const heldBytes = liveHeap() - before;
figures.heldRowsMBEstimate = ((heldBytes / held.length) * rowCount) / MB;
console.log(JSON.stringify(figures));

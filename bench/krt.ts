// npm run bench -- krt [--workers N] [--limit N] [--import]
// Extraction of key resources tables from the shared corpus (../shared/data/krt/xml, 1,200 JATS files):
//   baseline  read + parse every file (safe JATS parse and metadata, no extraction), one thread;
//   1 thread  read + parse + extract (author table, else the text extractor), in this thread;
//   workers   the same in N worker threads (default: available parallelism), as `import krt` and `extract --all` run it.
// Prints wall times, the extraction/parse ratio, the speed-up of the workers, and the peak resident memory of each
// phase (sampled every 25 ms; worker threads live in this process, so their memory is included).
// --import also times `import krt` of the same files into a fresh SQLite database (extraction in workers, the
// transaction, the knowledge base and its calibration).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseJats } from '../src/services/krt/jats/index.ts';
import { extractMany } from '../src/services/krt/extract/index.ts';
import { corpusFiles, corpusDir } from '../test/support/krt/corpus.ts';
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { krtService } from '../src/services/krt/service.ts';
import { importStore } from '../src/services/krt/import.ts';

const { values } = parseArgs({
  options: { workers: { type: 'string' }, limit: { type: 'string' }, import: { type: 'boolean', default: false } },
});
const workers = Number(values.workers ?? os.availableParallelism());
const all = corpusFiles();
if (all.length === 0) {
  console.error(`no corpus at ${corpusDir()} (set PDI_SHARED_DATA)`);
  process.exit(1);
}
const files = values.limit ? all.slice(0, Number(values.limit)) : all;
const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
const gc = (globalThis as { gc?: () => void }).gc;

async function phase<T>(label: string, work: () => Promise<T> | T): Promise<{ seconds: number; peakMiB: number; result: T }> {
  gc?.();
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const start = performance.now();
  try {
    const result = await work();
    const seconds = (performance.now() - start) / 1000;
    peak = Math.max(peak, process.memoryUsage().rss);
    const peakMiB = peak / 1024 / 1024;
    console.log(
      `${label.padEnd(34)} ${seconds.toFixed(2).padStart(8)} s   ${((1000 * seconds) / files.length).toFixed(1).padStart(6)} ms/file   peak RSS ${peakMiB.toFixed(0)} MiB`,
    );
    return { seconds, peakMiB, result };
  } finally {
    clearInterval(timer);
  }
}

console.log(
  `${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB; Node ${process.version}; ${os.cpus().length} CPUs; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

const parse = await phase('baseline: read + parse, 1 thread', () => {
  let authors = 0;
  for (const file of files) authors += parseJats(fs.readFileSync(file, 'utf8'), file).metadata.authorList.length;
  return authors;
});
const single = await phase('extract, 1 thread', () => extractMany(files, { workers: 1 }));
const parallel = await phase(`extract, ${workers} worker threads`, () => extractMany(files, { workers }));

// Both runs must agree, or the timing compares different work.
const failures = single.result.filter((r) => !r.ok).length;
let rows = 0;
let tables = 0;
for (let i = 0; i < files.length; i++) {
  const a = single.result[i];
  const b = parallel.result[i];
  if (a.ok !== b.ok || (a.ok && b.ok && JSON.stringify(a.extraction.rows) !== JSON.stringify(b.extraction.rows)))
    throw new Error(`1-thread and worker results differ for ${files[i]}`);
  if (a.ok) {
    rows += a.extraction.rows.length;
    if (a.extraction.provider === 'jats-table') tables++;
  }
}
console.log(
  `extracted ${files.length - failures} papers (${failures} failures): ${tables} author tables, ${rows} rows; identical in 1 thread and ${workers} workers`,
);
console.log(
  `ratio extract/parse (1 thread): ${(single.seconds / parse.seconds).toFixed(2)}; speed-up of ${workers} workers over 1 thread: ${(single.seconds / parallel.seconds).toFixed(2)}`,
);

if (values.import) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-bench-krt-'));
  try {
    const store = path.join(dir, 'store');
    for (const file of files) {
      const target = path.join(store, path.relative(corpusDir(), file));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.symlinkSync(file, target);
    }
    const db = openDatabase(`sqlite:${path.join(dir, 'bench.sqlite')}`);
    await migrateToLatest(db.kysely, krtService.migrations);
    const first = await phase(`import krt (SQLite, ${workers} workers)`, () => importStore(db, store, { workers, progress: false }));
    const again = await phase('import krt again (nothing changed)', () => importStore(db, store, { workers, progress: false }));
    console.log(
      `import: ${first.result.inserted} inserted; re-import: ${again.result.unchanged} unchanged, ${again.result.inserted + again.result.updated + again.result.deleted} changed`,
    );
    await db.close();
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

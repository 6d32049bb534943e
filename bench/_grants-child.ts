// Child process of bench/grants.ts, so that each measured job has a process (and a peak RSS) of its own:
//   parse <csv>            only decode and parse the CSV (the baseline of the import)
//   import <db-url> <csv>  the real importer, as `pdi import grants` runs it
// Answers the parent with one message: wall time, CPU time, peak RSS and, for an import, its report.
import { openDatabase } from '../src/core/db/database.ts';
import { migrateToLatest } from '../src/core/db/migrations.ts';
import { importGrantsCsv } from '../src/services/grants/import/importer.ts';
import { grantsService } from '../src/services/grants/service.ts';
import { parseOnly } from '../src/services/grants/source/index.ts';

const [mode, ...args] = process.argv.slice(2);
const stages: Array<{ stage: string; seconds: number; rssMb: number }> = [];
const started = performance.now();
const cpu0 = process.cpuUsage();
let result: unknown;
if (mode === 'parse') {
  result = await parseOnly(args[0]);
} else if (mode === 'import') {
  const [url, file] = args;
  const db = openDatabase(url);
  await migrateToLatest(db.kysely, grantsService.migrations);
  const t0 = performance.now();
  result = await importGrantsCsv(db, file, {
    progress: false,
    log: (stage) => stages.push({ stage, seconds: (performance.now() - t0) / 1000, rssMb: process.memoryUsage().rss / 2 ** 20 }),
  });
  await db.close();
} else {
  throw new Error(`unknown mode ${mode}`);
}
const cpu = process.cpuUsage(cpu0);
process.send!({
  seconds: (performance.now() - started) / 1000,
  cpuSeconds: (cpu.user + cpu.system) / 1e6,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  stages,
  result,
});

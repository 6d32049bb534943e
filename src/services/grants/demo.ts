// Demo and scale data for Service C: a generated CSV in the real federal schema (self-written vocabularies,
// amendments included) with the generated-data marker column, imported through the same importer as a real
// file and labelled as generated; and a generated Project Browser CSV of international projects (international/).
import fs from 'node:fs';
import path from 'node:path';
import { importGuard } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { writeGrantsCsv } from './generator/index.ts';
import { writeInternationalCsv } from './international/generate.ts';
import { importInternationalCsv } from './international/import.ts';
import { importGrantsCsv } from './import/importer.ts';
import { currentYearSetting } from './settings.ts';

const DEMO_ROWS = 50_000;
const DEMO_SEED = 'demo-grants';

/** Writes `<out>/grants.csv` with `size` rows (default 50,000). */
export async function writeGeneratedCsv(out: string, size = DEMO_ROWS, seed: number | string = DEMO_SEED): Promise<string> {
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, 'grants.csv');
  await writeGrantsCsv(file, { rows: size, seed });
  return file;
}

export async function loadGrantsDemo(ctx: ServiceContext, options: { size?: number; seed?: number }): Promise<ImportReport[]> {
  const file = await writeGeneratedCsv(path.join(ctx.config.dataDir, 'demo', 'grants'), options.size, options.seed);
  const report = await importGrantsCsv(ctx.db, file, {
    isDemo: true,
    guard: importGuard({}, ctx.config.env),
    progress: false,
    currentYear: currentYearSetting(ctx.config.env),
  });
  const international = await importInternationalCsv(
    ctx.db,
    writeInternationalCsv(path.join(ctx.config.dataDir, 'demo', 'grants'), undefined, options.seed),
    { isDemo: true, guard: importGuard({}, ctx.config.env) },
  );
  ctx.dataVersion.invalidate();
  return [report, international];
}

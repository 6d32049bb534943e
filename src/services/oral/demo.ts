// Demo data for Service A: the generated guidelines and reviews of sources/demo.ts, written as a bundle
// file (pdi's own format) and imported through the same importer as any other bundle.
import fs from 'node:fs';
import path from 'node:path';
import { generateDemo, DEMO_DEFAULTS } from './sources/index.ts';
import { BUNDLE_FORMAT, importBundle } from './import.ts';
import type { OralBundle } from './import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { importGuard } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import { holdsRealData } from './store.ts';
import { oralDatabase } from './tables.ts';

/** Writes a generated bundle; `size` is the number of recommendations (guidelines and reviews scale with it). */
export async function writeDemoBundle(out: string, size?: number, seed?: number): Promise<string> {
  const recommendations = size ?? DEMO_DEFAULTS.recommendations;
  const scale = recommendations / DEMO_DEFAULTS.recommendations;
  const data = generateDemo({
    seed: seed ?? DEMO_DEFAULTS.seed,
    recommendations,
    guidelines: Math.max(5, Math.round(DEMO_DEFAULTS.guidelines * scale)),
    reviews: Math.max(1, Math.round(DEMO_DEFAULTS.reviews * scale)),
  });
  const bundle: OralBundle = {
    format: BUNDLE_FORMAT,
    version: 1,
    generated: true,
    description: 'Generated demo data (self-written, not real guidance): pdi generate oral',
    guidelines: data.guidelines,
    reviews: data.reviews,
  };
  fs.mkdirSync(out, { recursive: true });
  const file = path.join(out, 'demo.pdi-oral.json');
  fs.writeFileSync(file, JSON.stringify(bundle));
  return file;
}

/**
 * Generates the demo bundle and imports it as demo data (replacing an earlier demo). A service that holds real
 * data gets none: demo data is never served beside real data (`serve` asks only services without data, but a
 * direct call must not mix them either).
 */
export async function loadOralDemo(ctx: ServiceContext, options: { size?: number; seed?: number }): Promise<ImportReport[]> {
  if (await holdsRealData(oralDatabase(ctx.db))) {
    ctx.log.info('oral holds real data: no demo data loaded');
    return [];
  }
  const file = await writeDemoBundle(path.join(ctx.config.dataDir, 'demo', 'oral'), options.size, options.seed);
  // A demo of another size replaces the last one: generated rows may all go (the deletion limit guards real data).
  const report = await importBundle(ctx.db, file, { isDemo: true, guard: { ...importGuard(), allowShrink: true } });
  ctx.dataVersion.invalidate();
  return [report];
}

// Demo data for Service E: generated Retraction Watch records, citations and a democracy panel, written in
// the sources' own formats and imported through the same importers, marked as demo. No MCMC at start: the
// published fit is imported when ../shared/data holds it (served marked as imported, and as not describing the
// generated panel); otherwise the model endpoints say the model is not fitted yet.
import fs from 'node:fs';
import path from 'node:path';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { DEFAULT_END_DATE, generateRetractionData } from './generate/generate.ts';
import { importCitations, importPanel, importRetractionWatch } from './import.ts';
import { importPublishedFit } from './democracy-model.ts';

const DEMO_DEFAULTS = { papers: 2500, citationsPerPaper: 8, seed: 20260105 } as const;
/**
 * At scale: 60,000 records and about 2 million citations. The generator gives 95% of records a DOI (only those
 * can be cited), so the mean per paper is 2,000,000 / (60,000 × 0.95).
 */
export const SCALE_DEFAULTS = { papers: 60000, citationsPerPaper: 2_000_000 / (60_000 * 0.95), seed: 20260105 } as const;
const PUBLISHED_FIT_FILE = 'democracy_model_results.json';

export async function writeGenerated(out: string, options: { size?: number; seed?: number; citationsPerPaper?: number; endDate?: string }) {
  return generateRetractionData({
    out,
    papers: options.size ?? SCALE_DEFAULTS.papers,
    citationsPerPaper: options.citationsPerPaper ?? SCALE_DEFAULTS.citationsPerPaper,
    seed: options.seed ?? SCALE_DEFAULTS.seed,
    endDate: options.endDate ?? DEFAULT_END_DATE,
  });
}

export async function loadRetractionDemo(ctx: ServiceContext, options: { size?: number; seed?: number }): Promise<ImportReport[]> {
  const files = await writeGenerated(path.join(ctx.config.dataDir, 'demo', 'retraction'), {
    size: options.size ?? DEMO_DEFAULTS.papers,
    seed: options.seed ?? DEMO_DEFAULTS.seed,
    citationsPerPaper: DEMO_DEFAULTS.citationsPerPaper,
  });
  const warn = (message: string) => ctx.log.warn(message);
  const reports = [
    await importRetractionWatch(ctx.db, files.retractionWatch, { isDemo: true, warn }),
    await importCitations(ctx.db, files.citations, { isDemo: true, warn }),
    await importPanel(ctx.db, files.panel, { isDemo: true, warn }),
  ];
  const published = path.join(ctx.config.sharedDataDir, 'retraction', PUBLISHED_FIT_FILE);
  if (fs.existsSync(published)) reports.push(await importPublishedFit(ctx.db, published));
  else ctx.log.info(`${published} not found: the democracy model endpoints report "not_fitted" until \`pdi fit retraction\` runs`);
  ctx.dataVersion.invalidate();
  return reports;
}

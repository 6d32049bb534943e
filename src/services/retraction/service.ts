// Service E: retracted papers — search suggestions, citations before and after retraction, analytics,
// exports, and a Bayesian analysis of democracy against retractions (spec §2.5, §4.5; contract
// e-retraction.md). Port 8005 by default.
import { Type } from 'typebox';
import type { ServiceModule } from '../../core/service.ts';
import { retractionMigrations } from './migrations.ts';
import { retractionRoutes } from './routes/index.ts';
import { importGuard } from '../../core/import.ts';
import { importPath } from './import.ts';
import { ErrorBody } from './schemas/common.ts';
import type { ImportKind } from './import.ts';
import { loadRetractionDemo, writeGenerated } from './demo.ts';
import { fitStoredPanel } from './democracy-model.ts';
import type { FitOptions } from './democracy-model.ts';

const importer = (kind: ImportKind, description: string) => ({
  description,
  run: (ctx: Parameters<typeof importPath>[0], source: string, options: Record<string, unknown>) =>
    importPath(ctx, source, kind, { isDemo: options.generated === true || options.isDemo === true, guard: importGuard(options) }),
});

export const retractionService: ServiceModule = {
  name: 'retraction',
  title: 'Retracted-paper citation service',
  description:
    'Retraction Watch records with search suggestions, citations before and after each retraction, analytics, streamed exports (JSON, CSV, Excel), ' +
    'and a Bayesian country-year model of democracy against retractions fitted by the service itself. Public, no key. ' +
    'Rate limits per client per minute: 100 (search, paper citations), 10 (export), 50 (analytics and democracy endpoints), with X-RateLimit-* headers. ' +
    'Errors: `{"error": "…", "code": "MACHINE_CODE"}`. Generated demo data is labelled in every data_source.',
  version: '1.0',
  cacheSeconds: 300,
  errorBody: ({ message, code }) => ({ error: message, code }),
  errorSchema: Type.Object({ error: Type.String(), code: Type.String() }),
  errorSchema: ErrorBody,
  migrations: retractionMigrations,
  routes: retractionRoutes,
  importers: {
    auto: importer(
      'auto',
      'a file or directory: the Retraction Watch CSV, citation files (OpenCitations CSV/JSON, OpenAlex works JSON/JSONL), the democracy panel CSV and a published fit, detected by their columns',
    ),
    'retraction-watch': importer('retraction-watch', 'the Retraction Watch database CSV (20 columns)'),
    citations: importer(
      'citations',
      'citations: OpenCitations-style CSV/JSON (citing, cited, creation) or OpenAlex works JSON (id, doi, publication_date, referenced_works); a directory imports all as one set',
    ),
    panel: importer(
      'panel',
      'the democracy country-year panel CSV (country, iso3, region, year, democracy_index, publications, retractions, covariates…)',
    ),
    'published-fit': importer(
      'published-fit',
      'a published fit of the democracy model (democracy_model_results.json), served as-is and marked as imported',
    ),
  } satisfies Record<ImportKind, unknown>,
  loadDemo: loadRetractionDemo,
  async generate({ out, size, seed }) {
    const files = await writeGenerated(out, { size, seed });
    return [files.retractionWatch, files.citations, files.panel, files.panelTruth];
  },
  async fit(ctx, options) {
    const number = (key: string) =>
      typeof options[key] === 'number' && Number.isFinite(options[key]) ? (options[key] as number) : undefined;
    const fitOptions: FitOptions = { seed: number('seed'), warmup: number('warmup'), draws: number('draws'), chains: number('chains') };
    const { report, fit } = await fitStoredPanel(ctx.db, fitOptions);
    ctx.dataVersion.invalidate();
    const d = fit.diagnostics;
    return [
      `fitted ${fit.predictors.length} predictors on ${d.sampleSize} country-years (${d.countries} countries) in ${fit.timing?.totalSeconds.toFixed(1)} s; data version ${report.data_version}`,
      `R-hat max ${d.rhatMax?.toFixed(4)} (${d.rhatMaxParameter}), bulk ESS min ${d.essBulkMin?.toFixed(0)}, tail ESS min ${d.essTailMin?.toFixed(0)}, divergences ${d.divergences}`,
      ...fit.summaries.map(
        (s) =>
          `  ${s.name.padEnd(28)} β ${s.mean.toFixed(4).padStart(8)}  95% [${s.ciLower?.toFixed(4)}, ${s.ciUpper?.toFixed(4)}]  RR ${s.rateRatio.toFixed(4)}`,
      ),
    ].join('\n');
  },
};

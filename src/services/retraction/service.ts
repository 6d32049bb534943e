// Service E: retracted papers — search suggestions, citations before and after retraction, analytics,
// exports, and a Bayesian analysis of democracy against retractions (spec §2.5, §4.5; contract
// e-retraction.md). Port 8005 by default.
import type { ServiceModule } from '../../core/service.ts';
import { retractionMigrations } from './migrations.ts';
import { retractionRoutes } from './routes/index.ts';
import { retractionPages } from './pages/index.ts';
import { importGuard } from '../../core/import.ts';
import { importPath } from './import.ts';
import { ErrorBody } from './schemas/common.ts';
import type { ImportKind } from './import.ts';
import { loadRetractionDemo, writeGenerated } from './demo.ts';
import { fitOptionsFromCli, fitReport, fitStoredPanel } from './democracy-model.ts';
import { createRetractionState } from './state.ts';
import type { RetractionState } from './state.ts';

const importer = (kind: ImportKind, description: string) => ({
  description,
  run: (ctx: Parameters<typeof importPath>[0], source: string, options: Record<string, unknown>) =>
    importPath(ctx, source, kind, { isDemo: options.generated === true || options.isDemo === true, guard: importGuard(options) }),
});

export const retractionService: ServiceModule<RetractionState> = {
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
  errorSchema: ErrorBody,
  migrations: retractionMigrations,
  createState: createRetractionState,
  routes: retractionRoutes,
  pages: retractionPages,
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
    // The command line's model choices (--iter, --prior, …) are parsed and validated before any sampling.
    const { report, fit, label } = await fitStoredPanel(ctx.db, fitOptionsFromCli(options));
    ctx.dataVersion.invalidate();
    return fitReport(fit, report, label);
  },
};

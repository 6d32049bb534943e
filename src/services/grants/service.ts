// Service C: Canadian federal grants and contributions — search and statistics over about 1.3 million
// agreements, recipients, and a taxpayer's-share calculator (spec §2.3, §4.3, §7.3, §8; contract c-grants.md).
// Port 8003 by default; base address host/api, so the spec's /api/stats/ is served at /api/api/stats/ and,
// for existing clients, at /api/stats/.
import { importGuard } from '../../core/import.ts';
import type { ServiceModule } from '../../core/service.ts';
import { loadGrantsDemo, writeGeneratedCsv } from './demo.ts';
import { writeInternationalCsv } from './international/generate.ts';
import { importInternationalPath } from './international/import.ts';
import { importGrantsPath } from './import/importer.ts';
import { grantsMigrations } from './migrations.ts';
import { grantsRoutes } from './routes/index.ts';
import { grantsPages } from './pages/index.ts';
import { ErrorBody } from './schemas/common.ts';
import { currentYearSetting } from './settings.ts';
import { createGrantsState } from './state.ts';
import type { GrantsState } from './state.ts';

export const grantsService: ServiceModule<GrantsState> = {
  name: 'grants',
  title: 'Canadian government grants service',
  description:
    'Search and statistics over Canadian federal grant and contribution agreements (Proactive Publication – Grants and Contributions), ' +
    "recipient analysis, and a calculator of a taxpayer's share of grants. Each agreement is counted once, at its latest amendment. " +
    'Money is in Canadian dollars, exact to the cent. No rate limit; responses may be cached for 5 minutes. Errors: `{"error": "…"}`.',
  version: '1.0',
  cacheSeconds: 300,
  errorBody: ({ message }) => ({ error: message }),
  errorSchema: ErrorBody,
  migrations: grantsMigrations,
  createState: createGrantsState,
  routes: grantsRoutes,
  pages: grantsPages,
  importers: {
    csv: {
      description:
        'the federal grants and contributions CSV (pre-2025 or December 2025 schema), or a directory holding one (generate writes grants.csv)',
      run: async (ctx, source, options) => [
        await importGrantsPath(ctx, source, {
          isDemo: options.generated === true,
          guard: importGuard(options, ctx.config.env),
          currentYear: currentYearSetting(ctx.config.env),
        }),
      ],
    },
    international: {
      description:
        "Global Affairs Canada's Project Browser CSV of international assistance projects (docs/grants.md: the columns read), or a directory holding international-projects.csv",
      run: async (ctx, source, options) => [
        await importInternationalPath(ctx, source, { isDemo: options.generated === true, guard: importGuard(options, ctx.config.env) }),
      ],
    },
  },
  loadDemo: loadGrantsDemo,
  generate: async ({ out, size, seed }) => [await writeGeneratedCsv(out, size, seed), writeInternationalCsv(out, undefined, seed)],
};

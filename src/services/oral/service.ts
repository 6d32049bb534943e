// Service A: oral health evidence (recommendations, guidelines, systematic reviews, statistics).
import type { ServiceModule } from '../../core/service.ts';
import { oralMigrations } from './migrations.ts';
import { oralRoutes } from './routes/index.ts';
import { importPath } from './import.ts';
import { loadOralDemo, writeDemoBundle } from './demo.ts';
import { ErrorBody } from './schemas/index.ts';
import { oralPages } from './pages/index.ts';
import { createOralState } from './state.ts';
import type { OralState } from './state.ts';

export const oralService: ServiceModule<OralState> = {
  name: 'oral',
  title: 'Oral health evidence service',
  description:
    'Read-only search and filtering of oral health recommendations, clinical practice guidelines and systematic reviews, with database statistics. ' +
    'No authentication. Lists are cached for 15 minutes, statistics for 30. Errors: `{"success": false, "error": "…"}` with a 4xx/5xx status.',
  version: '1.0',
  cacheSeconds: 900,
  errorBody: ({ message }) => ({ success: false, error: message }),
  errorSchema: ErrorBody,
  migrations: oralMigrations,
  createState: createOralState,
  routes: oralRoutes,
  pages: oralPages,
  importers: {
    auto: {
      description:
        'a directory laid out like ../shared/data/oral (toolkit, SIGN 138, Cochrane), or one file (--kind toolkit|sign|cochrane|bundle)',
      run: (ctx, source, options) => importPath(ctx, source, options),
    },
    toolkit: {
      description: "England's Delivering better oral health toolkit JSON",
      run: (ctx, source, options) => importPath(ctx, source, { ...options, kind: 'toolkit' }),
    },
    sign: {
      description: 'SIGN 138 recommendations JSON',
      run: (ctx, source, options) => importPath(ctx, source, { ...options, kind: 'sign' }),
    },
    cochrane: {
      description: 'Cochrane summary-of-findings folder (cochrane_sof/<review>/<review>.PUBn.csv)',
      run: (ctx, source, options) => importPath(ctx, source, { ...options, kind: 'cochrane' }),
    },
    bundle: {
      description: "pdi's own bundle (*.pdi-oral.json, written by generate oral; generated data is always demo data)",
      run: (ctx, source, options) => importPath(ctx, source, { ...options, kind: 'bundle' }),
    },
  },
  loadDemo: loadOralDemo,
  generate: async ({ out, size, seed }) => [await writeDemoBundle(out, size, seed)],
};

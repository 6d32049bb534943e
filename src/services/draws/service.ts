// Service D: Canada's Express Entry draws — history, statistics and forecasts of the next draws with 95%
// intervals (spec §2.4, §4.4; contract d-draws.md). Port 8004 by default.
import path from 'node:path';
import { importGuard } from '../../core/import.ts';
import type { ServiceModule } from '../../core/service.ts';
import { resolveAsOf } from './as-of.ts';
import { DEFAULT_DEMO_ROUNDS, DEFAULT_DEMO_SEED, writeGeneratedFeeds } from './demo.ts';
import { IRCC_ROUNDS_FEED_FR_URL, IRCC_ROUNDS_FEED_URL } from './feed/rounds-feed.ts';
import { fitForecasts } from './fit.ts';
import { drawsNewestObservation } from './freshness.ts';
import { frenchFeedBeside, importFrenchRounds, importRounds } from './import.ts';
import { drawsMigrations } from './migrations.ts';
import { drawsPages } from './pages/index.ts';
import { drawsRoutes } from './routes/index.ts';
import { API_VERSION, ErrorBody } from './schemas/common.ts';
import { createDrawsState } from './state.ts';
import type { DrawsState } from './state.ts';

export const drawsService: ServiceModule<DrawsState> = {
  name: 'draws',
  title: 'Express Entry draws',
  description:
    "History of Canada's Express Entry rounds of invitations by category, statistics, and forecasts of each " +
    "category's next draws (date, cut-off score, invitations) with 95% intervals, from IRCC's rounds feed.",
  version: API_VERSION,
  cacheSeconds: 3600,
  errorBody: ({ message }) => ({ success: false, error: message, data: [] }),
  errorSchema: ErrorBody,
  migrations: drawsMigrations,
  newestObservation: drawsNewestObservation,
  createState: createDrawsState,
  routes: drawsRoutes,
  pages: drawsPages,
  importers: {
    rounds: {
      description: `IRCC's Express Entry rounds feed (ee_rounds_123_en.json): a file, a directory holding one (and perhaps its French twin, imported after it), or a URL such as ${IRCC_ROUNDS_FEED_URL}`,
      async run(ctx, source, options) {
        const isDemo = options.generated === true || options.isDemo === true;
        const english = await importRounds(ctx, source, { isDemo, guard: importGuard(options) });
        const french = await frenchFeedBeside(source);
        return french === undefined ? [english] : [english, await importFrenchRounds(ctx, french, { isDemo, guard: importGuard(options) })];
      },
    },
    rounds_fr: {
      description: `IRCC's French rounds feed (ee_rounds_123_fr.json), imported after the English one: each stored round takes the French texts of the round of the same number; e.g. ${IRCC_ROUNDS_FEED_FR_URL}`,
      async run(ctx, source, options) {
        return [
          await importFrenchRounds(ctx, source, {
            isDemo: options.generated === true || options.isDemo === true,
            guard: importGuard(options),
          }),
        ];
      },
    },
  },
  async loadDemo(ctx, options) {
    const files = await writeGeneratedFeeds(path.join(ctx.config.dataDir, 'demo', 'draws'), {
      size: options.size ?? DEFAULT_DEMO_ROUNDS,
      seed: options.seed ?? DEFAULT_DEMO_SEED,
      endDate: resolveAsOf(ctx.config.env),
    });
    const english = await importRounds(ctx, files.english, { isDemo: true });
    return [english, await importFrenchRounds(ctx, files.french, { isDemo: true })];
  },
  async generate(options) {
    const files = await writeGeneratedFeeds(options.out, { size: options.size, seed: options.seed, endDate: resolveAsOf(process.env) });
    return [files.english, files.french];
  },
  async fit(ctx, options) {
    const result = await fitForecasts(ctx, { asOf: typeof options.asOf === 'string' ? options.asOf : undefined });
    return (
      result.message +
      `; ${result.recorded} forecasts added to the track record` +
      '\n' +
      result.categories
        .map(
          (c) =>
            `  ${c.slug.padEnd(14)} ${c.status.padEnd(22)} ${String(c.predictions).padStart(2)} predictions  CRS model ${c.crs_model ?? '—'}`,
        )
        .join('\n')
    );
  },
};

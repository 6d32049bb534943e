// `fit draws` and the daily refresh: the forecasts recomputed from the draws already stored, for an as-of
// date, as a new version of the `forecasts` dataset (so that caches and ETags change). Requests never compute.
import { listDataVersions } from '../../core/db/datasets.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceApp, ServiceContext } from '../../core/service.ts';
import { putAggregate } from '../../core/db/datasets.ts';
import {
  computeForecasts,
  computeStatistics,
  FORECASTS_DATASET,
  FORECASTS_FORMAT,
  ROUNDS_DATASET,
  SERVICE,
  STATISTICS_AGGREGATE,
} from './aggregates.ts';
import type { ComputedForecasts } from './aggregates.ts';
import { asOfIsFixed, msUntilNextTorontoDay, resolveAsOf } from './as-of.ts';
import type { ForecastStatus, ModelName } from './forecast/forecast-panel.ts';
import { staleAfterDays } from './freshness.ts';
import { loadCategoryDraws, loadDrawFacts, readForecasts } from './repository.ts';
import { writeForecasts } from './store.ts';
import type { DrawsTables } from './tables.ts';
import { recordCurrentForecasts } from './track-record.ts';

export interface FitResult {
  as_of: string;
  report: ImportReport | null;
  /** Forecasts added to the track record by this fit (an identical forecast is not recorded again). */
  recorded: number;
  categories: { category_id: number; slug: string; status: ForecastStatus; predictions: number; crs_model: ModelName | null }[];
  message: string;
}

/**
 * `fit draws`: recomputes the forecasts from the draws already imported, for `asOf` (default: the
 * configured as-of date), as a new version of the `forecasts` dataset so that caches and ETags change.
 */
export async function fitForecasts(ctx: ServiceContext, options: { asOf?: string } = {}): Promise<FitResult> {
  const asOf = options.asOf ?? resolveAsOf(ctx.config.env);
  const versions = await listDataVersions(ctx.db.kysely, SERVICE);
  const rounds = versions.find((v) => v.dataset === ROUNDS_DATASET);
  if (!rounds) return { as_of: asOf, report: null, recorded: 0, categories: [], message: 'no draws imported yet: nothing to fit' };
  const fitted: { computed?: ComputedForecasts } = {};
  const report = await runImport(
    ctx.db,
    {
      service: SERVICE,
      importer: 'fit',
      dataset: FORECASTS_DATASET,
      // A command and a date, not English words: the pages' footer names the source in either language.
      source: `pdi fit draws ${asOf}`,
      isDemo: rounds.is_demo,
    },
    async (core, { tally, dataVersion }) => {
      const trx = core.withTables<DrawsTables>();
      const categories = await loadCategoryDraws(trx);
      tally.read(categories.reduce((s, c) => s + c.draws.length, 0));
      // As at import: generated data is never called stale, so its forecasts are not either.
      const computed = computeForecasts(categories, asOf, rounds.is_demo ? null : staleAfterDays(ctx.config.env));
      await writeForecasts(trx, computed, rounds.version, dataVersion);
      // Statistics follow the as-of date too: no endpoint counts a draw after it.
      await putAggregate(trx, SERVICE, STATISTICS_AGGREGATE, dataVersion, computeStatistics(await loadDrawFacts(trx), asOf));
      tally.inserted(computed.predictions.length);
      fitted.computed = computed;
    },
  );
  ctx.dataVersion.invalidate();
  // Every fit (the CLI's and the daily refresh) keeps what it will serve in the track record, not only the first
  // request after it.
  const recorded = await recordCurrentForecasts(ctx.db.kysely.withTables<DrawsTables>(), 'fit');
  const { value, predictions } = fitted.computed!; // set by the import, which succeeded
  return {
    as_of: asOf,
    report,
    recorded,
    categories: value.categories.map((c) => ({
      category_id: c.category_id,
      slug: c.slug,
      status: c.status,
      predictions: predictions.filter((p) => p.categoryId === c.category_id).length,
      crs_model: predictions.find((p) => p.categoryId === c.category_id)?.prediction.model_used ?? null,
    })),
    message: `forecasts as of ${asOf} for ${value.categories.length} categories; data version ${report.data_version}`,
  };
}

/**
 * Refits when the stored forecasts were made for another as-of date than the current one, or by an earlier
 * version of the method (another FORECASTS_FORMAT). True if it refitted.
 */
async function refreshForecastsIfStale(ctx: ServiceContext): Promise<boolean> {
  const asOf = resolveAsOf(ctx.config.env);
  const stored = await readForecasts(ctx.db.kysely.withTables<DrawsTables>());
  if (stored === null || (stored.value.as_of === asOf && stored.value.format === FORECASTS_FORMAT)) return false;
  await fitForecasts(ctx, { asOf });
  return true;
}

/**
 * Keeps the stored forecasts made for the current as-of date: checked when the app starts and, unless
 * PDI_DRAWS_AS_OF fixes the date, again just after each midnight in Toronto. Requests never compute: a request
 * that arrives while a refit runs waits for it (health excepted), so no body mixes two as-of dates. The start is
 * not held up by the refit (a few seconds; longer than the framework's start-up limit on a loaded machine).
 */
export function keepForecastsCurrent(app: ServiceApp, ctx: ServiceContext): void {
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  let running: Promise<void> | null = null;
  const check = async (): Promise<void> => {
    try {
      if (await refreshForecastsIfStale(ctx))
        ctx.log.info({ as_of: resolveAsOf(ctx.config.env) }, 'forecasts recomputed for the new as-of date');
    } catch (error) {
      ctx.log.error({ err: error }, 'forecast refresh failed; retrying in five minutes');
      schedule(5 * 60_000);
      return;
    }
    if (!asOfIsFixed(ctx.config.env)) schedule(msUntilNextTorontoDay() + 60_000);
  };
  const schedule = (ms: number): void => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(start, ms);
    timer.unref();
  };
  const start = (): void => {
    running = check().finally(() => {
      running = null;
    });
  };
  app.addHook('onReady', async () => start());
  // Before the handler, not on arrival: a cached answer (served before validation) belongs to the data version it
  // was computed under, which a refit in flight has not changed yet; only what is computed now must wait.
  app.addHook('preValidation', async (request) => {
    if (running !== null && !request.url.startsWith('/api/health')) await running;
  });
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await running; // the database must outlive a refit in flight
  });
}

// The public track record: every forecast as served is kept (append-only), and scored when the draw it forecast is
// imported. A forecast of rank h made at origin o for a category targets the category's h-th draw after the newest
// draw the forecast used (its base) among those dated on or after o: draws the data missed between the base and the
// origin are not the forecast's to be judged on. Only forecasts made before their outcome was known are recorded: a
// fit for a past as-of date (a replay) with draws after it in the data records nothing.
import type { Kysely } from 'kysely';
import { listDataVersions } from '../../core/db/datasets.ts';
import { dbBool, insertMany, num } from '../../core/db/dialect.ts';
import { ROUNDS_DATASET, SERVICE } from './aggregates.ts';
import { dayNumber } from './feed/ircc-dates.ts';
import { studentTQuantile } from './forecast/statistics.ts';
import { servedDataVersion } from './repository.ts';
import type { DrawsDatabase, NewTrackRecord, TrackRecordRow } from './tables.ts';

/** α of the 95% intervals' interval score. */
const WINKLER_ALPHA = 0.05;

/** Winkler's interval score of [lower, upper] for the outcome y: its width, plus 2/α times any miss (lower is better). */
export function winklerScore(lower: number, upper: number, y: number, alpha = WINKLER_ALPHA): number {
  const width = upper - lower;
  if (y < lower) return width + (2 / alpha) * (lower - y);
  if (y > upper) return width + (2 / alpha) * (y - upper);
  return width;
}

export type RecordedBy = 'import' | 'fit' | 'request';

/**
 * Records the stored predictions (what the API serves now) under `dataVersion`; what is already recorded is not
 * written again, whether under the same version (a reload) or as the same forecast under another (a re-import of the
 * same feed). Returns how many rows were written.
 */
export async function recordServedForecasts(
  db: Kysely<DrawsDatabase>,
  options: { dataVersion: string; isDemo: boolean; recordedBy: RecordedBy; now?: Date },
): Promise<number> {
  const predictions = await db.selectFrom('draws_predictions').selectAll().orderBy('category_id').orderBy('rank').execute();
  if (predictions.length === 0) return 0;
  const origin = predictions[0].as_of;
  const newest = await db
    .selectFrom('draws_draws')
    .select((eb) => eb.fn.max('date').as('date'))
    .executeTakeFirst();
  const newestDate = newest?.date ?? null;
  // The outcome is already in the data: a replay, not a forecast.
  if (newestDate === null || newestDate > origin) return 0;
  const categoryIds = [...new Set(predictions.map((p) => p.category_id))];
  const bases = new Map<number, { round_number: string; round_sort_key: number; date: string; crs: number; invitations: number }>();
  for (const id of categoryIds) {
    const base = await db
      .selectFrom('draws_draws')
      .select(['round_number', 'round_sort_key', 'date', 'crs', 'invitations'])
      .where('category_id', '=', id)
      .where('date', '<=', origin)
      .orderBy('date', 'desc')
      .orderBy('round_sort_key', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (base) bases.set(id, base);
  }
  const latest = await latestRecorded(db, categoryIds);
  const recordedAt = (options.now ?? new Date()).toISOString();
  const rows: NewTrackRecord[] = [];
  for (const p of predictions) {
    const base = bases.get(p.category_id);
    if (!base) continue;
    const row: NewTrackRecord = {
      data_version: options.dataVersion,
      is_demo: dbBool(db, options.isDemo),
      recorded_at: recordedAt,
      recorded_by: options.recordedBy,
      origin,
      newest_draw_date: newestDate,
      category_id: p.category_id,
      horizon: p.rank,
      base_round_number: base.round_number,
      base_round_sort_key: base.round_sort_key,
      base_date: base.date,
      base_crs: base.crs,
      base_invitations: base.invitations,
      model_used: p.model_used,
      predicted_date: p.predicted_date,
      date_earliest: p.date_earliest,
      date_latest: p.date_latest,
      crs_point: p.predicted_crs_score,
      crs_min: p.range_min,
      crs_max: p.range_max,
      invitations_point: p.predicted_invitations,
      invitations_min: p.invitations_min,
      invitations_max: p.invitations_max,
      likely_earliest: p.likely_earliest,
      likely_latest: p.likely_latest,
      likely_probability: p.likely_probability,
    };
    if (!sameForecast(latest.get(`${p.category_id}:${p.rank}`), row)) rows.push(row);
  }
  if (rows.length === 0) return 0;
  const before = await countRecords(db);
  await insertMany(db, 'draws_track_record', rows, { columns: ['data_version', 'category_id', 'horizon'], update: [] });
  return (await countRecords(db)) - before;
}

/** Records the stored predictions under the data version the API names now (after `fit draws`, or when first served). */
export async function recordCurrentForecasts(db: Kysely<DrawsDatabase>, recordedBy: RecordedBy): Promise<number> {
  const versions = await listDataVersions(db, SERVICE);
  const dataVersion = servedDataVersion(versions);
  if (dataVersion === null) return 0;
  const isDemo = versions.find((v) => v.dataset === ROUNDS_DATASET)?.is_demo ?? false;
  return recordServedForecasts(db, { dataVersion, isDemo, recordedBy });
}

async function countRecords(db: Kysely<DrawsDatabase>): Promise<number> {
  const row = await db
    .selectFrom('draws_track_record')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return num(row.n);
}

/** The newest record of each category and horizon ("category:horizon"). */
async function latestRecorded(db: Kysely<DrawsDatabase>, categoryIds: readonly number[]): Promise<Map<string, TrackRecordRow>> {
  const result = new Map<string, TrackRecordRow>();
  const rows = await db
    .selectFrom('draws_track_record')
    .selectAll()
    .where('category_id', 'in', categoryIds)
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('draws_track_record')
        .select((e) => e.fn.max('id').as('id'))
        .groupBy(['category_id', 'horizon']),
    )
    .execute();
  for (const r of rows) result.set(`${r.category_id}:${r.horizon}`, r);
  return result;
}

const FORECAST_FIELDS = [
  'origin',
  'base_round_number',
  'model_used',
  'predicted_date',
  'date_earliest',
  'date_latest',
  'crs_point',
  'crs_min',
  'crs_max',
  'invitations_point',
  'invitations_min',
  'invitations_max',
  'likely_earliest',
  'likely_latest',
  'likely_probability',
] as const;

function sameForecast(previous: TrackRecordRow | undefined, next: NewTrackRecord): boolean {
  return previous !== undefined && FORECAST_FIELDS.every((f) => (previous[f] ?? null) === (next[f] ?? null));
}

/** Removes the forecasts made from generated demo data (when real data replaces it); how many there were. */
export async function deleteDemoTrackRecord(db: Kysely<DrawsDatabase>): Promise<number> {
  const result = await db.deleteFrom('draws_track_record').where('is_demo', '=', dbBool(db, true)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Scores every recorded forecast whose draw the data now holds (see the file comment); how many were scored. */
export async function scoreTrackRecord(db: Kysely<DrawsDatabase>, now: Date = new Date()): Promise<number> {
  const open = await db
    .selectFrom('draws_track_record')
    .select(['id', 'category_id', 'horizon', 'origin', 'base_date', 'base_round_sort_key'])
    .where('scored_at', 'is', null)
    .execute();
  if (open.length === 0) return 0;
  const categoryIds = [...new Set(open.map((r) => r.category_id))];
  const draws = await db
    .selectFrom('draws_draws')
    .select(['category_id', 'round_number', 'round_sort_key', 'date', 'crs', 'invitations'])
    .where('category_id', 'in', categoryIds)
    .orderBy('date')
    .orderBy('round_sort_key')
    .execute();
  const scoredAt = now.toISOString();
  let scored = 0;
  for (const r of open) {
    const after = draws.filter(
      (d) =>
        d.category_id === r.category_id &&
        d.date >= r.origin &&
        (d.date > r.base_date || (d.date === r.base_date && d.round_sort_key > r.base_round_sort_key)),
    );
    const target = after[r.horizon - 1];
    if (!target) continue;
    await db
      .updateTable('draws_track_record')
      .set({
        actual_round_number: target.round_number,
        actual_date: target.date,
        actual_crs: target.crs,
        actual_invitations: target.invitations,
        scored_at: scoredAt,
      })
      .where('id', '=', r.id)
      .where('scored_at', 'is', null)
      .execute();
    scored++;
  }
  return scored;
}

/** Accuracy of one series (CRS or invitations) over the scored forecasts. */
export interface SeriesRecord {
  /** Scored forecasts counted (for invitations: those with an interval). */
  n: number;
  mae: number | null;
  /** 95% interval of the MAE, clustered by the draw forecast (forecasts of the same draw are not independent). */
  mae_interval_95: { low: number; high: number } | null;
  /** MAE of the naive forecast: the category's last value before the origin. */
  naive_mae: number | null;
  /** mae / naive_mae: below 1 beats repeating the last draw. */
  relative_mae: number | null;
  /** Mean Winkler interval score (α = 0.05) of the 95% intervals. */
  interval_score: number | null;
  /** Share of outcomes inside their 95% interval. */
  coverage_95: number | null;
  coverage_interval_95: { low: number; high: number } | null;
}

export interface CategoryRecordSummary {
  category_id: number;
  forecasts: number;
  scored: number;
  /** Distinct draws the scored forecasts were judged on. */
  draws_judged: number;
  crs: SeriesRecord;
  invitations: SeriesRecord;
  /** Share of scored forecasts whose draw fell inside its date range. */
  date_coverage: number | null;
  likely_window: LikelyWindowRecord;
}

/** How the likely windows' stated probabilities fared, over the scored forecasts that carried one. */
interface LikelyWindowRecord {
  n: number;
  /** Mean stated probability. */
  mean_probability: number | null;
  /** Share of draws that fell inside their window: near mean_probability when the probabilities are calibrated. */
  hit_rate: number | null;
  /** Mean squared difference between the stated probability and the outcome (1 inside, 0 outside); lower is better. */
  brier_score: number | null;
}

/** A scored row's draw fell inside its likely window; null for a row without one. */
function likelyHit(r: Pick<TrackRecordRow, 'actual_date' | 'likely_earliest' | 'likely_latest'>): boolean | null {
  return r.actual_date === null || r.likely_earliest === null || r.likely_latest === null
    ? null
    : r.actual_date >= r.likely_earliest && r.actual_date <= r.likely_latest;
}

function likelyWindowRecord(scored: readonly TrackRecordRow[]): LikelyWindowRecord {
  const rows = scored.filter((r) => r.likely_probability !== null && likelyHit(r) !== null);
  if (rows.length === 0) return { n: 0, mean_probability: null, hit_rate: null, brier_score: null };
  const outcome = (r: TrackRecordRow) => (likelyHit(r) ? 1 : 0);
  return {
    n: rows.length,
    mean_probability: mean(rows.map((r) => r.likely_probability!)),
    hit_rate: mean(rows.map(outcome)),
    brier_score: mean(rows.map((r) => (r.likely_probability! - outcome(r)) ** 2)),
  };
}

interface Scored {
  cluster: string;
  point: number;
  naive: number;
  low: number | null;
  high: number | null;
  actual: number;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Mean of xs with a 95% interval whose standard error is clustered (CR1) by `clusters`; null below two clusters. */
export function clusteredMeanInterval(xs: readonly number[], clusters: readonly string[]): { low: number; high: number } | null {
  const groups = new Map<string, number>();
  const m = mean(xs);
  xs.forEach((x, i) => groups.set(clusters[i], (groups.get(clusters[i]) ?? 0) + (x - m)));
  const k = groups.size;
  if (k < 2) return null;
  const n = xs.length;
  const se = Math.sqrt(([...groups.values()].reduce((s, g) => s + g * g, 0) / (n * n)) * (k / (k - 1)));
  const t = studentTQuantile(0.975, k - 1);
  return { low: m - t * se, high: m + t * se };
}

function seriesRecord(rows: readonly Scored[]): SeriesRecord {
  if (rows.length === 0)
    return {
      n: 0,
      mae: null,
      mae_interval_95: null,
      naive_mae: null,
      relative_mae: null,
      interval_score: null,
      coverage_95: null,
      coverage_interval_95: null,
    };
  const errors = rows.map((r) => Math.abs(r.point - r.actual));
  const clusters = rows.map((r) => r.cluster);
  const mae = mean(errors);
  const naive = mean(rows.map((r) => Math.abs(r.naive - r.actual)));
  const withInterval = rows.filter((r) => r.low !== null && r.high !== null);
  const inside = withInterval.map((r) => (r.actual >= r.low! && r.actual <= r.high! ? 1 : 0));
  return {
    n: rows.length,
    mae,
    mae_interval_95: clusteredMeanInterval(errors, clusters),
    naive_mae: naive,
    relative_mae: naive > 0 ? mae / naive : null,
    interval_score: withInterval.length ? mean(withInterval.map((r) => winklerScore(r.low!, r.high!, r.actual))) : null,
    coverage_95: inside.length ? mean(inside) : null,
    coverage_interval_95: inside.length
      ? clusteredMeanInterval(
          inside,
          withInterval.map((r) => r.cluster),
        )
      : null,
  };
}

/** The running record of each category (of `rows`: the recorded forecasts, scored or not). */
function summariseTrackRecord(rows: readonly TrackRecordRow[]): CategoryRecordSummary[] {
  const ids = [...new Set(rows.map((r) => r.category_id))].sort((a, b) => a - b);
  return ids.map((id) => {
    const mine = rows.filter((r) => r.category_id === id);
    const scored = mine.filter((r) => r.scored_at !== null && r.actual_crs !== null && r.actual_invitations !== null);
    const cluster = (r: TrackRecordRow) => r.actual_round_number!;
    return {
      category_id: id,
      forecasts: mine.length,
      scored: scored.length,
      draws_judged: new Set(scored.map(cluster)).size,
      crs: seriesRecord(
        scored.map((r) => ({
          cluster: cluster(r),
          point: r.crs_point,
          naive: r.base_crs,
          low: r.crs_min,
          high: r.crs_max,
          actual: r.actual_crs!,
        })),
      ),
      invitations: seriesRecord(
        scored.map((r) => ({
          cluster: cluster(r),
          point: r.invitations_point,
          naive: r.base_invitations,
          low: r.invitations_min,
          high: r.invitations_max,
          actual: r.actual_invitations!,
        })),
      ),
      date_coverage: scored.length
        ? mean(scored.map((r) => (r.actual_date! >= r.date_earliest && r.actual_date! <= r.date_latest ? 1 : 0)))
        : null,
      likely_window: likelyWindowRecord(scored),
    };
  });
}

/** Days the forecast date missed by (positive: the draw came later), for a scored row. */
function dateError(row: Pick<TrackRecordRow, 'predicted_date' | 'actual_date'>): number | null {
  return row.actual_date === null ? null : dayNumber(row.actual_date) - dayNumber(row.predicted_date);
}

/** A recorded forecast as the API serves it. */
export function trackRecordEntry(r: TrackRecordRow, categoryName: string) {
  const scored = r.scored_at !== null && r.actual_crs !== null && r.actual_invitations !== null && r.actual_date !== null;
  return {
    id: r.id,
    category_id: r.category_id,
    category_name: categoryName,
    horizon: r.horizon,
    origin: r.origin,
    newest_draw_date: r.newest_draw_date,
    data_version: r.data_version,
    recorded_at: r.recorded_at,
    recorded_by: r.recorded_by,
    model_used: r.model_used,
    base: { round_number: r.base_round_number, date: r.base_date, crs_score: r.base_crs, invitations: r.base_invitations },
    forecast: {
      date: r.predicted_date,
      date_range: { earliest: r.date_earliest, latest: r.date_latest },
      crs_score: r.crs_point,
      crs_range: { min: r.crs_min, max: r.crs_max },
      invitations: r.invitations_point,
      invitations_range:
        r.invitations_min === null || r.invitations_max === null ? null : { min: r.invitations_min, max: r.invitations_max },
      likely_window:
        r.likely_earliest === null || r.likely_latest === null || r.likely_probability === null
          ? null
          : { earliest: r.likely_earliest, latest: r.likely_latest, probability: r.likely_probability },
    },
    outcome: scored
      ? {
          round_number: r.actual_round_number!,
          date: r.actual_date!,
          crs_score: r.actual_crs!,
          invitations: r.actual_invitations!,
          crs_error: r.crs_point - r.actual_crs!,
          naive_crs_error: r.base_crs - r.actual_crs!,
          crs_inside: r.actual_crs! >= r.crs_min && r.actual_crs! <= r.crs_max,
          crs_interval_score: winklerScore(r.crs_min, r.crs_max, r.actual_crs!),
          invitations_inside:
            r.invitations_min === null || r.invitations_max === null
              ? null
              : r.actual_invitations! >= r.invitations_min && r.actual_invitations! <= r.invitations_max,
          date_inside: r.actual_date! >= r.date_earliest && r.actual_date! <= r.date_latest,
          likely_window_inside: likelyHit(r),
          date_error_days: dateError(r)!,
          scored_at: r.scored_at!,
        }
      : null,
  };
}

export type TrackRecordEntry = ReturnType<typeof trackRecordEntry>;

export interface TrackRecordPage {
  count: number;
  rows: TrackRecordRow[];
  summary: CategoryRecordSummary[];
}

/**
 * The record as it stood on the as-of date: forecasts made for a later date are left out, and a draw after it is not
 * yet an outcome (the forecast reads as waiting), so that a replay shows no draw the as-of date does not know.
 */
function recordAsOf(rows: readonly TrackRecordRow[], asOf: string): TrackRecordRow[] {
  return rows
    .filter((r) => r.origin <= asOf)
    .map((r) =>
      r.actual_date !== null && r.actual_date > asOf
        ? { ...r, actual_round_number: null, actual_date: null, actual_crs: null, actual_invitations: null, scored_at: null }
        : r,
    );
}

/** One page of the recorded forecasts (newest first) and the running summary, of one category or all, as of a date. */
export async function readTrackRecord(
  db: Kysely<DrawsDatabase>,
  options: { categoryId?: number; page: number; limit: number; asOf: string },
): Promise<TrackRecordPage> {
  let all = db.selectFrom('draws_track_record').selectAll();
  if (options.categoryId !== undefined) all = all.where('category_id', '=', options.categoryId);
  const rows = recordAsOf(await all.orderBy('id', 'desc').execute(), options.asOf);
  const start = (options.page - 1) * options.limit;
  return { count: rows.length, rows: rows.slice(start, start + options.limit), summary: summariseTrackRecord(rows) };
}

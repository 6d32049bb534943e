// Every query of Service D's routes, free of the HTTP framework. Dates are YYYY-MM-DD text, so string
// comparison orders them; draws are ordered newest first with round number and id as tie-breaks.
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { getAggregate, listDataVersions } from '../../core/db/datasets.ts';
import type { DataVersion, StoredAggregate } from '../../core/db/datasets.ts';
import { dbBool, num } from '../../core/db/dialect.ts';
import { FORECASTS_AGGREGATE, FORECASTS_DATASET, ROUNDS_DATASET, SERVICE, STATISTICS_AGGREGATE } from './aggregates.ts';
import type { CategoryDraws, DrawFact, StoredForecasts, StoredStatistics } from './aggregates.ts';
import { dayNumber, isoFromDayNumber } from './feed/ircc-dates.ts';
import type { DrawObservation, Prediction, ServedModel } from './forecast/forecast-panel.ts';
import { LIKELY_WINDOW_DAYS } from './forecast/draw-dates.ts';
import { drawsAge, newestDrawThrough } from './freshness.ts';
import type { NewestDraw } from './freshness.ts';
import type { DataSourceSchema } from './schemas/common.ts';
import type { CategoryRow, DrawRow, DrawsDatabase } from './tables.ts';
import { CATEGORY_NAMES_FR, stripVersionSuffix } from './feed/categories.ts';
import type { Language } from '../../core/i18n/language.ts';

/** A category as the routes use it. */
export type CategoryRecord = Pick<CategoryRow, 'id' | 'slug' | 'name' | 'description' | 'created_at'> & { is_active: boolean };

/** A draw as the API serves it (the contract's names: invitations_issued, lowest_crs_score). */
export type DrawRecord = Pick<
  DrawRow,
  'id' | 'round_number' | 'date' | 'category_id' | 'draw_name' | 'tie_break_at' | 'days_since_last_draw' | 'url'
> & {
  category_name: string;
  invitations_issued: number;
  lowest_crs_score: number;
  /** With `both` only. */
  category_name_fr?: string | null;
  draw_name_fr?: string | null;
};

export interface DrawFilter {
  categoryId?: number;
  /** Exclusive lower bound (the spec's start_date: "draws after it"). */
  after?: string;
  /** Exclusive upper bound (end_date: "draws before it"). */
  before?: string;
  /** Inclusive bounds (the recent window and the as-of date). */
  from?: string;
  through?: string;
  limit?: number;
}

const CATEGORY_COLUMNS = ['id', 'slug', 'name', 'description', 'is_active', 'created_at'] as const;

function categoryRecord(r: Pick<CategoryRow, (typeof CATEGORY_COLUMNS)[number]>): CategoryRecord {
  return { ...r, is_active: Boolean(r.is_active) };
}

export async function listCategories(db: Kysely<DrawsDatabase>, options: { activeOnly: boolean }): Promise<CategoryRecord[]> {
  let query = db.selectFrom('draws_categories').select(CATEGORY_COLUMNS).orderBy('sort_order').orderBy('id');
  if (options.activeOnly) query = query.where('is_active', '=', dbBool(db, true));
  return (await query.execute()).map(categoryRecord);
}

export async function findCategory(db: Kysely<DrawsDatabase>, id: number): Promise<CategoryRecord | null> {
  // Ids are 32-bit integer columns: a larger number names no category (and must not reach PostgreSQL as one).
  if (!Number.isInteger(id) || id < 0 || id > 2_147_483_647) return null;
  const row = await db.selectFrom('draws_categories').select(CATEGORY_COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? categoryRecord(row) : null;
}

/**
 * The French name of each category that has one (by id): a known family's; for a category no rule knows (new in the
 * feed), the name IRCC's French feed gives its newest round, without its version suffix, as the English name is made.
 */
export async function frenchCategoryNames(db: Kysely<DrawsDatabase>): Promise<Map<number, string>> {
  const [categories, rounds] = await Promise.all([
    db.selectFrom('draws_categories').select(['id', 'slug']).execute(),
    db
      .selectFrom('draws_draws')
      .select(['category_id', 'draw_name_fr'])
      .where('draw_name_fr', 'is not', null)
      .orderBy('date', 'desc')
      .orderBy('round_sort_key', 'desc')
      .execute(),
  ]);
  const names = new Map<number, string>();
  for (const c of categories) if (CATEGORY_NAMES_FR[c.slug] !== undefined) names.set(c.id, CATEGORY_NAMES_FR[c.slug]);
  for (const r of rounds) {
    const name = r.draw_name_fr === null ? '' : stripVersionSuffix(r.draw_name_fr) || r.draw_name_fr.trim();
    if (name !== '' && !names.has(r.category_id)) names.set(r.category_id, name);
  }
  return names;
}

/**
 * Draws with their texts in `language`: French from IRCC's French feed (the round's name) and the French names of the
 * categories (frenchCategoryNames), English where there is no French; `both` adds `draw_name_fr` and
 * `category_name_fr` (null: none).
 */
export async function listDraws(
  db: Kysely<DrawsDatabase>,
  filter: DrawFilter = {},
  language: Language | 'both' = 'en',
): Promise<DrawRecord[]> {
  let query = db
    .selectFrom('draws_draws as d')
    .innerJoin('draws_categories as c', 'c.id', 'd.category_id')
    .select([
      'd.id',
      'd.round_number',
      'd.date',
      'd.category_id',
      'c.name as category_name',
      'd.draw_name',
      'd.draw_name_fr',
      'd.invitations',
      'd.crs',
      'd.tie_break_at',
      'd.days_since_last_draw',
      'd.url',
    ]);
  if (filter.categoryId !== undefined) query = query.where('d.category_id', '=', filter.categoryId);
  if (filter.after !== undefined) query = query.where('d.date', '>', filter.after);
  if (filter.before !== undefined) query = query.where('d.date', '<', filter.before);
  if (filter.from !== undefined) query = query.where('d.date', '>=', filter.from);
  if (filter.through !== undefined) query = query.where('d.date', '<=', filter.through);
  query = query.orderBy('d.date', 'desc').orderBy('d.round_sort_key', 'desc').orderBy('d.id', 'desc');
  if (filter.limit !== undefined) query = query.limit(filter.limit);
  const french = language === 'en' ? new Map<number, string>() : await frenchCategoryNames(db);
  return (await query.execute()).map(({ invitations, crs, ...r }) => ({
    id: r.id,
    round_number: r.round_number,
    date: r.date,
    category_id: r.category_id,
    category_name: language === 'fr' ? (french.get(r.category_id) ?? r.category_name) : r.category_name,
    draw_name: language === 'fr' ? (r.draw_name_fr ?? r.draw_name) : r.draw_name,
    ...(language === 'both' ? { category_name_fr: french.get(r.category_id) ?? null, draw_name_fr: r.draw_name_fr } : {}),
    invitations_issued: invitations,
    lowest_crs_score: crs,
    tie_break_at: r.tie_break_at,
    days_since_last_draw: r.days_since_last_draw,
    url: r.url,
  }));
}

/** The window of /api/draws/recent/: the as-of date and the 30 days before it. */
const RECENT_DAYS = 30;

export function recentWindow(asOf: string): { from: string; through: string } {
  return { from: isoFromDayNumber(dayNumber(asOf) - RECENT_DAYS), through: asOf };
}

/** Stored predictions by category id, ranks in order. */
export async function listPredictions(db: Kysely<DrawsDatabase>, categoryId?: number): Promise<Map<number, Prediction[]>> {
  let query = db.selectFrom('draws_predictions').selectAll().orderBy('category_id').orderBy('rank');
  if (categoryId !== undefined) query = query.where('category_id', '=', categoryId);
  const result = new Map<number, Prediction[]>();
  for (const r of await query.execute()) {
    const id = r.category_id;
    const list = result.get(id) ?? [];
    list.push({
      rank: r.rank,
      predicted_date: r.predicted_date,
      predicted_crs_score: r.predicted_crs_score,
      predicted_invitations: r.predicted_invitations,
      confidence_score: r.confidence_score,
      // Null only in rows stored before it was kept (refitted when the service starts: FORECASTS_FORMAT).
      confidence_forecasts_scored: r.confidence_forecasts_scored,
      model_used: r.model_used as ServedModel, // written from a ServedModel by the store
      uncertainty_range: {
        min: r.range_min,
        max: r.range_max,
        confidence_level: 95,
        margin_of_error: r.margin_of_error,
      },
      // Null only in rows stored before invitations had intervals (refitted when the service starts).
      invitations_range:
        r.invitations_min === null || r.invitations_max === null
          ? null
          : { min: r.invitations_min, max: r.invitations_max, confidence_level: 95 },
      date_range: { earliest: r.date_earliest, latest: r.date_latest },
      likely_window:
        r.likely_earliest === null || r.likely_latest === null || r.likely_probability === null
          ? null
          : { earliest: r.likely_earliest, latest: r.likely_latest, days: LIKELY_WINDOW_DAYS, probability: r.likely_probability },
    });
    result.set(id, list);
  }
  return result;
}

/** Every active category's draws, from the database (what `fit` forecasts from). */
export async function loadCategoryDraws(db: Kysely<DrawsDatabase>): Promise<CategoryDraws[]> {
  const categories = await db
    .selectFrom('draws_categories')
    .select(['id', 'slug'])
    .where('is_active', '=', dbBool(db, true))
    .orderBy('id')
    .execute();
  const rows = await db
    .selectFrom('draws_draws')
    .select(['category_id', 'date', 'crs', 'invitations', 'round_sort_key'])
    .orderBy('date')
    .orderBy('round_sort_key')
    .execute();
  const byCategory = new Map<number, DrawObservation[]>();
  for (const r of rows) {
    const list = byCategory.get(r.category_id) ?? [];
    list.push({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.round_sort_key });
    byCategory.set(r.category_id, list);
  }
  return categories.map((c) => ({ id: c.id, slug: c.slug, draws: byCategory.get(c.id) ?? [] }));
}

/** Every stored draw as a DrawFact, by category id (the statistics are recomputed from these for an as-of date). */
export async function loadDrawFacts(db: Kysely<DrawsDatabase>): Promise<Map<number, DrawFact[]>> {
  const rows = await db
    .selectFrom('draws_draws')
    .select(['category_id', 'round_number', 'round_sort_key', 'date', 'crs', 'invitations'])
    .orderBy('date')
    .orderBy('round_sort_key')
    .execute();
  const byCategory = new Map<number, DrawFact[]>();
  for (const r of rows) {
    const list = byCategory.get(r.category_id) ?? [];
    list.push({ roundNumber: r.round_number, roundSortKey: r.round_sort_key, date: r.date, crs: r.crs, invitations: r.invitations });
    byCategory.set(r.category_id, list);
  }
  return new Map([...byCategory].sort((a, b) => a[0] - b[0]));
}

export async function readForecasts(db: Kysely<DrawsDatabase>): Promise<StoredAggregate<StoredForecasts> | null> {
  return getAggregate<StoredForecasts>(db, SERVICE, FORECASTS_AGGREGATE);
}

export async function readStatistics(db: Kysely<DrawsDatabase>): Promise<StoredStatistics | null> {
  return (await getAggregate<StoredStatistics>(db, SERVICE, STATISTICS_AGGREGATE))?.value ?? null;
}

export interface RowCounts {
  draws: number;
  /** Active categories. */
  categories: number;
  predictions: number;
}

export async function countRows(db: Kysely<DrawsDatabase>): Promise<RowCounts> {
  const [draws, categories, predictions] = await Promise.all([
    db
      .selectFrom('draws_draws')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('draws_categories')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('is_active', '=', dbBool(db, true))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('draws_predictions')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { draws: num(draws.n), categories: num(categories.n), predictions: num(predictions.n) };
}

/** data_source of a body (described in the schema). */
export type DataSource = Static<typeof DataSourceSchema>;

/** What a body may say about where the draws came from: a URL as it is, a file by its name (never a server path). */
export function publicSourceName(source: string): string {
  return /^https?:\/\//i.test(source) ? source : path.basename(source);
}

/** What a response's data_source says; `forecastsAsOf` is read from the stored forecasts unless given. */
export async function dataSource(
  db: Kysely<DrawsDatabase>,
  asOf: string,
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
  forecastsAsOf?: string | null,
): Promise<DataSource> {
  if (forecastsAsOf === undefined) forecastsAsOf = (await readForecasts(db))?.value.as_of ?? null;
  const versions = await listDataVersions(db, SERVICE);
  const rounds = versions.find((v) => v.dataset === ROUNDS_DATASET);
  const age = await drawsAge(db, asOf, env);
  const freshness = {
    newest_draw_date: age.newest?.date ?? null,
    days_since_newest_draw: age.ageDays,
    stale_after_days: age.staleAfterDays,
    // Generated data is dated to the as-of date; it is never called stale (as the kernel's status does not).
    stale: rounds?.is_demo ? null : age.stale,
  };
  if (!rounds) {
    return {
      kind: 'none',
      description: 'No draws imported yet (import draws <file or URL>).',
      source: null,
      imported_at: null,
      data_version: null,
      as_of: asOf,
      forecasts_as_of: null,
      ...freshness,
    };
  }
  return {
    kind: rounds.is_demo ? 'demo' : 'ircc',
    description: rounds.is_demo
      ? 'Generated demo data (pdi generate draws): NOT real Express Entry rounds; for trying the service offline.'
      : "Imported from IRCC's Express Entry rounds feed (ee_rounds_123_en.json).",
    source: rounds.source === null ? null : publicSourceName(rounds.source),
    imported_at: rounds.imported_at,
    data_version: servedDataVersion(versions),
    as_of: asOf,
    forecasts_as_of: forecastsAsOf,
    ...freshness,
  };
}

/** The data version a body names: the draws' import, and the refit after it when there was one. */
export function servedDataVersion(versions: readonly DataVersion[]): string | null {
  const rounds = versions.find((v) => v.dataset === ROUNDS_DATASET);
  const forecasts = versions.find((v) => v.dataset === FORECASTS_DATASET);
  if (!rounds) return null;
  return forecasts && forecasts.imported_at > rounds.imported_at ? `${rounds.version}+${forecasts.version}` : rounds.version;
}

/** What a forecast answer says it was made from: its origin and the newest draw on or before it. */
export async function forecastBasis(
  db: Kysely<DrawsDatabase>,
  origin: string | null,
): Promise<{ forecast_origin: string | null; newest_draw_used: NewestDraw | null }> {
  return { forecast_origin: origin, newest_draw_used: origin === null ? null : await newestDrawThrough(db, origin) };
}

/** drawDateTime of each category's newest draw on or before `through`. */
export async function latestDrawTimes(
  db: Kysely<DrawsDatabase>,
  categoryIds: readonly number[],
  through: string,
): Promise<Map<number, string>> {
  const result = new Map<number, string>();
  for (const id of categoryIds) {
    const row = await db
      .selectFrom('draws_draws')
      .select('drawn_at')
      .where('category_id', '=', id)
      .where('date', '<=', through)
      .orderBy('date', 'desc')
      .orderBy('round_sort_key', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row?.drawn_at) result.set(id, row.drawn_at);
  }
  return result;
}

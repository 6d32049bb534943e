// Every query of Service D's routes, free of the HTTP framework. Dates are YYYY-MM-DD text, so string
// comparison orders them; draws are ordered newest first with round number and id as tie-breaks.
import type { Kysely } from 'kysely';
import { getAggregate, listDataVersions } from '../../core/db/datasets.ts';
import { dbBool, num } from '../../core/db/dialect.ts';
import { dayNumber, isoFromDayNumber } from './feed/ircc-dates.ts';
import type { Prediction } from './forecast/forecast-category.ts';
import type { ModelName } from './forecast/models.ts';
import { FORECASTS_DATASET, readForecasts, ROUNDS_DATASET, SERVICE } from './forecasts.ts';
import { STATISTICS_AGGREGATE } from './import.ts';
import type { StoredStatistics } from './import.ts';

export interface CategoryRow {
  id: number;
  slug: string;
  name: string;
  description: string | null;
  is_active: boolean;
  created_at: string;
}

export interface DrawRecord {
  id: number;
  round_number: string;
  date: string;
  category_id: number;
  category_name: string;
  draw_name: string;
  invitations_issued: number;
  lowest_crs_score: number;
  tie_break_at: string | null;
  days_since_last_draw: number | null;
  url: string | null;
}

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

function categoryRow(r: Record<string, any>): CategoryRow {
  return {
    id: Number(r.id),
    slug: r.slug,
    name: r.name,
    description: r.description ?? null,
    is_active: Boolean(r.is_active),
    created_at: r.created_at,
  };
}

export async function listCategories(db: Kysely<any>, options: { activeOnly: boolean }): Promise<CategoryRow[]> {
  let query = db
    .selectFrom('draws_categories')
    .select(['id', 'slug', 'name', 'description', 'is_active', 'created_at'])
    .orderBy('sort_order')
    .orderBy('id');
  if (options.activeOnly) query = query.where('is_active', '=', dbBool(db, true));
  return (await query.execute()).map(categoryRow);
}

export async function findCategory(db: Kysely<any>, id: number): Promise<CategoryRow | null> {
  // Ids are 32-bit integer columns: a larger number names no category (and must not reach PostgreSQL as one).
  if (!Number.isInteger(id) || id < 0 || id > 2_147_483_647) return null;
  const row = await db
    .selectFrom('draws_categories')
    .select(['id', 'slug', 'name', 'description', 'is_active', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? categoryRow(row) : null;
}

export async function listDraws(db: Kysely<any>, filter: DrawFilter = {}): Promise<DrawRecord[]> {
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
  return (await query.execute()).map((r) => ({
    id: Number(r.id),
    round_number: r.round_number,
    date: r.date,
    category_id: Number(r.category_id),
    category_name: r.category_name,
    draw_name: r.draw_name,
    invitations_issued: Number(r.invitations),
    lowest_crs_score: Number(r.crs),
    tie_break_at: r.tie_break_at ?? null,
    days_since_last_draw: r.days_since_last_draw === null || r.days_since_last_draw === undefined ? null : Number(r.days_since_last_draw),
    url: r.url ?? null,
  }));
}

/** The window of /api/draws/recent/: the as-of date and the 30 days before it. */
export const RECENT_DAYS = 30;

export function recentWindow(asOf: string): { from: string; through: string } {
  return { from: isoFromDayNumber(dayNumber(asOf) - RECENT_DAYS), through: asOf };
}

/** Stored predictions by category id, ranks in order. */
export async function listPredictions(db: Kysely<any>, categoryId?: number): Promise<Map<number, Prediction[]>> {
  let query = db.selectFrom('draws_predictions').selectAll().orderBy('category_id').orderBy('rank');
  if (categoryId !== undefined) query = query.where('category_id', '=', categoryId);
  const result = new Map<number, Prediction[]>();
  for (const r of await query.execute()) {
    const id = Number(r.category_id);
    const list = result.get(id) ?? [];
    list.push({
      rank: Number(r.rank),
      predicted_date: r.predicted_date,
      predicted_crs_score: Number(r.predicted_crs_score),
      predicted_invitations: Number(r.predicted_invitations),
      confidence_score: Number(r.confidence_score),
      model_used: r.model_used as ModelName,
      uncertainty_range: {
        min: Number(r.range_min),
        max: Number(r.range_max),
        confidence_level: 95,
        margin_of_error: Number(r.margin_of_error),
      },
      date_range: { earliest: r.date_earliest, latest: r.date_latest },
    });
    result.set(id, list);
  }
  return result;
}

export async function readStatistics(db: Kysely<any>): Promise<StoredStatistics | null> {
  return (await getAggregate<StoredStatistics>(db, SERVICE, STATISTICS_AGGREGATE))?.value ?? null;
}

export interface RowCounts {
  draws: number;
  /** Active categories. */
  categories: number;
  predictions: number;
}

export async function countRows(db: Kysely<any>): Promise<RowCounts> {
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

export interface DataSource {
  /** "ircc": imported from IRCC's feed; "demo": generated, not real draws; "none": nothing imported yet. */
  kind: 'ircc' | 'demo' | 'none';
  description: string;
  source: string | null;
  imported_at: string | null;
  data_version: string | null;
  /** The date "recent" is measured to. */
  as_of: string;
  /** The as-of date the stored forecasts were computed for. */
  forecasts_as_of: string | null;
}

/** What a response's data_source says; `forecastsAsOf` is read from the stored forecasts unless given. */
export async function dataSource(db: Kysely<any>, asOf: string, forecastsAsOf?: string | null): Promise<DataSource> {
  if (forecastsAsOf === undefined) forecastsAsOf = (await readForecasts(db))?.value.as_of ?? null;
  const versions = await listDataVersions(db, SERVICE);
  const rounds = versions.find((v) => v.dataset === ROUNDS_DATASET);
  const forecasts = versions.find((v) => v.dataset === FORECASTS_DATASET);
  if (!rounds) {
    return {
      kind: 'none',
      description: 'No draws imported yet (import draws <file or URL>).',
      source: null,
      imported_at: null,
      data_version: null,
      as_of: asOf,
      forecasts_as_of: null,
    };
  }
  return {
    kind: rounds.is_demo ? 'demo' : 'ircc',
    description: rounds.is_demo
      ? 'Generated demo data (pdi generate draws): NOT real Express Entry rounds; for trying the service offline.'
      : "Imported from IRCC's Express Entry rounds feed (ee_rounds_123_en.json).",
    source: rounds.source,
    imported_at: rounds.imported_at,
    data_version: forecasts && forecasts.imported_at > rounds.imported_at ? `${rounds.version}+${forecasts.version}` : rounds.version,
    as_of: asOf,
    forecasts_as_of: forecastsAsOf,
  };
}

/** drawDateTime of each category's newest draw on or before `through`. */
export async function latestDrawTimes(db: Kysely<any>, categoryIds: readonly number[], through: string): Promise<Map<number, string>> {
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
    if (row) result.set(id, row.drawn_at);
  }
  return result;
}

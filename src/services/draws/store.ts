// Every write of Service D, inside the caller's transaction: categories with stable ids, the draws (upsert
// by round number, so ids stay stable and a second import of the same feed changes nothing), and the
// forecasts (stored predictions and the forecasts aggregate, replaced together).
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { putAggregate } from '../../core/db/datasets.ts';
import { dbBool, dbJson, insertMany, readJson } from '../../core/db/dialect.ts';
import { FORECASTS_AGGREGATE, SERVICE } from './aggregates.ts';
import type { ComputedForecasts, StoredForecasts } from './aggregates.ts';
import type { CanonicalCategory } from './feed/categories.ts';
import type { PoolDistribution } from './feed/pool-distribution.ts';
import type { DrawRow, DrawsDatabase } from './tables.ts';

/** Ids from here on go to categories no rule knows; the known families keep ids 1…99 (their listing order). */
const FIRST_NEW_CATEGORY_ID = 101;

/** A draw as the importer wants it stored (the row without its id, the pool distribution decoded). */
/** (The French texts are the French feed's importer's: the English feed's import leaves them as they are.) */
export type DrawValues = Omit<DrawRow, 'id' | 'pool_distribution' | 'draw_name_fr' | 'programs_fr'> & {
  pool_distribution: PoolDistribution | null;
};

/** A stored row as the importer's values (what a round of the feed is compared with). */
export function storedDrawValues(row: DrawRow): DrawValues {
  const { id: _id, pool_distribution, draw_name_fr: _name, programs_fr: _programs, ...rest } = row;
  return { ...rest, pool_distribution: pool_distribution === null ? null : readJson<PoolDistribution>(pool_distribution) };
}

function writable(db: Kysely<DrawsDatabase>, values: DrawValues) {
  return { ...values, pool_distribution: values.pool_distribution === null ? null : dbJson(db, values.pool_distribution) };
}

/**
 * Inserts new categories with stable ids, updates changed ones, marks those without draws inactive (except
 * `stillActive`: categories of stored rounds the import keeps); slug → id.
 */
export async function syncCategories(
  trx: Kysely<DrawsDatabase>,
  categories: readonly CanonicalCategory[],
  now: string,
  stillActive: ReadonlySet<number> = new Set(),
): Promise<Map<string, number>> {
  const existing = await trx.selectFrom('draws_categories').selectAll().execute();
  const bySlug = new Map(existing.map((r) => [r.slug, r]));
  const usedIds = new Set(existing.map((r) => r.id));
  let nextNewId = Math.max(FIRST_NEW_CATEGORY_ID - 1, ...usedIds) + 1;
  const ids = new Map<string, number>();
  for (const c of categories) {
    const row = bySlug.get(c.slug);
    const wanted = { name: c.name, description: c.description, is_active: true, is_known: c.known, sort_order: c.sortOrder };
    const stored = (values: typeof wanted) => ({
      ...values,
      is_active: dbBool(trx, values.is_active),
      is_known: dbBool(trx, values.is_known),
    });
    if (!row) {
      const id = c.known && !usedIds.has(c.sortOrder) ? c.sortOrder : nextNewId++;
      usedIds.add(id);
      await trx
        .insertInto('draws_categories')
        .values({ id, slug: c.slug, ...stored(wanted), created_at: now })
        .execute();
      ids.set(c.slug, id);
      continue;
    }
    const current = {
      name: row.name,
      description: row.description,
      is_active: Boolean(row.is_active),
      is_known: Boolean(row.is_known),
      sort_order: row.sort_order,
    };
    if (!isDeepStrictEqual(current, wanted))
      await trx.updateTable('draws_categories').set(stored(wanted)).where('id', '=', row.id).execute();
    ids.set(c.slug, row.id);
  }
  const present = new Set(categories.map((c) => c.slug));
  for (const row of existing) {
    if (!present.has(row.slug) && !stillActive.has(row.id) && Boolean(row.is_active)) {
      await trx
        .updateTable('draws_categories')
        .set({ is_active: dbBool(trx, false) })
        .where('id', '=', row.id)
        .execute();
    }
  }
  return ids;
}

export interface DrawChanges {
  /** Rows stored before the write. */
  storedBefore: number;
  inserted: number;
  updated: number;
  unchanged: number;
  deleted: number;
}

/**
 * Makes the stored draws exactly `desired` (by round number): changed rows are updated in place (same id),
 * rows the feed no longer has are deleted, new rows are inserted oldest first so that ids follow the rounds.
 * `onRow` is called once per stored row compared (for progress).
 */
export async function replaceDraws(
  trx: Kysely<DrawsDatabase>,
  desired: ReadonlyMap<string, DrawValues>,
  onRow: () => void = () => {},
): Promise<DrawChanges> {
  const existing = await trx.selectFrom('draws_draws').selectAll().execute();
  const changes: DrawChanges = { storedBefore: existing.length, inserted: 0, updated: 0, unchanged: 0, deleted: 0 };
  const seen = new Set<string>();
  const stale: number[] = [];
  for (const row of existing) {
    const wanted = desired.get(row.round_number);
    if (!wanted) {
      stale.push(row.id);
      continue;
    }
    seen.add(row.round_number);
    // JSON comparison by structure: PostgreSQL's jsonb does not keep key order.
    if (isDeepStrictEqual(storedDrawValues(row), JSON.parse(JSON.stringify(wanted)))) {
      changes.unchanged++;
    } else {
      await trx.updateTable('draws_draws').set(writable(trx, wanted)).where('id', '=', row.id).execute();
      changes.updated++;
    }
    onRow();
  }
  for (let i = 0; i < stale.length; i += 500)
    await trx
      .deleteFrom('draws_draws')
      .where('id', 'in', stale.slice(i, i + 500))
      .execute();
  changes.deleted = stale.length;
  const fresh = [...desired.values()]
    .filter((r) => !seen.has(r.round_number))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || a.round_sort_key - b.round_sort_key);
  await insertMany(
    trx,
    'draws_draws',
    fresh.map((r) => writable(trx, r)),
  );
  changes.inserted = fresh.length;
  return changes;
}

/** Deletes every stored draw (generated demo rounds a feed replaces); how many there were. */
export async function deleteAllDraws(trx: Kysely<DrawsDatabase>): Promise<number> {
  const result = await trx.deleteFrom('draws_draws').executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Replaces the stored predictions and the forecasts aggregate (inside the caller's transaction). */
export async function writeForecasts(
  trx: Kysely<DrawsDatabase>,
  computed: ComputedForecasts,
  roundsVersion: string,
  dataVersion: string,
): Promise<void> {
  await trx.deleteFrom('draws_predictions').execute();
  await insertMany(
    trx,
    'draws_predictions',
    computed.predictions.map(({ categoryId, prediction: p }) => ({
      category_id: categoryId,
      rank: p.rank,
      predicted_date: p.predicted_date,
      predicted_crs_score: p.predicted_crs_score,
      predicted_invitations: p.predicted_invitations,
      confidence_score: p.confidence_score,
      confidence_forecasts_scored: p.confidence_forecasts_scored,
      model_used: p.model_used,
      range_min: p.uncertainty_range.min,
      range_max: p.uncertainty_range.max,
      margin_of_error: p.uncertainty_range.margin_of_error,
      invitations_min: p.invitations_range?.min ?? null,
      invitations_max: p.invitations_range?.max ?? null,
      date_earliest: p.date_range.earliest,
      date_latest: p.date_range.latest,
      likely_earliest: p.likely_window?.earliest ?? null,
      likely_latest: p.likely_window?.latest ?? null,
      likely_probability: p.likely_window?.probability ?? null,
      as_of: computed.value.as_of,
    })),
  );
  const value: StoredForecasts = { ...computed.value, rounds_version: roundsVersion };
  await putAggregate(trx, SERVICE, FORECASTS_AGGREGATE, dataVersion, value);
}

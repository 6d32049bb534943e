// `import draws <file | directory | URL>`: IRCC's rounds feed in, every round kept. One transaction (a
// failure leaves the old data); upsert by round number so ids stay stable and a second import of the same
// feed reports every round unchanged; rounds the feed no longer has are deleted (the feed is the whole
// history). Categories are normalised by the feed domain and keep their ids; statistics and forecasts are
// computed in the same transaction and stored with the new data version.
import fs from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import { putAggregate } from '../../core/db/datasets.ts';
import { dbBool, dbJson, insertMany, readJson } from '../../core/db/dialect.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { resolveAsOf } from './as-of.ts';
import { categoriseRounds } from './feed/categories.ts';
import type { CanonicalCategory } from './feed/categories.ts';
import { fetchRoundsFeed, parseRoundsFeed, RoundsFeedError } from './feed/rounds-feed.ts';
import type { ParsedRound } from './feed/rounds-feed.ts';
import { computeForecasts, ROUNDS_DATASET, SERVICE, writeForecasts } from './forecasts.ts';
import type { CategoryDraws } from './forecasts.ts';
import { categoryStatistics, daysSinceLastDraw, overallStatistics } from './summary.ts';
import type { CategoryStatistics, OverallStatistics } from './summary.ts';
import { parseSourceJson } from '../../core/source-text.ts';

/** Top-level key of a feed file written by `generate draws`: its presence marks the data as generated. */
export const GENERATED_MARKER = 'pdiGenerated';
/** Ids from here on go to categories no rule knows; the known families keep ids 1…99 (their listing order). */
export const FIRST_NEW_CATEGORY_ID = 101;
export const STATISTICS_AGGREGATE = 'statistics';
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

export interface StoredStatistics {
  overall: OverallStatistics;
  /** By category id, for categories with draws. */
  categories: Record<string, CategoryStatistics>;
}

export interface LoadedFeed {
  /** What was read: the file's absolute path or the URL. */
  source: string;
  rounds: ParsedRound[];
  /** True when the file carries the generator's marker. */
  generated: boolean;
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function parseDocument(text: string, source: string): { rounds: ParsedRound[]; generated: boolean } {
  let document: unknown;
  try {
    document = parseSourceJson(text);
  } catch (error) {
    throw new RoundsFeedError([{ round: '-', field: '(document)', message: `${source} is not JSON: ${(error as Error).message}` }]);
  }
  const generated = typeof document === 'object' && document !== null && (document as Record<string, unknown>)[GENERATED_MARKER] != null;
  return { rounds: parseRoundsFeed(document), generated };
}

/** A directory holds one feed file (`generate draws` writes exactly one). */
async function feedFileIn(dir: string): Promise<string> {
  const files = (await fs.readdir(dir)).filter((f) => f.toLowerCase().endsWith('.json')).sort();
  if (files.length !== 1) {
    throw new Error(`${dir} must hold exactly one rounds feed (.json) file; found ${files.length === 0 ? 'none' : files.join(', ')}`);
  }
  return path.join(dir, files[0]);
}

/**
 * Reads and parses a feed from a file, a directory holding one, or an http(s) URL (IRCC's official
 * address: IRCC_ROUNDS_FEED_URL). Throws FeedFetchError (offline, timeout, HTTP error) or RoundsFeedError
 * (a round that cannot be read), before anything is written.
 */
export async function loadRoundsFeed(source: string, options: { timeoutMs?: number } = {}): Promise<LoadedFeed> {
  if (isUrl(source)) {
    const fetched = await fetchRoundsFeed(source, { timeoutMs: options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS });
    const { generated } = parseDocument(fetched.body, source);
    return { source, rounds: fetched.rounds, generated };
  }
  let file = path.resolve(source);
  const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === 'ENOENT' ? `no such file or directory: ${file}` : `cannot read ${file}: ${error.message}`);
  });
  if (stat.isDirectory()) file = await feedFileIn(file);
  const text = await fs.readFile(file, 'utf8');
  return { source: file, ...parseDocument(text, file) };
}

interface DrawRow {
  round_number: string;
  round_sort_key: number;
  date: string;
  category_id: number;
  draw_name: string;
  invitations: number;
  crs: number;
  drawn_at: string;
  tie_break_at: string | null;
  programs: string;
  pool_distribution: unknown;
  url: string | null;
  days_since_last_draw: number | null;
}

function storedDrawRow(r: Record<string, any>): DrawRow {
  return {
    round_number: r.round_number,
    round_sort_key: Number(r.round_sort_key),
    date: r.date,
    category_id: Number(r.category_id),
    draw_name: r.draw_name,
    invitations: Number(r.invitations),
    crs: Number(r.crs),
    drawn_at: r.drawn_at,
    tie_break_at: r.tie_break_at ?? null,
    programs: r.programs,
    pool_distribution: readJson(r.pool_distribution),
    url: r.url ?? null,
    days_since_last_draw: r.days_since_last_draw === null || r.days_since_last_draw === undefined ? null : Number(r.days_since_last_draw),
  };
}

function writableDrawRow(trx: Kysely<any>, row: DrawRow): Record<string, unknown> {
  return { ...row, pool_distribution: dbJson(trx, row.pool_distribution) };
}

/** Inserts new categories with stable ids, updates changed ones, marks those without draws inactive. */
async function syncCategories(trx: Kysely<any>, categories: readonly CanonicalCategory[], now: string): Promise<Map<string, number>> {
  const existing = await trx.selectFrom('draws_categories').selectAll().execute();
  const bySlug = new Map(existing.map((r) => [r.slug as string, r]));
  const usedIds = new Set(existing.map((r) => Number(r.id)));
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
      sort_order: Number(row.sort_order),
    };
    if (!isDeepStrictEqual(current, wanted))
      await trx.updateTable('draws_categories').set(stored(wanted)).where('id', '=', row.id).execute();
    ids.set(c.slug, Number(row.id));
  }
  const present = new Set(categories.map((c) => c.slug));
  for (const row of existing) {
    if (!present.has(row.slug) && Boolean(row.is_active)) {
      await trx
        .updateTable('draws_categories')
        .set({ is_active: dbBool(trx, false) })
        .where('id', '=', row.id)
        .execute();
    }
  }
  return ids;
}

export interface ImportRoundsOptions {
  /** Mark the data as generated even without the generator's marker in the file. */
  isDemo?: boolean;
  /** As-of date of the forecasts (default: PDI_DRAWS_AS_OF, else today in Toronto). */
  asOf?: string;
  timeoutMs?: number;
}

/** Imports a rounds feed; see the file comment. */
export async function importRounds(ctx: ServiceContext, source: string, options: ImportRoundsOptions = {}): Promise<ImportReport> {
  const asOf = options.asOf ?? resolveAsOf(ctx.config.env);
  const feed = await loadRoundsFeed(source, options);
  const isDemo = options.isDemo === true || feed.generated;
  const report = await runImport(
    ctx.db,
    {
      service: SERVICE,
      importer: 'rounds',
      dataset: ROUNDS_DATASET,
      source: feed.source,
      isDemo,
      progress: { total: feed.rounds.length, unit: 'rounds' },
    },
    async (trx, { tally, progress, dataVersion }) => {
      const now = new Date().toISOString();
      tally.read(feed.rounds.length);
      const groups = categoriseRounds(feed.rounds);
      const categoryIds = await syncCategories(
        trx,
        groups.map((g) => g.category),
        now,
      );

      const desired = new Map<string, DrawRow>();
      for (const group of groups) {
        const categoryId = categoryIds.get(group.category.slug)!;
        const days = daysSinceLastDraw(group.rounds);
        for (const r of group.rounds) {
          desired.set(r.roundNumber, {
            round_number: r.roundNumber,
            round_sort_key: r.roundSortKey,
            date: r.date,
            category_id: categoryId,
            draw_name: r.drawName,
            invitations: r.invitations,
            crs: r.crs,
            drawn_at: r.drawnAt,
            tie_break_at: r.tieBreakAt,
            programs: r.programs,
            pool_distribution: r.poolDistribution,
            url: r.url,
            days_since_last_draw: days.get(r.roundNumber) ?? null,
          });
        }
      }

      const existing = await trx.selectFrom('draws_draws').selectAll().execute();
      const seen = new Set<string>();
      const stale: number[] = [];
      for (const row of existing) {
        const wanted = desired.get(row.round_number);
        if (!wanted) {
          stale.push(Number(row.id));
          continue;
        }
        seen.add(row.round_number);
        // JSON comparison by structure: PostgreSQL's jsonb does not keep key order.
        if (isDeepStrictEqual(storedDrawRow(row), JSON.parse(JSON.stringify(wanted)))) {
          tally.unchanged();
        } else {
          await trx.updateTable('draws_draws').set(writableDrawRow(trx, wanted)).where('id', '=', row.id).execute();
          tally.updated();
        }
        progress.tick();
      }
      for (let i = 0; i < stale.length; i += 500)
        await trx
          .deleteFrom('draws_draws')
          .where('id', 'in', stale.slice(i, i + 500))
          .execute();
      tally.deleted(stale.length);
      // New rounds oldest first, so ids follow the order of the rounds.
      const fresh = [...desired.values()]
        .filter((r) => !seen.has(r.round_number))
        .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || a.round_sort_key - b.round_sort_key);
      await insertMany(
        trx,
        'draws_draws',
        fresh.map((r) => writableDrawRow(trx, r)),
      );
      tally.inserted(fresh.length);
      progress.tick(fresh.length);

      const statistics: StoredStatistics = {
        overall: overallStatistics(feed.rounds),
        categories: Object.fromEntries(groups.map((g) => [String(categoryIds.get(g.category.slug)), categoryStatistics(g.rounds)])),
      };
      await putAggregate(trx, SERVICE, STATISTICS_AGGREGATE, dataVersion, statistics);

      const forecastInput: CategoryDraws[] = groups
        .map((g) => ({
          id: categoryIds.get(g.category.slug)!,
          slug: g.category.slug,
          draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
        }))
        .sort((a, b) => a.id - b.id);
      await writeForecasts(trx, computeForecasts(forecastInput, asOf), dataVersion, dataVersion);
    },
  );
  ctx.dataVersion.invalidate();
  return report;
}

// `import draws <file | directory | URL>`: IRCC's rounds feed in, every round kept. One transaction (a
// failure leaves the old data); upsert by round number so ids stay stable and a second import of the same
// feed reports every round unchanged; rounds the feed no longer has are deleted (the feed is the whole
// history), within the import guard (more than 10% of the stored rounds refused unless --allow-shrink).
// A round the feed still lists but whose primary fields cannot be read is skipped with its reason, and its
// stored copy is kept; a secondary field that cannot be read is null with a warning, and never replaces a
// value already stored for that round (its stored value is kept). Generated
// demo rounds are removed, not counted as deleted, when a feed replaces them. Categories are normalised by
// the feed domain and keep their ids; statistics and forecasts are computed from the stored draws in the
// same transaction and kept with the new data version.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { listDataVersions, putAggregate } from '../../core/db/datasets.ts';
import { runImport } from '../../core/import.ts';
import type { ImportGuard, ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { computeForecasts, computeStatistics, daysSinceLastDraw, ROUNDS_DATASET, SERVICE, STATISTICS_AGGREGATE } from './aggregates.ts';
import type { CategoryDraws, DrawFact } from './aggregates.ts';
import { resolveAsOf } from './as-of.ts';
import { categoriseRounds } from './feed/categories.ts';
import { fetchRoundsFeed, parseFeedText, parseRoundsFeed } from './feed/rounds-feed.ts';
import { staleAfterDays } from './freshness.ts';
import type { ParsedFeed } from './feed/rounds-feed.ts';
import { deleteAllDraws, replaceDraws, storedDrawValues, syncCategories, writeForecasts } from './store.ts';
import type { DrawValues } from './store.ts';
import type { DrawsDatabase, DrawsTables } from './tables.ts';
import { deleteDemoTrackRecord, recordServedForecasts, scoreTrackRecord } from './track-record.ts';

/** Top-level key of a feed file written by `generate draws`: its presence marks the data as generated. */
export const GENERATED_MARKER = 'pdiGenerated';
const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

interface LoadedFeed {
  /** What was read: the file's absolute path or the URL. */
  source: string;
  feed: ParsedFeed;
  /** True when the file carries the generator's marker. */
  generated: boolean;
}

function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

function isGenerated(document: unknown): boolean {
  return typeof document === 'object' && document !== null && (document as Record<string, unknown>)[GENERATED_MARKER] != null;
}

/**
 * The feed file of a directory: its one .json file, or, beside its twin in the other language (`generate draws` writes
 * ee_rounds_123_en… and ee_rounds_123_fr…), the one named for the language asked.
 */
async function feedFileIn(dir: string, language: 'en' | 'fr'): Promise<string> {
  const all = (await fs.readdir(dir)).filter((f) => f.toLowerCase().endsWith('.json')).sort();
  const named = all.filter((f) => new RegExp(`_${language}[._]`, 'i').test(f));
  const files = all.length > 1 && named.length === 1 ? named : all;
  if (files.length !== 1) {
    throw new Error(`${dir} must hold exactly one rounds feed (.json) file; found ${files.length === 0 ? 'none' : files.join(', ')}`);
  }
  return path.join(dir, files[0]);
}

/** The French feed beside the English one in a local directory (as `generate draws` writes them), if there is one. */
export async function frenchFeedBeside(source: string): Promise<string | undefined> {
  if (isUrl(source)) return undefined;
  const dir = path.resolve(source);
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) return undefined;
  const all = (await fs.readdir(dir)).filter((f) => f.toLowerCase().endsWith('.json'));
  const french = all.filter((f) => /_fr[._]/i.test(f));
  return all.length === 2 && french.length === 1 ? path.join(dir, french[0]) : undefined;
}

/**
 * Reads and parses a feed from a file, a directory holding one, or an http(s) URL (IRCC's official
 * address: IRCC_ROUNDS_FEED_URL), before anything is written. Throws FeedFetchError (offline, timeout,
 * HTTP error), TruncatedSourceError (a document cut short) or RoundsFeedError (not the feed).
 */
async function loadRoundsFeed(source: string, options: { timeoutMs?: number; language?: 'en' | 'fr' } = {}): Promise<LoadedFeed> {
  if (isUrl(source)) {
    const fetched = await fetchRoundsFeed(source, { timeoutMs: options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS });
    return { source, feed: fetched.feed, generated: isGenerated(fetched.document) };
  }
  let file = path.resolve(source);
  const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    throw new Error(error.code === 'ENOENT' ? `no such file or directory: ${file}` : `cannot read ${file}: ${error.message}`);
  });
  if (stat.isDirectory()) file = await feedFileIn(file, options.language ?? 'en');
  const document = parseFeedText(await fs.readFile(file, 'utf8'), file);
  return { source: file, feed: parseRoundsFeed(document, file), generated: isGenerated(document) };
}

export interface ImportRoundsOptions {
  /** Mark the data as generated even without the generator's marker in the file. */
  isDemo?: boolean;
  /** As-of date of the forecasts (default: PDI_DRAWS_AS_OF, else today in Toronto). */
  asOf?: string;
  timeoutMs?: number;
  /** Limits on deletions and unreadable rounds (`importGuard(options)` of the CLI's flags); the defaults apply when omitted. */
  guard?: ImportGuard;
}

/** The draw of a round as stored, without days_since_last_draw (set per category once every draw is known). */
function drawValues(feed: ParsedFeed, categoryIds: ReadonlyMap<string, number>): Map<string, DrawValues> {
  const desired = new Map<string, DrawValues>();
  for (const group of categoriseRounds(feed.rounds)) {
    const categoryId = categoryIds.get(group.category.slug)!;
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
        days_since_last_draw: null,
      });
    }
  }
  return desired;
}

function fact(v: DrawValues): DrawFact {
  return { roundNumber: v.round_number, roundSortKey: v.round_sort_key, date: v.date, crs: v.crs, invitations: v.invitations };
}

/** The stored column a secondary field of the feed fills (every pool count and its date fill the distribution). */
function secondaryColumn(field: string): 'drawn_at' | 'tie_break_at' | 'programs' | 'pool_distribution' | 'url' | null {
  if (field === 'drawDateTime') return 'drawn_at';
  if (field === 'drawCutOff') return 'tie_break_at';
  if (field === 'drawText2') return 'programs';
  if (field === 'drawNumberURL') return 'url';
  if (field === 'drawDistributionAsOn' || /^dd\d+$/.test(field)) return 'pool_distribution';
  return null;
}

/** Stored rows of rounds the feed lists but could not read: kept as they are. */
async function storedCopies(trx: Kysely<DrawsDatabase>, roundNumbers: readonly string[]): Promise<DrawValues[]> {
  if (roundNumbers.length === 0) return [];
  const rows = await trx.selectFrom('draws_draws').selectAll().where('round_number', 'in', roundNumbers).execute();
  return rows.map(storedDrawValues);
}

function keepStored<K extends keyof DrawValues>(target: DrawValues, stored: DrawValues, column: K): void {
  target[column] = stored[column];
}

/** Imports a rounds feed; see the file comment. */
export async function importRounds(ctx: ServiceContext, source: string, options: ImportRoundsOptions = {}): Promise<ImportReport> {
  const asOf = options.asOf ?? resolveAsOf(ctx.config.env);
  const loaded = await loadRoundsFeed(source, options);
  const { feed } = loaded;
  const isDemo = options.isDemo === true || loaded.generated;
  for (const s of feed.skipped) ctx.log.warn({ source: loaded.source, round: s.round, field: s.field }, `round skipped: ${s.message}`);
  const report = await runImport(
    ctx.db,
    {
      service: SERVICE,
      importer: 'rounds',
      dataset: ROUNDS_DATASET,
      source: loaded.source,
      isDemo,
      guard: options.guard,
      progress: { total: feed.total, unit: 'rounds' },
    },
    async (core, { tally, progress, dataVersion }) => {
      const trx = core.withTables<DrawsTables>();
      const now = new Date().toISOString();
      tally.read(feed.total);
      for (const s of feed.skipped) {
        if (s.duplicate) tally.exclude(s.reason);
        else tally.skip(s.reason);
      }
      for (const w of feed.warnings) tally.warn(w.message);

      // Generated rounds make way for the feed: removed, and not counted as deleted data.
      const previous = (await listDataVersions(trx, SERVICE)).find((v) => v.dataset === ROUNDS_DATASET);
      if (previous?.is_demo) {
        tally.demoRemoved(await deleteAllDraws(trx));
        await deleteDemoTrackRecord(trx); // forecasts of generated draws have nothing real to be judged on
      }

      const readable = new Set(feed.rounds.map((r) => r.roundNumber));
      const unreadable = [
        ...new Set(feed.skipped.flatMap((s) => (s.roundNumber !== null && !readable.has(s.roundNumber) ? [s.roundNumber] : []))),
      ];
      const kept = await storedCopies(trx, unreadable);
      for (const k of kept) tally.warn(`round ${k.round_number}: unreadable in the feed; the stored copy is kept`);

      const categoryIds = await syncCategories(
        trx,
        categoriseRounds(feed.rounds).map((g) => g.category),
        now,
        new Set(kept.map((k) => k.category_id)),
      );
      const desired = drawValues(feed, categoryIds);
      for (const k of kept) desired.set(k.round_number, k);
      // A secondary value the feed holds but that could not be read never replaces the stored one.
      const unread = feed.warnings.flatMap((w) => {
        const column = secondaryColumn(w.field);
        return column !== null && desired.has(w.round) ? [{ round: w.round, field: w.field, column }] : [];
      });
      const storedRounds = new Map((await storedCopies(trx, [...new Set(unread.map((u) => u.round))])).map((v) => [v.round_number, v]));
      for (const u of unread) {
        const stored = storedRounds.get(u.round);
        if (!stored || stored[u.column] === null) continue;
        keepStored(desired.get(u.round)!, stored, u.column);
        tally.warn(`round ${u.round}: ${u.field} could not be read; the stored value is kept`);
      }
      const byCategory = new Map<number, DrawValues[]>();
      for (const v of desired.values()) byCategory.set(v.category_id, [...(byCategory.get(v.category_id) ?? []), v]);
      for (const draws of byCategory.values()) {
        const days = daysSinceLastDraw(draws.map(fact));
        for (const v of draws) v.days_since_last_draw = days.get(v.round_number) ?? null;
      }

      const changes = await replaceDraws(trx, desired, () => progress.tick());
      tally.storedBefore(changes.storedBefore);
      tally.unchanged(changes.unchanged);
      tally.updated(changes.updated);
      tally.deleted(changes.deleted);
      tally.inserted(changes.inserted);
      progress.tick(changes.inserted);

      const ids = [...byCategory.keys()].sort((a, b) => a - b);
      const facts = new Map(ids.map((id) => [id, byCategory.get(id)!.map(fact)]));
      const statistics = computeStatistics(facts, asOf);
      await putAggregate(trx, SERVICE, STATISTICS_AGGREGATE, dataVersion, statistics);

      const slugs = new Map((await trx.selectFrom('draws_categories').select(['id', 'slug']).execute()).map((c) => [c.id, c.slug]));
      const forecastInput: CategoryDraws[] = ids.map((id) => ({
        id,
        slug: slugs.get(id)!,
        draws: facts.get(id)!.map((d) => ({ date: d.date, crs: d.crs, invitations: d.invitations, roundSortKey: d.roundSortKey })),
      }));
      // Generated data ends on the as-of date and is never called stale (repository.ts), so its forecasts are not either.
      const staleLimit = isDemo ? null : staleAfterDays(ctx.config.env);
      await writeForecasts(trx, computeForecasts(forecastInput, asOf, staleLimit), dataVersion, dataVersion);
      // The draws just imported judge the forecasts made before them; then the new forecasts join the record.
      await scoreTrackRecord(trx);
      await recordServedForecasts(trx, { dataVersion, isDemo, recordedBy: 'import' });
    },
  );
  ctx.dataVersion.invalidate();
  return report;
}

/** The data set of the French feed: its own data version, beside the English feed's. */
const FRENCH_ROUNDS_DATASET = 'rounds_fr';

/**
 * Imports IRCC's French rounds feed (ee_rounds_123_fr.json: the English feed's format, its texts in French) beside
 * the English one: each stored round takes the French drawName and drawText2 of the round of the same number.
 * Only those two columns are written; the English feed's import stays the source of every round and value. A round
 * of one feed that the other lacks is a warning: the French feed's round is not stored, the stored round keeps
 * the French texts it had (or none). Unreadable rounds are skipped, as in the English feed.
 */
export async function importFrenchRounds(
  ctx: ServiceContext,
  source: string,
  options: Pick<ImportRoundsOptions, 'isDemo' | 'timeoutMs' | 'guard'> = {},
): Promise<ImportReport> {
  const loaded = await loadRoundsFeed(source, { ...options, language: 'fr' });
  const { feed } = loaded;
  const report = await runImport(
    ctx.db,
    {
      service: SERVICE,
      importer: 'rounds_fr',
      dataset: FRENCH_ROUNDS_DATASET,
      source: loaded.source,
      isDemo: options.isDemo === true || loaded.generated,
      guard: options.guard,
      progress: { total: feed.total, unit: 'rounds' },
    },
    async (core, { tally, progress }) => {
      const trx = core.withTables<DrawsTables>();
      tally.read(feed.total);
      for (const s of feed.skipped) {
        if (s.duplicate) tally.exclude(s.reason);
        else tally.skip(s.reason);
      }
      // the other fields (dates and times in French words, counts) are the English feed's to read
      for (const w of feed.warnings) if (w.field === 'drawText2') tally.warn(w.message);
      const stored = await trx.selectFrom('draws_draws').select(['id', 'round_number', 'draw_name_fr', 'programs_fr']).execute();
      tally.storedBefore(stored.length);
      const french = new Map(feed.rounds.map((r) => [r.roundNumber, r]));
      const storedNumbers = new Set(stored.map((r) => r.round_number));
      const unreadable = new Set(feed.skipped.flatMap((s) => (s.roundNumber === null ? [] : [s.roundNumber])));
      for (const round of feed.rounds) {
        if (!storedNumbers.has(round.roundNumber))
          tally.warn(`round ${round.roundNumber}: in the French feed only; not stored (import the English feed first)`);
      }
      let unchanged = 0;
      let updated = 0;
      for (const row of stored) {
        const round = french.get(row.round_number);
        if (round === undefined) {
          if (!unreadable.has(row.round_number)) tally.warn(`round ${row.round_number}: not in the French feed; its French texts are kept`);
          unchanged++;
          continue;
        }
        const programs = round.programs ?? row.programs_fr; // (an unreadable drawText2 keeps the stored French)
        if (row.draw_name_fr === round.drawName && row.programs_fr === programs) unchanged++;
        else {
          await trx
            .updateTable('draws_draws')
            .set({ draw_name_fr: round.drawName, programs_fr: programs })
            .where('id', '=', row.id)
            .execute();
          updated++;
        }
        progress.tick();
      }
      tally.unchanged(unchanged);
      tally.updated(updated);
    },
  );
  ctx.dataVersion.invalidate();
  return report;
}

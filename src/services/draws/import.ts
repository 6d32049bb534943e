// `import draws <file | directory | URL>`: IRCC's rounds feed in, every round kept. One transaction (a
// failure leaves the old data); upsert by round number so ids stay stable and a second import of the same
// feed reports every round unchanged; rounds the feed no longer has are deleted (the feed is the whole
// history). Categories are normalised by the feed domain and keep their ids; statistics and forecasts are
// computed in the same transaction and stored with the new data version.
import fs from 'node:fs/promises';
import path from 'node:path';
import { putAggregate } from '../../core/db/datasets.ts';
import { runImport } from '../../core/import.ts';
import type { ImportReport } from '../../core/import.ts';
import type { ServiceContext } from '../../core/service.ts';
import { parseSourceJson } from '../../core/source-text.ts';
import { computeForecasts, computeStatistics, daysSinceLastDraw, ROUNDS_DATASET, SERVICE, STATISTICS_AGGREGATE } from './aggregates.ts';
import type { CategoryDraws } from './aggregates.ts';
import { resolveAsOf } from './as-of.ts';
import { categoriseRounds } from './feed/categories.ts';
import { fetchRoundsFeed, parseRoundsFeed, RoundsFeedError } from './feed/rounds-feed.ts';
import type { ParsedRound } from './feed/rounds-feed.ts';
import { replaceDraws, syncCategories, writeForecasts } from './store.ts';
import type { DrawValues } from './store.ts';
import type { DrawsTables } from './tables.ts';

/** Top-level key of a feed file written by `generate draws`: its presence marks the data as generated. */
export const GENERATED_MARKER = 'pdiGenerated';
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;

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
    async (core, { tally, progress, dataVersion }) => {
      const trx = core.withTables<DrawsTables>();
      const now = new Date().toISOString();
      tally.read(feed.rounds.length);
      const groups = categoriseRounds(feed.rounds);
      const categoryIds = await syncCategories(
        trx,
        groups.map((g) => g.category),
        now,
      );

      const desired = new Map<string, DrawValues>();
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
      const changes = await replaceDraws(trx, desired, () => progress.tick());
      tally.unchanged(changes.unchanged);
      tally.updated(changes.updated);
      tally.deleted(changes.deleted);
      tally.inserted(changes.inserted);
      progress.tick(changes.inserted);

      const byCategory = new Map(groups.map((g) => [categoryIds.get(g.category.slug)!, g.rounds]));
      await putAggregate(trx, SERVICE, STATISTICS_AGGREGATE, dataVersion, computeStatistics(feed.rounds, byCategory));

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

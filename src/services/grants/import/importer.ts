// `import grants <csv>`: the federal "Proactive Publication – Grants and Contributions" CSV, streamed into one
// transaction (core runImport), one row per agreement (owner_org, reference) holding its highest amendment,
// idempotent (agreements keep their ids; unchanged agreements are counted as such; agreements the file no
// longer has are deleted), with every aggregate of the API recomputed in the same transaction.
//
// How the 1.3-million-row file stays fast and small:
//  - a worker thread reads, maps and cuts the file into ready-to-bind batches (reader.ts, batcher.ts,
//    rows.ts) while this thread gives the texts their dictionary ids and writes the rows as upserts (writer.ts)
//    (SQLite: a prepared one-row statement run per row; PostgreSQL: one statement per batch), whose conflict
//    clause applies the amendment rule (`supersedes`) in the database, so memory holds a few batches, never
//    the file;
//  - the table has no secondary index to maintain (searches are answered in memory: ../search/memory-search.ts), and
//    the searched texts are written once each, to the dictionary (the rows hold their ids);
//  - a first import on SQLite gets its aggregates from the worker, which accumulates them while this thread
//    writes and builds the index (tracker.ts), instead of a pass over the stored rows afterwards;
//  - on SQLite (and on an empty PostgreSQL table) the text dictionary's substring index is dropped for the
//    load and rebuilt once at the end, inside the transaction; readers keep the old snapshot. A PostgreSQL
//    dictionary that holds data keeps its index (dropping it would lock readers out until commit);
//  - on SQLite the import writes with a rollback journal when it is alone on the file (sqlite-journal.ts).
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Db } from '../../../core/db/database.ts';
import { dialectOf } from '../../../core/db/dialect.ts';
import { listDataVersions, putAggregate } from '../../../core/db/datasets.ts';
import { resumeSubstringIndex, suspendSubstringIndex } from '../../../core/db/search-index.ts';
import { TruncatedSourceError, runImport } from '../../../core/import.ts';
import type { ImportGuard, ImportReport } from '../../../core/import.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { AGGREGATE_NAMES, computeAggregates, fillFrenchNames } from '../aggregates.ts';
import type { DataSource, GrantsAggregates } from '../aggregates.ts';
import { agreementsWithTexts, textsOf } from '../repository.ts';
import { GrantsCsvTruncatedError, NOTABLE_RULES_VERSION, isGeneratedHeader, peekHeader } from '../source/index.ts';
import type { NotableMatcher } from '../source/index.ts';
import { GRANTS_SEARCH, GRANTS_TABLE } from '../tables.ts';
import type { GrantsDatabase, GrantsTables } from '../tables.ts';
import { readAgreementBatches } from './reader.ts';
import { withSqliteImportSettings } from './sqlite-journal.ts';
import { calculatorIds, fillTitles, withDataSource } from './tracker.ts';
import { BatchWriter } from './writer.ts';

const GRANTS_DATASET = 'agreements';

/** Rows a file row is merged into when a later amendment of the same agreement is current (excluded, not unreadable). */
export const SUPERSEDED_REASON = 'superseded by a later amendment of the same agreement';

export interface GrantsImportOptions {
  /** Label the data generated demo data (a file written by `generate grants` is labelled so by its marker column anyway). */
  isDemo?: boolean;
  /** What the import may delete or leave unread before it is refused (core's ImportGuard; the CLI: importGuard(options)). */
  guard?: ImportGuard;
  /** Label of the source in reports (default: the path, or "stream"). */
  sourceLabel?: string;
  /** Show a progress bar (default: when stderr is a terminal). */
  progress?: boolean;
  notable?: NotableMatcher;
  /** Called with a line of text for each stage (index rebuild, aggregates) of a long import. */
  log?: (message: string) => void;
  /** The calculator's current fiscal year (start year); default the last year of the data with a revenue figure. */
  currentYear?: number;
}

function describeSource(input: string | Readable, options: GrantsImportOptions): string {
  return options.sourceLabel ?? (typeof input === 'string' ? input : 'stream');
}

/**
 * Imports one grants CSV (a path, or a readable stream of its bytes). Rejects, leaving the stored data as it
 * was, when a required column is missing (the message names it), when the file has no valid row, when it is
 * cut short (TruncatedSourceError naming the line of the cut record), when reading fails midway, or when the
 * guard refuses it (more than 10% of the stored agreements deleted, more than 5% of the rows unreadable).
 * Data from a file written by `generate grants` (its marker column) is labelled generated demo data.
 */
export async function importGrantsCsv(db: Db, input: string | Readable, options: GrantsImportOptions = {}): Promise<ImportReport> {
  const source = describeSource(input, options);
  const peeked = await peekHeader(input);
  const isDemo = options.isDemo === true || isGeneratedHeader(peeked.header);
  const run = () => importInTransaction(db, peeked.input, source, isDemo, options);
  return db.dialect === 'sqlite' ? withSqliteImportSettings(db, run) : run();
}

function importInTransaction(
  db: Db,
  input: string | Readable,
  source: string,
  isDemo: boolean,
  options: GrantsImportOptions,
): Promise<ImportReport> {
  const log = options.log ?? (() => {});
  return runImport(
    db,
    {
      service: 'grants',
      importer: 'csv',
      dataset: GRANTS_DATASET,
      source,
      isDemo,
      guard: options.guard,
      progress: { unit: 'bytes', enabled: options.progress },
    },
    async (core, { tally, progress, dataVersion }) => {
      const trx = core.withTables<GrantsTables>();
      const dialect = dialectOf(trx);
      // (runImport lets one import of the service run at a time: what this one sees of the table, empty or
      // not, stays true until it commits)
      const hadRows = (await trx.selectFrom('grants_agreements').select('id').limit(1).executeTakeFirst()) !== undefined;
      // Generated demo data that this import removes is reported apart (the shrink guard counts real data only).
      const storedIsDemo = (await listDataVersions(trx, 'grants')).some((v) => v.dataset === GRANTS_DATASET && v.is_demo);
      // Bulk mode: rebuild the substring index once instead of maintaining it row by row (see the file comment).
      const bulk = dialect === 'sqlite' || !hadRows;
      if (bulk) await suspendSubstringIndex(trx, GRANTS_SEARCH);
      // The dictionary is rebuilt from this file's agreements (every row gets its new text ids).
      await trx.deleteFrom('grants_texts').execute();

      // A first import on SQLite: the reading thread numbers the agreements and accumulates their aggregates
      // (tracker.ts), so that they are ready when the index is (AUTOINCREMENT: after every id used before).
      let tracking: { firstId: number } | undefined;
      if (dialect === 'sqlite' && !hadRows) {
        const used = await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = ${GRANTS_TABLE}`.execute(trx);
        tracking = { firstId: Number(used.rows[0]?.seq ?? 0) + 1 };
      }

      log('loading rows');
      const writer = new BatchWriter(trx, db, dataVersion, (message) => tally.warn(message));
      const { summary, aggregates: aggregatesRead } = await readAgreementBatches(
        input,
        {
          dialect,
          notable: options.notable,
          onSkip: (reason) => tally.skip(reason),
          onProgress: (p) => {
            if (p.totalBytes !== null) progress.setTotal(p.totalBytes);
            progress.update(p.bytesRead);
          },
          aggregates: tracking && { firstId: tracking.firstId, options: { currentYear: options.currentYear } },
        },
        (batch) => writer.write(batch),
      ).catch((error: unknown) => {
        throw error instanceof GrantsCsvTruncatedError ? new TruncatedSourceError(source, error.message) : error;
      });
      tally.read(summary.rowsRead);
      const mapped = summary.recordsMapped;
      log('counting and deleting');
      if (mapped === 0) {
        throw new Error(
          `${source}: no valid grant rows (${summary.rowsRead} rows read, ${summary.skipped} skipped); the stored data is unchanged`,
        );
      }

      let agreements: number;
      let inserted: number;
      let unchanged: number;
      if (hadRows) {
        const deleted = await trx.deleteFrom('grants_agreements').where('import_version', '<>', dataVersion).executeTakeFirst();
        if (storedIsDemo) tally.demoRemoved(Number(deleted.numDeletedRows));
        else tally.deleted(Number(deleted.numDeletedRows));
        const counts = await trx
          .selectFrom('grants_agreements')
          .select([
            (eb) => eb.fn.countAll<number>().as('agreements'),
            sql<number | null>`sum(case when previous_hash is null then 1 else 0 end)`.as('inserted'),
            sql<number | null>`sum(case when previous_hash = content_hash then 1 else 0 end)`.as('unchanged'),
          ])
          .executeTakeFirstOrThrow();
        // (sums of no rows are null)
        agreements = Number(counts.agreements);
        inserted = Number(counts.inserted ?? 0);
        unchanged = Number(counts.unchanged ?? 0);
      } else {
        // into an empty table every agreement is new and nothing is deleted: a count needs no row decoded
        const counts = await trx
          .selectFrom('grants_agreements')
          .select((eb) => eb.fn.countAll<number>().as('agreements'))
          .executeTakeFirstOrThrow();
        agreements = inserted = Number(counts.agreements);
        unchanged = 0;
      }
      tally.inserted(inserted);
      tally.unchanged(unchanged);
      tally.updated(agreements - inserted - unchanged);
      if (mapped > agreements) tally.exclude(SUPERSEDED_REASON, mapped - agreements);

      if (bulk) {
        log('building the substring index');
        await resumeSubstringIndex(trx, GRANTS_SEARCH);
      }
      // PostgreSQL plans by cost: give it statistics of the new data. (SQLite's searches choose their index
      // themselves from the match count.)
      if (dialect === 'postgres') await sql.raw(`ANALYZE ${GRANTS_TABLE}`).execute(trx);
      log('computing aggregates');
      const dataSource: DataSource = {
        kind: isDemo ? 'demo' : 'import',
        is_demo: isDemo,
        description: isDemo
          ? 'Generated demo data (self-written vocabularies, not real agreements): pdi generate grants'
          : 'Proactive Publication – Grants and Contributions (open.canada.ca)',
        source: typeof input === 'string' ? path.basename(input) : source,
        schema: summary.schema,
        data_version: dataVersion,
        imported_at: new Date().toISOString(),
        notable_rules_version: NOTABLE_RULES_VERSION,
      };
      const aggregates = aggregatesRead
        ? await completeAggregates(trx, await aggregatesRead, dataSource, agreements)
        : await computeAggregates(trx, dataSource, { currentYear: options.currentYear });
      for (const name of AGGREGATE_NAMES) await putAggregate(trx, 'grants', name, dataVersion, aggregates[name]);
    },
  );
}

/**
 * The reading thread's aggregates with this import's data source and the calculator's titles (read by id),
 * after checking that they cover the agreements stored.
 */
async function completeAggregates(
  trx: Kysely<GrantsDatabase>,
  read: GrantsAggregates,
  dataSource: DataSource,
  agreements: number,
): Promise<GrantsAggregates> {
  if (read.stats.total_grants !== agreements) {
    throw new Error(`grants aggregates: the reading thread resolved ${read.stats.total_grants} agreements, the table holds ${agreements}`);
  }
  const complete = withDataSource(read, dataSource);
  if (complete.calculator.ok) {
    const ids = calculatorIds(complete.calculator.aggregates);
    const titles = new Map<number, string>();
    const query = agreementsWithTexts(trx).select(['g.id', ...textsOf(['agreement_title_en'])]);
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await query.where('g.id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) titles.set(r.id, r.agreement_title_en);
    }
    fillTitles(complete.calculator.aggregates, titles);
  }
  return fillFrenchNames(trx, complete);
}

/** A path as the CLI gets it: a CSV file, or a directory holding exactly one (generate writes grants.csv). */
function resolveCsvPath(target: string): string {
  if (!fs.statSync(target).isDirectory()) return target;
  const preferred = path.join(target, 'grants.csv');
  if (fs.existsSync(preferred)) return preferred;
  const csvs = fs.readdirSync(target).filter((f) => f.toLowerCase().endsWith('.csv'));
  if (csvs.length !== 1) throw new Error(`${target}: expected one .csv file (or grants.csv), found ${csvs.length}`);
  return path.join(target, csvs[0]);
}

export async function importGrantsPath(ctx: ServiceContext, target: string, options: GrantsImportOptions = {}): Promise<ImportReport> {
  const file = resolveCsvPath(target);
  const report = await importGrantsCsv(ctx.db, file, { log: (m) => ctx.log.info(m), ...options });
  ctx.dataVersion.invalidate();
  return report;
}

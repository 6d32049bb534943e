// Writing imported records, idempotently. Papers keep their ids across imports (matched by Record ID) and are
// compared by a content hash (unchanged rows are not rewritten); citations are staged and then merged with
// set-based statements; the panel is matched by (country, year). Used by every importer, the demo included.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Insertable } from 'kysely';
import {
  columnType,
  dbBool,
  dbJson,
  dialectOf,
  foldAccents,
  foldCase,
  insertMany,
  num,
  daysBetweenColumns,
  readJson,
} from '../../core/db/dialect.ts';
import type { ImportTally } from '../../core/import.ts';
import { natureOf } from './nature.ts';
import { FLAG_COLUMNS, LIST_JOIN, readPlainValues } from './paper-fields.ts';
import { daysBetween, doiKey } from './sources/fields.ts';
import type { RetractionRecord } from './sources/retraction-watch.ts';
import type { PanelRecord } from './sources/panel.ts';
import type {
  CitationsSetAsideTable,
  CitationsTable,
  PaperChangesTable,
  PaperCountriesTable,
  PaperSubjectsTable,
  PanelTable,
  RetractionDb,
} from './tables.ts';

/**
 * The order in which the content hash has read a paper's columns since the first migration: kept, so that the
 * papers stored by an earlier import hash as they did; a column added to paper-fields.ts hashes after these.
 */
const HASH_ORDER = [
  'title',
  'title_fold',
  'author',
  'author_fold',
  'subject',
  'institution',
  'journal',
  'publisher',
  'country',
  'urls',
  'article_type',
  'retraction_date',
  'retraction_sort',
  'retraction_doi',
  'retraction_pubmed_id',
  'original_paper_date',
  'original_paper_doi',
  'doi_key',
  'original_paper_pubmed_id',
  'retraction_nature',
  'nature',
  'reason',
  'paywalled',
  'notes',
  'is_demo',
];

function hash(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}

/** The papers-table columns of a record (what the content hash covers): its fields, and what is derived from them. */
function paperColumns(record: RetractionRecord, isDemo: boolean) {
  const { record_id: _recordId, subjects, countries, authors, unreadable: _unreadable, ...fields } = record;
  const author = authors.join(LIST_JOIN);
  return {
    ...fields,
    title_fold: foldAccents(record.title),
    author,
    author_fold: foldAccents(author),
    subject: subjects.map((s) => s.name).join(LIST_JOIN),
    country: countries.join(LIST_JOIN),
    retraction_sort: record.retraction_date ?? '',
    doi_key: record.original_paper_doi ? doiKey(record.original_paper_doi) : null,
    nature: natureOf(record.retraction_nature),
    is_demo: isDemo,
  };
}
type PaperColumns = ReturnType<typeof paperColumns>;

/** The columns in the content hash's order (HASH_ORDER, then any column added since, in declaration order). */
function inHashOrder(columns: PaperColumns): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of HASH_ORDER) if (key in columns) ordered[key] = columns[key as keyof PaperColumns];
  for (const [key, value] of Object.entries(columns)) if (!(key in ordered)) ordered[key] = value;
  return ordered;
}

/** A paper's stored values as one import writes them (ids and the import time are added where they are known). */
type PaperValues = Omit<Insertable<PaperChangesTable>, 'id' | 'imported_at'>;

export interface PaperBatchResult {
  /** Papers whose retraction date changed: their citations' day counts must be recomputed. */
  retractionDateChanged: number[];
}

/** Upserts one batch of (already de-duplicated) records. */
export async function storePaperBatch(
  trx: RetractionDb,
  records: RetractionRecord[],
  isDemo: boolean,
  tally: ImportTally,
): Promise<PaperBatchResult> {
  const result: PaperBatchResult = { retractionDateChanged: [] };
  if (records.length === 0) return result;
  const existing = new Map<
    string,
    { id: number; content_hash: string; retraction_date: string | null; original_paper_date: string | null }
  >();
  const ids = records.map((r) => r.record_id);
  for (let i = 0; i < ids.length; i += 900) {
    const rows = await trx
      .selectFrom('retraction_papers')
      .select(['id', 'record_id', 'content_hash', 'retraction_date', 'original_paper_date'])
      .where('record_id', 'in', ids.slice(i, i + 900))
      .execute();
    for (const row of rows)
      existing.set(row.record_id, {
        id: Number(row.id),
        content_hash: row.content_hash,
        retraction_date: row.retraction_date,
        original_paper_date: row.original_paper_date,
      });
  }
  // A value the file holds but that could not be read never replaces the stored one.
  records = records.map((record) => {
    const old = existing.get(record.record_id);
    if (!old || !record.unreadable?.includes('original_paper_date')) return record;
    return { ...record, original_paper_date: old.original_paper_date };
  });
  const now = new Date().toISOString();
  const fresh: RetractionRecord[] = [];
  const changed: { id: number; record: RetractionRecord }[] = [];
  const toRow = (record: RetractionRecord): PaperValues => {
    const columns = paperColumns(record, isDemo);
    const content_hash = hash({ columns: inHashOrder(columns), subjects: record.subjects, countries: record.countries });
    const row: PaperValues = { ...columns, is_demo: dbBool(trx, isDemo), content_hash };
    for (const column of FLAG_COLUMNS) {
      const value = row[column as keyof PaperValues];
      if (typeof value === 'boolean') Object.assign(row, { [column]: dbBool(trx, value) });
    }
    return row;
  };
  const rows = new Map<string, PaperValues>();
  for (const record of records) {
    const row = toRow(record);
    rows.set(record.record_id, row);
    const old = existing.get(record.record_id);
    if (!old) fresh.push(record);
    else if (old.content_hash !== row.content_hash) {
      changed.push({ id: old.id, record });
      if (old.retraction_date !== record.retraction_date) result.retractionDateChanged.push(old.id);
    } else tally.unchanged();
  }
  if (fresh.length) {
    await insertMany(
      trx,
      'retraction_papers',
      fresh.map((r) => ({ record_id: r.record_id, ...rows.get(r.record_id)!, imported_at: now })),
    );
    tally.inserted(fresh.length);
  }
  if (changed.length)
    await updatePapers(
      trx,
      changed.map(({ id, record }) => ({ id, ...rows.get(record.record_id)!, imported_at: now })),
    );
  tally.updated(changed.length);
  const touched = [...fresh.map((r) => r.record_id), ...changed.map((c) => c.record.record_id)];
  if (touched.length === 0) return result;
  const idOf = new Map<string, number>();
  for (let i = 0; i < touched.length; i += 900) {
    for (const row of await trx
      .selectFrom('retraction_papers')
      .select(['id', 'record_id'])
      .where('record_id', 'in', touched.slice(i, i + 900))
      .execute()) {
      idOf.set(row.record_id, Number(row.id));
    }
  }
  const changedIds = changed.map((c) => c.id);
  for (let i = 0; i < changedIds.length; i += 900) {
    const slice = changedIds.slice(i, i + 900);
    await trx.deleteFrom('retraction_paper_subjects').where('paper_id', 'in', slice).execute();
    await trx.deleteFrom('retraction_paper_countries').where('paper_id', 'in', slice).execute();
  }
  const byRecord = new Map(records.map((r) => [r.record_id, r]));
  const subjects: Insertable<PaperSubjectsTable>[] = [];
  const countries: Insertable<PaperCountriesTable>[] = [];
  for (const recordId of touched) {
    const paperId = idOf.get(recordId)!;
    const record = byRecord.get(recordId)!;
    for (const s of record.subjects) subjects.push({ paper_id: paperId, subject: s.name, code: s.code });
    for (const c of record.countries) countries.push({ paper_id: paperId, country: c });
  }
  await insertMany(trx, 'retraction_paper_subjects', subjects);
  await insertMany(trx, 'retraction_paper_countries', countries);
  return result;
}

const PAPER_CHANGES = 'retraction_paper_changes' as const;
const UPDATED_COLUMNS = [
  ...Object.keys(
    paperColumns(
      {
        ...readPlainValues(() => undefined),
        record_id: '',
        title: '',
        subjects: [],
        countries: [],
        authors: [],
        retraction_date: null,
        original_paper_date: null,
      },
      false,
    ),
  ),
  'content_hash',
  'imported_at',
];

/**
 * Rewrites changed papers with one statement per batch (staged in a temporary table, then UPDATE … FROM)
 * rather than one UPDATE per row, which made a large re-import several times slower on PostgreSQL.
 */
async function updatePapers(trx: RetractionDb, rows: Insertable<PaperChangesTable>[]): Promise<void> {
  const d = dialectOf(trx);
  let builder = trx.schema
    .createTable(PAPER_CHANGES)
    .temporary()
    .ifNotExists()
    .addColumn('id', 'bigint', (c) => c.primaryKey());
  for (const column of UPDATED_COLUMNS) {
    const type = FLAG_COLUMNS.has(column) || column === 'is_demo' ? columnType.boolean(d) : 'text';
    builder = builder.addColumn(column, type);
  }
  if (d === 'postgres') builder = builder.onCommit('drop');
  await builder.execute();
  await insertMany(trx, PAPER_CHANGES, rows);
  const assignments = UPDATED_COLUMNS.map((c) => `${c} = s.${c}`).join(', ');
  await sql.raw(`UPDATE retraction_papers SET ${assignments} FROM ${PAPER_CHANGES} s WHERE retraction_papers.id = s.id`).execute(trx);
  await sql.raw(`DELETE FROM ${PAPER_CHANGES}`).execute(trx);
}

/** Drops the import's temporary tables (PostgreSQL drops them at commit anyway; SQLite keeps them per connection). */
export async function dropPaperStaging(trx: RetractionDb): Promise<void> {
  await sql.raw(`DROP TABLE IF EXISTS ${PAPER_CHANGES}`).execute(trx);
}

/**
 * Deletes the papers a complete file no longer has, with their child rows. Their citations are not deleted (a
 * papers file says nothing about citations): they are set aside by the cited DOI, reported, and join the paper
 * again when a later papers import brings it back. Generated demo papers are removed without counting as
 * deletions (tally.demoRemoved), and their generated citations with them.
 */
export async function deletePapersNotIn(trx: RetractionDb, keep: ReadonlySet<string>, tally: ImportTally): Promise<void> {
  const gone: { id: number; demo: boolean; doi_key: string | null; record_id: string }[] = [];
  for (const row of await trx.selectFrom('retraction_papers').select(['id', 'record_id', 'is_demo', 'doi_key']).execute()) {
    if (!keep.has(row.record_id))
      gone.push({ id: Number(row.id), demo: Boolean(row.is_demo), doi_key: row.doi_key, record_id: row.record_id });
  }
  let setAside = 0;
  let setAsidePapers = 0;
  let demoCitations = 0;
  const examples: string[] = [];
  for (let i = 0; i < gone.length; i += 900) {
    const slice = gone.slice(i, i + 900);
    const real = slice.filter((p) => !p.demo && p.doi_key !== null);
    for (const paper of real) {
      const moved =
        await sql`INSERT INTO retraction_citations_set_aside (doi_key, citing_key, citing_doi, citing_date, citing_precision, citing_year, citing_month)
        SELECT ${paper.doi_key}, citing_key, citing_doi, citing_date, citing_precision, citing_year, citing_month FROM retraction_citations WHERE paper_id = ${paper.id}
        ON CONFLICT (doi_key, citing_key) DO NOTHING`.execute(trx);
      const n = affected(moved);
      if (n > 0) {
        setAside += n;
        setAsidePapers++;
        if (examples.length < 3) examples.push(`record ${paper.record_id} (DOI ${paper.doi_key}): ${n}`);
      }
    }
    const ids = slice.map((p) => p.id);
    const demoIds = slice.filter((p) => p.demo).map((p) => p.id);
    if (demoIds.length) {
      const counted = await trx
        .selectFrom('retraction_citations')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('paper_id', 'in', demoIds)
        .executeTakeFirstOrThrow();
      demoCitations += num(counted.n);
    }
    // Explicit deletes rather than relying on ON DELETE CASCADE being enabled on every connection.
    await trx.deleteFrom('retraction_citations').where('paper_id', 'in', ids).execute();
    await trx.deleteFrom('retraction_paper_counts').where('paper_id', 'in', ids).execute();
    await trx.deleteFrom('retraction_paper_windows').where('paper_id', 'in', ids).execute();
    await trx.deleteFrom('retraction_paper_months').where('paper_id', 'in', ids).execute();
    await trx.deleteFrom('retraction_paper_subjects').where('paper_id', 'in', ids).execute();
    await trx.deleteFrom('retraction_paper_countries').where('paper_id', 'in', ids).execute();
    await trx.deleteFrom('retraction_papers').where('id', 'in', ids).execute();
  }
  const demo = gone.filter((p) => p.demo).length;
  tally.deleted(gone.length - demo);
  tally.demoRemoved(demo);
  if (setAside > 0)
    tally.warn(
      `${setAside} citation(s) of ${setAsidePapers} paper(s) this file no longer has were set aside, not deleted; ` +
        `they rejoin their papers when a papers file holds them again (${examples.join('; ')})`,
    );
  if (demoCitations > 0) tally.warn(`${demoCitations} generated citation(s) of the ${demo} removed demo paper(s) were removed with them`);
}

/**
 * A real papers import first removes every generated demo paper with its generated citations (Record IDs of
 * the demo are small numbers that real records also use: updating them in place would keep generated
 * citations on real papers). Counted as demo rows removed; when no citation is left, the generated citations
 * dataset goes too, so that nothing is labelled as partly generated.
 */
export async function removeDemoPapers(trx: RetractionDb, tally: ImportTally): Promise<void> {
  const ids = (await trx.selectFrom('retraction_papers').select('id').where('is_demo', '=', dbBool(trx, true)).execute()).map((r) =>
    Number(r.id),
  );
  if (ids.length === 0) return;
  let citations = 0;
  for (let i = 0; i < ids.length; i += 900) {
    const slice = ids.slice(i, i + 900);
    citations += Number((await trx.deleteFrom('retraction_citations').where('paper_id', 'in', slice).executeTakeFirst()).numDeletedRows);
    await trx.deleteFrom('retraction_paper_counts').where('paper_id', 'in', slice).execute();
    await trx.deleteFrom('retraction_paper_windows').where('paper_id', 'in', slice).execute();
    await trx.deleteFrom('retraction_paper_months').where('paper_id', 'in', slice).execute();
    await trx.deleteFrom('retraction_paper_subjects').where('paper_id', 'in', slice).execute();
    await trx.deleteFrom('retraction_paper_countries').where('paper_id', 'in', slice).execute();
    await trx.deleteFrom('retraction_papers').where('id', 'in', slice).execute();
  }
  tally.demoRemoved(ids.length);
  tally.warn(`${ids.length} generated demo paper(s) and their ${citations} generated citation(s) removed: real data replaces the demo`);
  const left = await trx
    .selectFrom('retraction_citations')
    .select('paper_id')
    .union(trx.selectFrom('retraction_citations_set_aside').select(sql<number>`0`.as('paper_id')))
    .limit(1)
    .execute();
  if (left.length === 0)
    await trx
      .deleteFrom('data_versions')
      .where('service', '=', 'retraction')
      .where('dataset', '=', 'citations')
      .where('is_demo', '=', dbBool(trx, true))
      .execute();
}

/**
 * Citations set aside by an earlier papers import whose paper is back (matched by DOI): they rejoin it, with
 * their days after its retraction. Returns how many rejoined.
 */
export async function rejoinSetAside(trx: RetractionDb): Promise<number> {
  const rows = await trx
    .selectFrom('retraction_citations_set_aside as s')
    .innerJoin('retraction_papers as p', 'p.doi_key', 's.doi_key')
    .select([
      'p.id',
      'p.retraction_date',
      's.doi_key',
      's.citing_key',
      's.citing_doi',
      's.citing_date',
      's.citing_precision',
      's.citing_year',
      's.citing_month',
    ])
    .execute();
  if (rows.length === 0) return 0;
  await insertMany(
    trx,
    'retraction_citations',
    rows.map((r) => {
      const days = r.citing_date && r.retraction_date ? daysBetween(r.retraction_date, r.citing_date) : null;
      return {
        paper_id: Number(r.id),
        citing_key: r.citing_key,
        citing_doi: r.citing_doi,
        citing_date: r.citing_date,
        citing_precision: r.citing_precision,
        citing_year: r.citing_year,
        citing_month: r.citing_month,
        days_after: days,
        fingerprint: citationFingerprint(r.citing_doi, r.citing_date, r.citing_precision, days),
      };
    }),
    { columns: ['paper_id', 'citing_key'], update: [] },
  );
  const keys = [...new Set(rows.map((r) => r.doi_key))];
  for (let i = 0; i < keys.length; i += 900)
    await trx
      .deleteFrom('retraction_citations_set_aside')
      .where('doi_key', 'in', keys.slice(i, i + 900))
      .execute();
  return rows.length;
}

/** What a citation row says, to tell a changed citation from an unchanged one on re-import. */
export function citationFingerprint(citingDoi: string | null, date: string | null, precision: string | null, days: number | null): string {
  return [citingDoi ?? '', date ?? '', precision ?? '', days ?? ''].join('|');
}

/** After a paper's retraction date changed: its citations' day distances follow. */
export async function recomputeDaysAfter(trx: RetractionDb, paperIds: number[]): Promise<void> {
  for (let i = 0; i < paperIds.length; i += 900) {
    const slice = paperIds.slice(i, i + 900);
    await trx
      .updateTable('retraction_citations')
      .set((eb) => ({
        days_after: eb
          .selectFrom('retraction_papers as p')
          .select(
            sql<
              number | null
            >`CASE WHEN p.retraction_date IS NULL OR retraction_citations.citing_date IS NULL THEN NULL ELSE ${daysBetweenColumns(trx, 'p.retraction_date', 'retraction_citations.citing_date')} END`.as(
              'd',
            ),
          )
          .whereRef('p.id', '=', 'retraction_citations.paper_id'),
      }))
      .where('paper_id', 'in', slice)
      .execute();
  }
}

// ---------------------------------------------------------------- citations

export type StagedCitation = Insertable<CitationsTable>;

const STAGING_TABLE = 'retraction_citation_staging' as const;

/** A citations import's staging area: the rows tagged with its id (its data version). */
export class CitationStaging {
  private readonly trx: RetractionDb;
  private readonly importId: string;
  constructor(trx: RetractionDb, importId: string) {
    this.trx = trx;
    this.importId = importId;
  }

  async clear(): Promise<void> {
    await this.trx.deleteFrom(STAGING_TABLE).where('import_id', '=', this.importId).execute();
  }

  /** Adds rows; a (paper, citing work) pair already staged keeps its first occurrence. */
  async add(rows: StagedCitation[]): Promise<void> {
    await insertMany(
      this.trx,
      STAGING_TABLE,
      rows.map((r) => ({ import_id: this.importId, ...r })),
      { columns: ['import_id', 'paper_id', 'citing_key'], update: [] },
    );
  }

  async count(): Promise<number> {
    return num(
      (
        await this.trx
          .selectFrom(STAGING_TABLE)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('import_id', '=', this.importId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  }

  /**
   * Makes the citations table equal to the staged set, counting what changed, and empties the staging area.
   * Citations replaced while the stored set was generated demo data count as demo rows removed, not deletions.
   */
  async merge(tally: ImportTally, storedIsDemo = false): Promise<void> {
    const id = this.importId;
    const staged = await this.count();
    const match = sql`s.import_id = ${id} AND s.paper_id = retraction_citations.paper_id AND s.citing_key = retraction_citations.citing_key`;
    const deleted =
      await sql`DELETE FROM retraction_citations WHERE NOT EXISTS (SELECT 1 FROM ${sql.table(STAGING_TABLE)} s WHERE ${match})`.execute(
        this.trx,
      );
    const updated =
      await sql`UPDATE retraction_citations SET citing_doi = s.citing_doi, citing_date = s.citing_date, citing_precision = s.citing_precision,
      citing_year = s.citing_year, citing_month = s.citing_month, days_after = s.days_after, fingerprint = s.fingerprint
      FROM ${sql.table(STAGING_TABLE)} s WHERE ${match} AND s.fingerprint <> retraction_citations.fingerprint`.execute(this.trx);
    const inserted =
      await sql`INSERT INTO retraction_citations (paper_id, citing_key, citing_doi, citing_date, citing_precision, citing_year, citing_month, days_after, fingerprint)
      SELECT s.paper_id, s.citing_key, s.citing_doi, s.citing_date, s.citing_precision, s.citing_year, s.citing_month, s.days_after, s.fingerprint
      FROM ${sql.table(STAGING_TABLE)} s WHERE s.import_id = ${id}
      AND NOT EXISTS (SELECT 1 FROM retraction_citations c WHERE c.paper_id = s.paper_id AND c.citing_key = s.citing_key)`.execute(
        this.trx,
      );
    if (storedIsDemo) tally.demoRemoved(affected(deleted));
    else tally.deleted(affected(deleted));
    tally.updated(affected(updated));
    tally.inserted(affected(inserted));
    tally.unchanged(staged - affected(updated) - affected(inserted));
    await this.clear();
  }
}

const affected = (result: { numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0n);

/**
 * A citations import replaces the set-aside citations too: those of its rows that cite a set-aside DOI (a
 * paper a papers import no longer has) stay set aside; the others go. Counted like the attached citations.
 */
export async function replaceSetAside(
  trx: RetractionDb,
  rows: Insertable<CitationsSetAsideTable>[],
  tally: ImportTally,
  storedIsDemo = false,
): Promise<void> {
  const key = (r: { doi_key: string; citing_key: string }) => `${r.doi_key}\u0000${r.citing_key}`;
  const before = new Set((await trx.selectFrom('retraction_citations_set_aside').select(['doi_key', 'citing_key']).execute()).map(key));
  const after = new Map(rows.map((r) => [key(r), r]));
  let kept = 0;
  for (const k of after.keys()) if (before.has(k)) kept++;
  await trx.deleteFrom('retraction_citations_set_aside').execute();
  await insertMany(trx, 'retraction_citations_set_aside', [...after.values()]);
  const removed = before.size - kept;
  if (storedIsDemo) tally.demoRemoved(removed);
  else tally.deleted(removed);
  tally.inserted(after.size - kept);
  tally.unchanged(kept);
}

/** Per-paper citation counts, recomputed from the citations (one grouped pass). */
export async function refreshPaperCounts(trx: RetractionDb): Promise<void> {
  await trx.deleteFrom('retraction_paper_counts').execute();
  await sql
    .raw(
      `INSERT INTO retraction_paper_counts (paper_id, total, pre, same_day, post, undated) ` +
        `SELECT p.id, count(c.paper_id), ` +
        `count(CASE WHEN c.days_after < 0 THEN 1 END), count(CASE WHEN c.days_after = 0 THEN 1 END), ` +
        `count(CASE WHEN c.days_after > 0 THEN 1 END), count(CASE WHEN c.paper_id IS NOT NULL AND c.days_after IS NULL THEN 1 END) ` +
        `FROM retraction_papers p LEFT JOIN retraction_citations c ON c.paper_id = p.id GROUP BY p.id`,
    )
    .execute(trx);
}

// ---------------------------------------------------------------- panel

export async function storePanelBatch(trx: RetractionDb, records: PanelRecord[], isDemo: boolean, tally: ImportTally): Promise<void> {
  if (records.length === 0) return;
  const existing = new Map<string, { id: number; content_hash: string; covariates: Record<string, number | null> }>();
  const countries = [...new Set(records.map((r) => r.country))];
  for (let i = 0; i < countries.length; i += 900) {
    for (const row of await trx
      .selectFrom('retraction_panel')
      .select(['id', 'country', 'year', 'content_hash', 'covariates'])
      .where('country', 'in', countries.slice(i, i + 900))
      .execute()) {
      existing.set(`${row.country}\u0000${row.year}`, {
        id: Number(row.id),
        content_hash: row.content_hash,
        covariates: readJson<Record<string, number | null>>(row.covariates),
      });
    }
  }
  const fresh: Insertable<PanelTable>[] = [];
  for (const read of records) {
    const { unreadable, ...record } = read;
    const stored = existing.get(`${record.country}\u0000${record.year}`);
    // A covariate the file holds but that could not be read never replaces the stored value.
    if (stored && unreadable?.length) {
      record.covariates = { ...record.covariates };
      for (const name of unreadable) if (name in stored.covariates) record.covariates[name] = stored.covariates[name];
    }
    const values = {
      country: record.country,
      country_fold: foldCase(record.country),
      iso3: record.iso3,
      region: record.region,
      year: record.year,
      democracy_index: record.democracy_index,
      publications: record.publications,
      retractions: record.retractions,
      covariates: dbJson(trx, record.covariates),
      is_demo: dbBool(trx, isDemo),
    };
    const content_hash = hash({ record, isDemo });
    const old = existing.get(`${record.country}\u0000${record.year}`);
    if (!old) {
      fresh.push({ ...values, content_hash });
    } else if (old.content_hash !== content_hash) {
      await trx
        .updateTable('retraction_panel')
        .set({ ...values, content_hash })
        .where('id', '=', old.id)
        .execute();
      tally.updated();
    } else tally.unchanged();
  }
  await insertMany(trx, 'retraction_panel', fresh);
  tally.inserted(fresh.length);
}

/** Deletes the country-years a complete panel file no longer has (generated ones count as demo rows removed). */
export async function deletePanelRowsNotIn(trx: RetractionDb, keep: ReadonlySet<string>, tally: ImportTally): Promise<void> {
  const gone: { id: number; demo: boolean }[] = [];
  for (const row of await trx.selectFrom('retraction_panel').select(['id', 'country', 'year', 'is_demo']).execute()) {
    if (!keep.has(`${row.country}\u0000${row.year}`)) gone.push({ id: Number(row.id), demo: Boolean(row.is_demo) });
  }
  for (let i = 0; i < gone.length; i += 900)
    await trx
      .deleteFrom('retraction_panel')
      .where(
        'id',
        'in',
        gone.slice(i, i + 900).map((g) => g.id),
      )
      .execute();
  const demo = gone.filter((g) => g.demo).length;
  tally.deleted(gone.length - demo);
  tally.demoRemoved(demo);
}

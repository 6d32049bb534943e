// Service E importers, each one transaction through the core import runner: the Retraction Watch CSV
// (dataset "papers"), citations (OpenCitations CSV/JSON, OpenAlex works JSON; dataset "citations"), the
// democracy panel CSV ("democracy-panel") and a published model fit ("democracy-published-fit"). Files are
// streamed; ids are stable across imports; what a complete file no longer has is deleted; analytics are
// recomputed in the same transaction and stored with the new data version.
import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../../core/db/database.ts';
import { num } from '../../core/db/dialect.ts';
import { resumeSubstringIndex, suspendSubstringIndex } from '../../core/db/search-index.ts';
import { runImport } from '../../core/import.ts';
import type { ImportContext, ImportGuard, ImportReport } from '../../core/import.ts';
import { listDataVersions } from '../../core/db/datasets.ts';
import type { Insertable } from 'kysely';
import type { ServiceContext } from '../../core/service.ts';
import { recomputeAggregates } from './aggregates.ts';
import { refreshExportLines } from './export-lines.ts';
import { recomputePanelAggregates } from './democracy.ts';
import { PANEL_DATASET, importPublishedFit, looksLikePublishedFit } from './democracy-model.ts';
import { PAPER_SEARCH } from './search.ts';
import { openCsv, headerKey } from '../../core/csv-rows.ts';
import { EXCLUDED_CITATION_SKIPS, detectCitationFormat, openAlexWork, openCitationsEdge } from './sources/citations.ts';
import type { CitationEdge, CitationFormat, CitationSkip } from './sources/citations.ts';
import { daysBetween } from './sources/fields.ts';
import { jsonElements } from './sources/json-stream.ts';
import { mapPanelHeader, parsePanelRow } from './sources/panel.ts';
import type { PanelRecord } from './sources/panel.ts';
import { mapRwHeader, parseRwRow } from './sources/retraction-watch.ts';
import type { RetractionRecord } from './sources/retraction-watch.ts';
import {
  CitationStaging,
  citationFingerprint,
  deletePanelRowsNotIn,
  rejoinSetAside,
  removeDemoPapers,
  replaceSetAside,
  dropPaperStaging,
  deletePapersNotIn,
  recomputeDaysAfter,
  refreshPaperCounts,
  storePanelBatch,
  storePaperBatch,
} from './store.ts';
import type { StagedCitation } from './store.ts';
import type { CitationsSetAsideTable, RetractionDb, RetractionTables } from './tables.ts';
import { csvFileIsGenerated } from './sources/generated.ts';

export interface ImportOptions {
  /** Store the data as generated demo data (a file with the generated marker is so whatever this says). */
  isDemo?: boolean;
  /** Limits on deletions and unreadable rows (the CLI's --allow-shrink / --allow-skips); core defaults apply. */
  guard?: ImportGuard;
  /** Problems that did not stop a row (an unreadable date kept as null), once per kind with its count. */
  warn?: (message: string) => void;
}

function reportProblems(problems: Map<string, number>, options: ImportOptions): void {
  for (const [problem, n] of problems) options.warn?.(`${n} row(s): ${problem} (kept as null)`);
}

const bump = (map: Map<string, number>, key: string, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

/** How many of these Record IDs are stored papers. */
async function countStored(trx: RetractionDb, recordIds: readonly string[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < recordIds.length; i += 900) {
    const row = await trx
      .selectFrom('retraction_papers')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('record_id', 'in', recordIds.slice(i, i + 900))
      .executeTakeFirstOrThrow();
    n += num(row.n);
  }
  return n;
}

/** How many rows a dataset holds (the guard's shrink share is counted against it). */
async function countRows(trx: RetractionDb, table: 'retraction_papers' | 'retraction_panel'): Promise<number> {
  return num(
    (
      await trx
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

// ---------------------------------------------------------------- Retraction Watch

const DUPLICATE_RECORD = 'duplicate Record ID (first kept)';

export async function importRetractionWatch(db: Db, file: string, options: ImportOptions = {}): Promise<ImportReport> {
  const isDemo = (options.isDemo ?? false) || (await csvFileIsGenerated(file));
  const problems = new Map<string, number>();
  const report = await runImport(
    db,
    {
      service: 'retraction',
      importer: 'retraction-watch',
      dataset: 'papers',
      source: file,
      isDemo,
      guard: options.guard,
      progress: { unit: 'rows' },
    },
    async (coreTrx, ic) => {
      const trx = coreTrx.withTables<RetractionTables>();
      const { header, batches } = await openCsv(file);
      const map = mapRwHeader(header);
      for (const column of map.missing) bump(problems, `no ${column} column in the file`);
      if (!isDemo) await removeDemoPapers(trx, ic.tally);
      const storedBefore = await countRows(trx, 'retraction_papers');
      // Papers kept because their row could not be read are neither unchanged nor updated: count the base here.
      ic.tally.storedBefore(storedBefore);
      const wasEmpty = storedBefore === 0;
      // A first load builds the search index once at the end instead of row by row.
      if (wasEmpty) await suspendSubstringIndex(trx, PAPER_SEARCH);
      const seen = new Set<string>();
      const unreadIds: string[] = [];
      const dateChanged: number[] = [];
      for await (const batch of batches) {
        const records: RetractionRecord[] = [];
        for (const row of batch) {
          ic.tally.read();
          const result = parseRwRow(row.cells, map);
          for (const p of result.problems) bump(problems, p);
          for (const column of result.unreadable) {
            const raw = row.cells[map.index[column]!] ?? '';
            const what = result.record ? 'stored as null where the paper is new, the stored date kept otherwise' : 'row skipped';
            ic.tally.warn(
              `line ${row.line}, record ${result.record?.record_id ?? result.recordId ?? '?'}: ${column} "${raw}" is not a date; ${what}`,
            );
          }
          if (!result.record) {
            ic.tally.skip(result.skip!);
            // A paper the file names but whose row cannot be read stays as stored (not deleted, not changed).
            if (result.recordId !== undefined && !seen.has(result.recordId)) {
              seen.add(result.recordId);
              unreadIds.push(result.recordId);
            }
            continue;
          }
          if (seen.has(result.record.record_id)) {
            ic.tally.exclude(DUPLICATE_RECORD);
            continue;
          }
          seen.add(result.record.record_id);
          records.push(result.record);
        }
        dateChanged.push(...(await storePaperBatch(trx, records, isDemo, ic.tally)).retractionDateChanged);
        ic.progress.tick(batch.length);
      }
      if (seen.size === 0) throw new Error(`${file}: no Retraction Watch records (an empty file would delete every paper)`);
      const kept = await countStored(trx, unreadIds);
      if (kept > 0) ic.tally.warn(`${kept} paper(s) whose row could not be read keep their stored copy`);
      await dropPaperStaging(trx);
      await deletePapersNotIn(trx, seen, ic.tally);
      if (dateChanged.length) await recomputeDaysAfter(trx, dateChanged);
      await rejoinSetAside(trx);
      if (wasEmpty) await resumeSubstringIndex(trx, PAPER_SEARCH);
      await refreshPaperCounts(trx);
      await refreshExportLines(trx);
      await recomputeAggregates(trx, ic.dataVersion);
    },
  );
  reportProblems(problems, options);
  return report;
}

// ---------------------------------------------------------------- citations

type PaperRef = { id: number; retraction_date: string | null };

async function papersByDoi(trx: RetractionDb): Promise<Map<string, PaperRef[]>> {
  const map = new Map<string, PaperRef[]>();
  for (const row of await trx
    .selectFrom('retraction_papers')
    .select(['id', 'doi_key', 'retraction_date'])
    .where('doi_key', 'is not', null)
    .$narrowType<{ doi_key: string }>()
    .execute()) {
    const list = map.get(row.doi_key) ?? [];
    list.push({ id: Number(row.id), retraction_date: row.retraction_date });
    map.set(row.doi_key, list);
  }
  return map;
}

/** A citation edge as stored, without its paper (the set-aside form, keyed by the cited DOI). */
function setAsideRow(edge: CitationEdge): Insertable<CitationsSetAsideTable> {
  const date = edge.date;
  return {
    doi_key: edge.citedDoiKey,
    citing_key: edge.citingKey,
    citing_doi: edge.citingDoi,
    citing_date: date?.date ?? null,
    citing_precision: date?.precision ?? null,
    citing_year: date ? Number(date.date.slice(0, 4)) : null,
    // A year-only date says nothing about the month.
    citing_month: date && date.precision !== 'year' ? date.date.slice(0, 7) : null,
  };
}

function stagedRow(edge: CitationEdge, paper: PaperRef): StagedCitation {
  const { doi_key: _cited, ...row } = setAsideRow(edge);
  const days = row.citing_date && paper.retraction_date ? daysBetween(paper.retraction_date, row.citing_date) : null;
  return {
    paper_id: paper.id,
    ...row,
    days_after: days,
    fingerprint: citationFingerprint(row.citing_doi ?? null, row.citing_date ?? null, row.citing_precision ?? null, days),
  };
}

const NOT_RETRACTED = 'cited DOI is not a retracted paper in the database';
const DUPLICATE_CITATION = 'duplicate citation of the same paper by the same work (first kept)';

function skipCitation(ic: ImportContext, reason: CitationSkip): void {
  if (EXCLUDED_CITATION_SKIPS.has(reason)) ic.tally.exclude(reason);
  else ic.tally.skip(reason);
}

/** Edges of one citation file, in file order, with skip reasons for rows that are not usable. */
async function* citationEdges(
  file: string,
  format: CitationFormat,
  papers: Map<string, PaperRef[]>,
  ic: ImportContext,
): AsyncGenerator<CitationEdge[], void, undefined> {
  if (format === 'opencitations-csv') {
    const { header, batches } = await openCsv(file, 2000);
    const keys = header.map(headerKey);
    const at = (name: string) => keys.indexOf(name);
    const citing = at('citing');
    const cited = at('cited');
    const creation = at('creation') >= 0 ? at('creation') : at('date');
    if (citing < 0 || cited < 0)
      throw new Error(`${file}: an OpenCitations CSV needs citing and cited columns (found: ${header.join(', ')})`);
    for await (const batch of batches) {
      const edges: CitationEdge[] = [];
      for (const row of batch) {
        ic.tally.read();
        const result = openCitationsEdge(row.cells[citing], row.cells[cited], creation >= 0 ? row.cells[creation] : undefined);
        if ('skip' in result) skipCitation(ic, result.skip);
        else edges.push(result.edge);
      }
      ic.progress.tick(batch.length);
      yield edges;
    }
    return;
  }
  if (format === 'opencitations-json') {
    let edges: CitationEdge[] = [];
    for await (const element of jsonElements(file)) {
      ic.tally.read();
      const record = (element ?? {}) as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const result = openCitationsEdge(str(record.citing), str(record.cited), str(record.creation) ?? str(record.date));
      if ('skip' in result) skipCitation(ic, result.skip);
      else edges.push(result.edge);
      if (edges.length >= 2000) {
        yield edges;
        edges = [];
      }
    }
    yield edges;
    return;
  }
  // OpenAlex: referenced_works are OpenAlex ids. The retracted works must be in the same file (with their
  // DOIs) so that the first pass can tell which ids are retracted papers; the second pass emits citations.
  const retractedIds = new Map<string, string>();
  for await (const element of jsonElements(file)) {
    const work = openAlexWork(element);
    if (work?.doi && papers.has(work.doi.toLowerCase())) retractedIds.set(work.id, work.doi.toLowerCase());
  }
  let edges: CitationEdge[] = [];
  for await (const element of jsonElements(file)) {
    ic.tally.read();
    const work = openAlexWork(element);
    if (!work) {
      ic.tally.skip('not a citation record');
      continue;
    }
    const cited = [...new Set(work.referencedWorks.map((id) => retractedIds.get(id)).filter((d): d is string => d !== undefined))];
    if (cited.length === 0) {
      ic.tally.exclude('work cites no retracted paper in the database');
      continue;
    }
    const citingKey = work.doi ? `doi:${work.doi.toLowerCase()}` : `openalex:${work.id}`;
    for (const citedDoiKey of cited) edges.push({ citingKey, citingDoi: work.doi, date: work.date, citedDoiKey });
    if (edges.length >= 2000) {
      yield edges;
      edges = [];
    }
  }
  yield edges;
}

/**
 * Imports one or several citation files as THE citation set (a later import replaces it): rows whose cited
 * DOI is a retracted paper are kept, one per (paper, citing work), first occurrence kept.
 */
export async function importCitations(db: Db, files: string | string[], options: ImportOptions = {}): Promise<ImportReport> {
  const list = Array.isArray(files) ? files : [files];
  if (list.length === 0) throw new Error('no citation files given');
  const formats = new Map<string, CitationFormat>();
  for (const file of list) formats.set(file, await detectCitationFormat(file));
  const source = list.length === 1 ? list[0] : `${path.dirname(list[0])}/{${list.map((f) => path.basename(f)).join(',')}}`;
  let generated = false;
  for (const file of list) if (formats.get(file) === 'opencitations-csv' && (await csvFileIsGenerated(file))) generated = true;
  const isDemo = (options.isDemo ?? false) || generated;
  return runImport(
    db,
    { service: 'retraction', importer: 'citations', dataset: 'citations', source, isDemo, guard: options.guard },
    async (coreTrx, ic) => {
      const trx = coreTrx.withTables<RetractionTables>();
      const papers = await papersByDoi(trx);
      if (papers.size === 0) throw new Error('no retracted papers with a DOI in the database: import the Retraction Watch CSV first');
      const storedIsDemo = (await listDataVersions(trx, 'retraction')).some((v) => v.dataset === 'citations' && v.is_demo);
      // Citations of papers a papers import set aside stay set aside (by DOI) until their paper is back.
      const setAsideDois = new Set(
        (await trx.selectFrom('retraction_citations_set_aside').select('doi_key').distinct().execute()).map((r) => r.doi_key),
      );
      const setAside = new Map<string, Insertable<CitationsSetAsideTable>>();
      let setAsideAttempts = 0;
      const staging = new CitationStaging(trx, ic.dataVersion);
      await staging.clear();
      let attempted = 0;
      for (const file of list) {
        for await (const edges of citationEdges(file, formats.get(file)!, papers, ic)) {
          const rows: StagedCitation[] = [];
          for (const edge of edges) {
            const targets = papers.get(edge.citedDoiKey);
            if (targets) {
              for (const paper of targets) rows.push(stagedRow(edge, paper));
            } else if (setAsideDois.has(edge.citedDoiKey)) {
              setAsideAttempts++;
              const row = setAsideRow(edge);
              const key = `${row.doi_key}\u0000${row.citing_key}`;
              if (!setAside.has(key)) setAside.set(key, row);
            } else {
              ic.tally.exclude(NOT_RETRACTED);
            }
          }
          attempted += rows.length;
          await staging.add(rows);
        }
      }
      const duplicates = attempted - (await staging.count()) + (setAsideAttempts - setAside.size);
      if (duplicates > 0) ic.tally.exclude(DUPLICATE_CITATION, duplicates);
      await staging.merge(ic.tally, storedIsDemo);
      await replaceSetAside(trx, [...setAside.values()], ic.tally, storedIsDemo);
      if (setAside.size > 0)
        ic.tally.warn(
          `${setAside.size} citation(s) cite papers a papers import set aside: kept aside until those papers are imported again`,
        );
      await refreshPaperCounts(trx);
      await refreshExportLines(trx);
      await recomputeAggregates(trx, ic.dataVersion);
    },
  );
}

// ---------------------------------------------------------------- democracy panel

export async function importPanel(db: Db, file: string, options: ImportOptions = {}): Promise<ImportReport> {
  const isDemo = (options.isDemo ?? false) || (await csvFileIsGenerated(file));
  const problems = new Map<string, number>();
  const report = await runImport(
    db,
    { service: 'retraction', importer: 'democracy-panel', dataset: PANEL_DATASET, source: file, isDemo, guard: options.guard },
    async (coreTrx, ic) => {
      const trx = coreTrx.withTables<RetractionTables>();
      const { header, batches } = await openCsv(file);
      const map = mapPanelHeader(header);
      ic.tally.storedBefore(await countRows(trx, 'retraction_panel'));
      const seen = new Set<string>();
      for await (const batch of batches) {
        const records: PanelRecord[] = [];
        for (const row of batch) {
          ic.tally.read();
          const result = parsePanelRow(row.cells, map);
          for (const column of result.nonNumeric) {
            bump(problems, `non-numeric or invalid ${column}`);
            ic.tally.warn(
              `line ${row.line}: ${column} is not a number; stored as null where the row is new, the stored value kept otherwise`,
            );
          }
          if (!result.record) {
            ic.tally.skip(result.skip!);
            if (result.key) {
              ic.tally.warn(`line ${row.line}: ${result.skip} for ${result.key.country} ${result.key.year}; the stored copy is kept`);
              seen.add(`${result.key.country}\u0000${result.key.year}`);
            }
            continue;
          }
          const key = `${result.record.country}\u0000${result.record.year}`;
          if (seen.has(key)) {
            ic.tally.exclude('duplicate country and year (first kept)');
            continue;
          }
          seen.add(key);
          records.push(result.record);
        }
        await storePanelBatch(trx, records, isDemo, ic.tally);
        ic.progress.tick(batch.length);
      }
      if (seen.size === 0) throw new Error(`${file}: no panel rows`);
      await deletePanelRowsNotIn(trx, seen, ic.tally);
      await recomputePanelAggregates(
        trx,
        ic.dataVersion,
        map.covariates.map(([name]) => name),
      );
    },
  );
  reportProblems(problems, options);
  return report;
}

// ---------------------------------------------------------------- by path

const IMPORT_KINDS = ['auto', 'retraction-watch', 'citations', 'panel', 'published-fit'] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

async function firstLine(file: string): Promise<string> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').split(/\r?\n/)[0];
  } finally {
    await handle.close();
  }
}

/** What a file holds, from its header (CSV) or first element (JSON). */
export async function detectKind(file: string): Promise<Exclude<ImportKind, 'auto'>> {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') {
    const header = (await firstLine(file)).toLowerCase().replace(/[^a-z0-9_,]/g, '');
    const cells = header.split(',');
    if (cells.includes('recordid')) return 'retraction-watch';
    if (cells.includes('citing') && cells.includes('cited')) return 'citations';
    if (cells.includes('democracy_index')) return 'panel';
    throw new Error(`${file}: cannot tell what this CSV holds (no Record ID, citing/cited or democracy_index column); pass --kind`);
  }
  if (ext === '.json' || ext === '.jsonl' || ext === '.ndjson') {
    for await (const first of jsonElements(file)) {
      if (looksLikePublishedFit(first)) return 'published-fit';
      const record = (first ?? {}) as Record<string, unknown>;
      if ('referenced_works' in record || ('citing' in record && 'cited' in record)) return 'citations';
      break;
    }
  }
  throw new Error(`${file}: cannot tell what this file holds; pass --kind ${IMPORT_KINDS.slice(1).join('|')}`);
}

/**
 * A path as the CLI gets it. A directory is imported in dependency order: the Retraction Watch CSV, then
 * every citation file as one set, then the panel, then a published fit.
 */
export async function importPath(
  ctx: ServiceContext,
  target: string,
  kind: ImportKind = 'auto',
  options: ImportOptions = {},
): Promise<ImportReport[]> {
  const opts: ImportOptions = { warn: (message) => ctx.log.warn(message), ...options };
  const reports: ImportReport[] = [];
  const run = async (k: Exclude<ImportKind, 'auto'>, files: string[]) => {
    switch (k) {
      case 'retraction-watch':
        for (const f of files) reports.push(await importRetractionWatch(ctx.db, f, opts));
        break;
      case 'citations':
        reports.push(await importCitations(ctx.db, files, opts));
        break;
      case 'panel':
        for (const f of files) reports.push(await importPanel(ctx.db, f, opts));
        break;
      case 'published-fit':
        for (const f of files) reports.push(await importPublishedFit(ctx.db, f, opts));
        break;
    }
  };
  try {
    if (fs.statSync(target).isDirectory()) {
      const groups = new Map<Exclude<ImportKind, 'auto'>, string[]>();
      for (const name of fs.readdirSync(target).sort()) {
        const file = path.join(target, name);
        if (!fs.statSync(file).isFile() || !/\.(csv|json|jsonl|ndjson)$/i.test(name)) continue;
        let k: Exclude<ImportKind, 'auto'>;
        try {
          k = kind === 'auto' ? await detectKind(file) : kind;
        } catch {
          continue; // files of other kinds (e.g. the calibration corpus) are not ours to import
        }
        groups.set(k, [...(groups.get(k) ?? []), file]);
      }
      if (groups.size === 0) throw new Error(`${target} holds no Retraction Watch CSV, citation file, democracy panel or published fit`);
      for (const k of ['retraction-watch', 'citations', 'panel', 'published-fit'] as const) {
        if (groups.has(k)) await run(k, groups.get(k)!);
      }
    } else {
      await run(kind === 'auto' ? await detectKind(target) : kind, [target]);
    }
  } finally {
    ctx.dataVersion.invalidate();
  }
  return reports;
}

// Fixtures shared by Service E's tests: Retraction Watch CSV rows written from objects, record 4036 of
// ../shared/data/retraction in the database's own export form, and citation files around it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Random } from '../../../src/core/random.ts';
import { simulatePanel } from '../../../src/services/retraction/bayes/simulate.ts';
import { GENERATED_MARKER } from '../../../src/services/retraction/sources/generated.ts';
import { RW_COLUMNS } from '../../../src/services/retraction/sources/retraction-watch.ts';
import type { RwColumn } from '../../../src/services/retraction/sources/retraction-watch.ts';

export type RwRow = Partial<Record<RwColumn, string>>;

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `pdi-retraction-${label}-`));
}

export function writeRwCsv(file: string, rows: RwRow[], columns: readonly string[] = RW_COLUMNS): string {
  fs.writeFileSync(
    file,
    stringify([columns as string[], ...rows.map((r) => columns.map((c) => r[c as RwColumn] ?? ''))], { record_delimiter: '\r\n' }),
  );
  return file;
}

export function writeCsv(file: string, header: string[], rows: (string | number)[][]): string {
  fs.writeFileSync(file, stringify([header, ...rows.map((r) => r.map(String))], { record_delimiter: '\n' }));
  return file;
}

/** A plain row with the given id, a DOI of Crossref's test prefix, and dates in Retraction Watch's form. */
export function simpleRow(id: number, overrides: RwRow = {}): RwRow {
  return {
    'Record ID': String(id),
    Title: `Test paper number ${id} on renal tubule imaging`,
    Subject: '(BLS) Biology - Cellular;(HSC) Medicine - Nephrology;',
    Journal: id % 2 ? 'Quillmere Journal of Testing' : 'Rivermoor Letters',
    Publisher: 'Test Publisher',
    Country: id % 3 ? 'China' : 'Germany;France',
    Author: `Ada Tester${id};Bo Checker`,
    ArticleType: 'Research Article;',
    RetractionDate: '3/15/2020 0:00',
    RetractionDOI: `10.5555/notice.${id}`,
    RetractionPubMedID: '0',
    OriginalPaperDate: '6/1/2018 0:00',
    OriginalPaperDOI: `10.5555/test.${id}`,
    OriginalPaperPubMedID: '0',
    RetractionNature: 'Retraction',
    Reason: '+Duplication of Article;+Error in Data;',
    Paywalled: 'No',
    Notes: '',
    ...overrides,
  };
}

export interface Record4036 {
  record_id: string;
  title: string;
  subject: string;
  institution: string;
  journal: string;
  publisher: string;
  country: string;
  author: string;
  urls: string;
  article_type: string;
  retraction_date: string;
  retraction_doi: string;
  retraction_pubmed_id: string;
  original_paper_date: string;
  original_paper_doi: string;
  original_paper_pubmed_id: string;
  retraction_nature: string;
  reason: string;
  paywalled: boolean;
  notes: string;
  citation_count: number;
  pre_retraction_citations: number;
  post_retraction_citations: number;
  same_day_citations: number;
}

/** M/D/YYYY H:MM, as the Retraction Watch CSV writes dates. */
export function rwDate(isoTimestamp: string): string {
  const [y, m, d] = isoTimestamp.slice(0, 10).split('-').map(Number);
  return `${m}/${d}/${y} 0:00`;
}

/** Record 4036 as a row of the Retraction Watch CSV (reasons with the CSV's `+` markers). */
export function row4036(r: Record4036): RwRow {
  return {
    'Record ID': r.record_id,
    Title: r.title,
    Subject: r.subject,
    Institution: r.institution,
    Journal: r.journal,
    Publisher: r.publisher,
    Country: r.country,
    Author: r.author,
    URLS: r.urls,
    ArticleType: r.article_type,
    RetractionDate: rwDate(r.retraction_date),
    RetractionDOI: r.retraction_doi,
    RetractionPubMedID: r.retraction_pubmed_id,
    OriginalPaperDate: rwDate(r.original_paper_date),
    OriginalPaperDOI: r.original_paper_doi,
    OriginalPaperPubMedID: r.original_paper_pubmed_id,
    RetractionNature: r.retraction_nature,
    Reason: r.reason
      .split(';')
      .filter((x) => x.trim() !== '')
      .map((x) => `+${x};`)
      .join(''),
    Paywalled: r.paywalled ? 'Yes' : 'No',
    Notes: r.notes,
  };
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * OpenCitations rows citing `citedDoi`: `pre` before the retraction, `post` after it, `sameDay` on it; some
 * dates written with month or year precision where that cannot move them across the retraction date.
 */
export function citationRows(
  citedDoi: string,
  retraction: string,
  published: string,
  counts: { pre: number; post: number; sameDay: number },
  seed: string,
  until = '2025-12-31',
): string[][] {
  const rng = new Random(seed);
  const r = Date.parse(retraction.slice(0, 10));
  const p = Date.parse(published.slice(0, 10));
  const end = Date.parse(until);
  const rows: string[][] = [];
  let n = 0;
  const add = (date: string) => rows.push([`${seed}-${++n}`, `doi:10.5555/${seed}.citing.${n}`, `doi:${citedDoi}`, date]);
  const retractionYear = Number(retraction.slice(0, 4));
  const retractionMonth = retraction.slice(0, 7);
  for (let i = 0; i < counts.pre; i++) {
    const ms = p + Math.floor(rng.next() * (r - p - DAY));
    const d = iso(ms);
    // A year-only date is safe when the year is before the retraction's.
    add(Number(d.slice(0, 4)) < retractionYear && rng.bool(0.1) ? d.slice(0, 4) : d);
  }
  for (let i = 0; i < counts.post; i++) {
    const ms = r + DAY + Math.floor(rng.next() * (end - r - DAY));
    const d = iso(ms);
    // A month-only date stands for the 1st: safe when the month is after the retraction's month.
    add(d.slice(0, 7) > retractionMonth && rng.bool(0.1) ? d.slice(0, 7) : d);
  }
  for (let i = 0; i < counts.sameDay; i++) add(retraction.slice(0, 10));
  return rng.shuffle(rows);
}

/**
 * A generated democracy panel (two predictors, known truth) written as the importer reads it, marked generated:
 * `<dir>/simulated_panel.csv`, `countries` × 4 years from `firstYear`.
 */
export function writeGeneratedPanel(dir: string, options: { countries: number; firstYear: number; seed: string }): string {
  const { rows } = simulatePanel({
    countries: options.countries,
    firstYear: options.firstYear,
    years: 4,
    predictors: ['democracy_index', 'gdp'],
    truth: { alpha: -6, beta: { democracy_index: -0.4, gdp: 0.1 }, sigmaCountry: 0.5, sigmaYear: 0.1, phi: 6 },
    seed: options.seed,
  });
  return writeCsv(
    path.join(dir, 'simulated_panel.csv'),
    ['country', 'iso3', 'region', 'year', 'democracy_index', 'publications', 'retractions', 'gdp', GENERATED_MARKER.column],
    rows.map((r) => [
      r.country,
      '',
      'Test region',
      r.year,
      (r.predictors.democracy_index as number).toFixed(6),
      r.publications,
      r.retractions,
      (r.predictors.gdp as number).toFixed(6),
      GENERATED_MARKER.value,
    ]),
  );
}

// Seeded generators of Service E's source formats, for the demo and for scale tests: a Retraction Watch CSV
// (the real 20 columns), an OpenCitations-style citations CSV and a democracy country-year panel CSV. Every
// title, name, journal and count is generated; the DOIs use Crossref's test prefix 10.5555, PubMed ids are
// left as Retraction Watch's "0", and every record's Notes says it is generated. Every file carries the
// generated marker (a `data_kind` column reading `generated`, sources/generated.ts), so that a generated file
// imported by hand is stored and served as generated data. Files are written in batches, so 2 million
// citations never sit in memory.
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { stringify } from 'csv-stringify/sync';
import { Random } from '../../../core/random.ts';
import { simulatePanel } from '../bayes/simulate.ts';
import { RW_COLUMNS } from '../sources/retraction-watch.ts';
import { GENERATED_MARKER } from '../sources/generated.ts';
import * as V from './vocabulary.ts';

const GENERATED_NOTE = 'GENERATED record (pdi demo data): not a real retraction.';
const GENERATED_DOI_PREFIX = '10.5555';
export const DEFAULT_END_DATE = '2025-06-30';

export interface GenerateOptions {
  out: string;
  /** Number of Retraction Watch records. */
  papers: number;
  /** Mean citations per paper (2,000,000 / 60,000 at scale). */
  citationsPerPaper: number;
  seed: number | string;
  /** Last day any generated date may fall on. */
  endDate?: string;
  panel?: { countries: number; firstYear: number; years: number };
}

export interface GeneratedFiles {
  retractionWatch: string;
  citations: string;
  panel: string;
  panelTruth: string;
  counts: { papers: number; citations: number; panelRows: number };
}

/** A CSV written in batches, with the generated marker as its last column. */
class CsvFile {
  private readonly stream: fs.WriteStream;
  private pending: string[][] = [];
  rows = 0;
  constructor(file: string, header: readonly string[]) {
    this.stream = fs.createWriteStream(file, { encoding: 'utf8' });
    this.pending.push([...header, GENERATED_MARKER.column]);
  }
  async add(row: string[]): Promise<void> {
    this.pending.push([...row, GENERATED_MARKER.value]);
    this.rows++;
    if (this.pending.length >= 5000) await this.flush();
  }
  private async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = stringify(this.pending, { record_delimiter: '\r\n' });
    this.pending = [];
    if (!this.stream.write(text)) await once(this.stream, 'drain');
  }
  async close(): Promise<void> {
    await this.flush();
    this.stream.end();
    await once(this.stream, 'finish');
  }
}

const dayMs = 86_400_000;
const toDay = (iso: string) => Math.round(Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / dayMs);
const isoOf = (day: number) => new Date(day * dayMs).toISOString().slice(0, 10);
/** Retraction Watch's own export form: M/D/YYYY H:MM. */
const rwDate = (day: number) => {
  const d = new Date(day * dayMs);
  return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()} 0:00`;
};

function personName(rng: Random): string {
  const initial = rng.bool(0.4) ? ` ${String.fromCharCode(65 + rng.int(0, 25))}` : '';
  return `${rng.pick(V.GIVEN_FIRST)}${rng.pick(V.GIVEN_SECOND)}${initial} ${rng.pick(V.FAMILY_FIRST)}${rng.pick(V.FAMILY_SECOND)}`;
}

function title(rng: Random): string {
  return `${rng.pick(V.TITLE_OPENINGS)} ${rng.pick(V.TITLE_SUBJECTS)} ${rng.pick(V.TITLE_LINKS)} ${rng.pick(V.TITLE_CONTEXTS)}${rng.pick(V.TITLE_TAILS)}`;
}

function sample<T>(rng: Random, items: readonly T[], n: number): T[] {
  return rng.shuffle([...items]).slice(0, Math.min(n, items.length));
}

interface PaperDates {
  doi: string | null;
  original: number;
  retraction: number;
}

/**
 * The Retraction Watch CSV: retraction dates weighted toward recent years, the paper's date a delay before, 95% of
 * records with a DOI. Returns the papers' DOIs and dates, which the citations are drawn against.
 */
async function writeRetractionWatch(root: Random, out: string, count: number, start: number, end: number) {
  const journals = Array.from({ length: 60 }, (_, i) => {
    const r = root.fork(`journal-${i}`);
    return r.pick(V.JOURNAL_PATTERNS).replace('{f}', r.pick(V.JOURNAL_FIELDS)).replace('{w}', r.pick(V.PLACE_WORDS));
  });
  const uniqueJournals = [...new Set(journals)];
  const countryWeights = V.COUNTRIES.map((c) => c[3]);
  const natureWeights = V.NATURES.map((n) => n[1]);

  const rng = root.fork('papers');
  const rwFile = path.join(out, 'retraction_watch.csv');
  const rw = new CsvFile(rwFile, RW_COLUMNS);
  const papers: PaperDates[] = [];
  for (let i = 1; i <= count; i++) {
    // Retraction dates weighted toward recent years, as in the real database; the paper appeared a
    // gamma-distributed delay (mean about 2.5 years) before its retraction.
    const retraction = start + 30 + Math.floor((end - start - 30) * Math.sqrt(rng.next()));
    const lag = Math.max(1, Math.round(rng.gamma(1.3, 1 / 700)));
    const original = Math.max(start - 3650, retraction - lag);
    const countries = [...new Set(Array.from({ length: rng.bool(0.15) ? 2 : 1 }, () => V.COUNTRIES[rng.weightedIndex(countryWeights)][0]))];
    const authors = Array.from({ length: rng.int(1, 8) }, () => personName(rng));
    const subjects = sample(rng, V.SUBJECTS, rng.int(1, 3))
      .map(([code, name]) => `(${code}) ${name};`)
      .join('');
    const reasons = sample(rng, V.REASONS, rng.int(1, 4))
      .map((r) => `+${r};`)
      .join('');
    const hasDoi = rng.bool(0.95);
    const doi = hasDoi ? `${GENERATED_DOI_PREFIX}/demo.${i}` : null;
    const institution = countries.map((c) => `${rng.pick(V.DEPARTMENTS)}, ${rng.pick(V.PLACE_WORDS)} University, ${c}`).join('; ') + ';';
    // Most dates in Retraction Watch's M/D/YYYY H:MM form, some in ISO, as both occur in exports.
    const date = (day: number) => (rng.bool(0.05) ? isoOf(day) : rwDate(day));
    // A column the generator has no value for is written empty, as the file leaves a cell it has nothing for.
    const values: Partial<Record<(typeof RW_COLUMNS)[number], string>> = {
      'Record ID': String(i),
      Title: title(rng),
      Subject: subjects,
      Institution: institution,
      Journal: rng.pick(uniqueJournals),
      Publisher: rng.pick(V.PUBLISHERS),
      Country: countries.join(';'),
      Author: authors.join(';'),
      URLS: '',
      ArticleType: `${rng.pick(V.ARTICLE_TYPES)};`,
      RetractionDate: date(retraction),
      RetractionDOI: `${GENERATED_DOI_PREFIX}/notice.${i}`,
      RetractionPubMedID: '0',
      OriginalPaperDate: date(original),
      OriginalPaperDOI: doi ?? 'unavailable',
      OriginalPaperPubMedID: '0',
      RetractionNature: V.NATURES[rng.weightedIndex(natureWeights)][0],
      Reason: reasons,
      Paywalled: rng.bool(0.2) ? 'Yes' : 'No',
      Notes: GENERATED_NOTE,
    };
    await rw.add(RW_COLUMNS.map((c) => values[c] ?? ''));
    papers.push({ doi, original, retraction });
  }
  await rw.close();
  return { file: rwFile, papers };
}

/**
 * The citations CSV (OpenCitations style: oci, citing, cited, creation): a negative-binomial number per paper with a
 * DOI, some citing works shared between papers, and a few citations of works that are not retracted.
 */
async function writeCitations(cr: Random, out: string, papers: readonly PaperDates[], citationsPerPaper: number, end: number) {
  const citationsFile = path.join(out, 'citations.csv');
  const citations = new CsvFile(citationsFile, ['oci', 'citing', 'cited', 'creation']);
  let nextWork = 1;
  // Recently generated citing works, so that some works cite several retracted papers.
  const recent: { id: number; day: number }[] = [];
  for (const paper of papers) {
    if (!paper.doi) continue;
    const n = cr.negBinomial(citationsPerPaper, 0.8);
    const used = new Set<number>();
    for (let k = 0; k < n; k++) {
      let work: { id: number; day: number } | undefined;
      if (recent.length > 50 && cr.bool(0.1)) {
        const candidate = recent[cr.int(0, recent.length - 1)];
        if (candidate.day > paper.original && !used.has(candidate.id)) work = candidate;
      }
      if (!work) {
        let day: number;
        if (cr.bool(0.003))
          day = paper.retraction; // same day as the retraction: not post-retraction
        else {
          day = paper.original + 20 + Math.round(cr.gamma(1.5, 1 / 800));
          if (day > end) day = paper.original + 20 + cr.int(0, Math.max(0, end - paper.original - 20));
        }
        work = { id: nextWork++, day: Math.min(day, end) };
        recent.push(work);
        if (recent.length > 500) recent.shift();
      }
      used.add(work.id);
      const precision = cr.next();
      const iso = isoOf(work.day);
      const creation = precision < 0.9 ? iso : precision < 0.97 ? iso.slice(0, 7) : iso.slice(0, 4);
      const citingDoi = `${GENERATED_DOI_PREFIX}/citing.${work.id}`;
      const citing = work.id % 2 === 0 ? `omid:br/06${work.id} doi:${citingDoi}` : citingDoi;
      await citations.add([`gen-${work.id}-${citations.rows + 1}`, citing, `doi:${paper.doi}`, creation]);
    }
  }
  // A few citations of works that are not retracted, which the importer skips with a reason.
  for (let k = 0; k < Math.ceil(papers.length / 100); k++) {
    await citations.add([
      `gen-other-${k}`,
      `${GENERATED_DOI_PREFIX}/citing.${nextWork++}`,
      `${GENERATED_DOI_PREFIX}/not-retracted.${k}`,
      isoOf(end - cr.int(0, 3000)),
    ]);
  }
  await citations.close();
  return { file: citationsFile, rows: citations.rows };
}

/** The democracy panel CSV, drawn from the model itself (bayes/simulate.ts) with known coefficients, and those coefficients. */
async function writePanel(options: GenerateOptions) {
  const spec = options.panel ?? { countries: 60, firstYear: 2006, years: 18 };
  const countries = V.COUNTRIES.slice(0, spec.countries);
  const predictors = ['democracy_index', 'gdp_per_capita_log', 'press_freedom', 'rnd_spending', 'english_proficiency'];
  // Raw predictors are affine images of the simulator's standard scale, so standardising within year gives
  // back exactly the values the counts were drawn with.
  const scales: Record<string, [centre: number, spread: number]> = {
    democracy_index: [5.5, 1.9],
    gdp_per_capita_log: [9.4, 1.1],
    press_freedom: [62, 14],
    rnd_spending: [1.6, 0.6],
    english_proficiency: [52, 8],
  };
  const truth = {
    alpha: -6.6,
    beta: { democracy_index: -0.3, gdp_per_capita_log: -0.05, press_freedom: -0.05, rnd_spending: 0.08, english_proficiency: -0.05 },
    sigmaCountry: 0.8,
    sigmaYear: 0.15,
    phi: 6,
  };
  const simulated = simulatePanel({
    countries: countries.length,
    firstYear: spec.firstYear,
    years: spec.years,
    predictors,
    truth,
    seed: `${String(options.seed)}-panel`,
  });
  const panelFile = path.join(options.out, 'democracy_panel.csv');
  const panel = new CsvFile(panelFile, [
    'country',
    'iso3',
    'region',
    'year',
    'democracy_index',
    'publications',
    'retractions',
    ...predictors.slice(1),
  ]);
  for (const row of simulated.rows) {
    const index = Number(row.country.replace('Country ', '')) - 1;
    const [name, iso3, region] = countries[index];
    const value = (p: string) => {
      const [centre, spread] = scales[p];
      return (centre + spread * (row.predictors[p] as number)).toFixed(4);
    };
    await panel.add([
      name,
      iso3,
      region,
      String(row.year),
      value('democracy_index'),
      String(row.publications),
      String(row.retractions),
      ...predictors.slice(1).map(value),
    ]);
  }
  await panel.close();
  const panelTruth = path.join(options.out, 'democracy_panel.truth.json');
  fs.writeFileSync(
    panelTruth,
    JSON.stringify(
      {
        description: 'The coefficients the GENERATED democracy panel was drawn with (per one within-year SD of each predictor).',
        ...truth,
        country_effects: simulated.countryEffects,
        year_effects: simulated.yearEffects,
      },
      null,
      2,
    ),
  );
  return { file: panelFile, truthFile: panelTruth, rows: panel.rows };
}

export async function generateRetractionData(options: GenerateOptions): Promise<GeneratedFiles> {
  fs.mkdirSync(options.out, { recursive: true });
  const root = new Random(options.seed);
  const end = toDay(options.endDate ?? DEFAULT_END_DATE);
  const start = toDay('1995-01-01');
  const rw = await writeRetractionWatch(root, options.out, options.papers, start, end);
  const citations = await writeCitations(root.fork('citations'), options.out, rw.papers, options.citationsPerPaper, end);
  const panel = await writePanel(options);
  return {
    retractionWatch: rw.file,
    citations: citations.file,
    panel: panel.file,
    panelTruth: panel.truthFile,
    counts: { papers: options.papers, citations: citations.rows, panelRows: panel.rows },
  };
}

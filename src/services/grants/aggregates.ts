// Every aggregate the API serves, computed inside the import transaction in one pass over the agreements
// (the stored rows, read in id order, in pages; or, for a first import on SQLite, the agreements as the
// importer's reading thread resolved them: import/tracker.ts), so a request reads one stored result.
// Sums are exact integer cents; dollars appear only in the output. The shapes are the response schemas'.
import type { Kysely } from 'kysely';
import { AggregateBuildError, CalculatorAggregateBuilder } from './calculator/index.ts';
import type { CalculatorAggregates } from './calculator/index.ts';
import type { DataSource } from './schemas/common.ts';
import type { GrantsRecipients } from './schemas/recipients.ts';
import type { GrantsComprehensiveStats, GrantsStats } from './schemas/stats.ts';
import { NOTABLE_RULES, RECIPIENT_TYPES } from './source/index.ts';
import type { GrantsDatabase, StoredAgreement, TextIdColumn } from './tables.ts';

export type { DataSource, GrantsComprehensiveStats, GrantsRecipients, GrantsStats };

const TOP_PROGRAMS_IN_STATS = 20;
const TOP_RECIPIENTS = 50;
const TOP_PROGRAMS_IN_ANALYSIS = 50;
// Rows read per query. Small pages keep few row objects alive at once: with 20,000 the heap grew by ~100 MB
// over the pass and the import of 1.3 million rows peaked above 600 MB of RSS (512 MB with 2,000).
const PAGE_ROWS = 2_000;

/** Half-open value ranges [min, max) of comprehensive-stats, in cents (null: unbounded). */
export const VALUE_RANGES: ReadonlyArray<{ range: string; rangeFr: string; min: number | null; max: number | null }> = [
  { range: 'Under $10K', rangeFr: 'Moins de 10 k$', min: null, max: 1_000_000 },
  { range: '$10K–$50K', rangeFr: '10 k$ – 50 k$', min: 1_000_000, max: 5_000_000 },
  { range: '$50K–$100K', rangeFr: '50 k$ – 100 k$', min: 5_000_000, max: 10_000_000 },
  { range: '$100K–$500K', rangeFr: '100 k$ – 500 k$', min: 10_000_000, max: 50_000_000 },
  { range: '$500K–$1M', rangeFr: '500 k$ – 1 M$', min: 50_000_000, max: 100_000_000 },
  { range: '$1M–$10M', rangeFr: '1 M$ – 10 M$', min: 100_000_000, max: 1_000_000_000 },
  { range: 'Over $10M', rangeFr: 'Plus de 10 M$', min: 1_000_000_000, max: null },
];

const dollars = (cents: number): number => cents / 100;
const dollarsOrNull = (cents: number | null): number | null => (cents === null ? null : cents / 100);

/** total / count in cents, rounded half away from zero to the cent, as dollars (0 for no rows). */
function averageDollars(totalCents: number, count: number): number {
  if (count === 0) return 0;
  const negative = totalCents < 0;
  const abs = Math.abs(totalCents);
  let q = Math.floor(abs / count);
  if (2 * (abs - q * count) >= count) q++;
  return (negative ? -q : q) / 100;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

class Bucket {
  count = 0;
  cents = 0;
  add(cents: number): void {
    this.count++;
    this.cents += cents;
  }
}

function bucketOf<K, B extends Bucket>(map: Map<K, B>, key: K, make: () => B): B {
  let b = map.get(key);
  if (!b) {
    b = make();
    map.set(key, b);
  }
  return b;
}

const newBucket = () => new Bucket();

/** Entries by total value descending, then key ascending (a stable, documented order). */
function byValue<K extends string, B extends Bucket>(map: Map<K, B>): Array<[K, B]> {
  return [...map].sort((a, b) => b[1].cents - a[1].cents || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

function byKey<K extends string, B>(map: Map<K, B>): Array<[K, B]> {
  return [...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

class YearBucket extends Bucket {
  major = 0;
  notable = 0;
}

class ProvinceBucket extends Bucket {
  readonly recipients = new Set<string>();
}

/** The totals of a program or a recipient, and the first agreement (by id) naming it in French (-1: none). */
class NamedBucket extends Bucket {
  frenchId = -1;
}

const newNamedBucket = () => new NamedBucket();

/** The calculator's aggregates, or why none could be built (e.g. no year of the data has a revenue figure). */
export type StoredCalculator =
  { ok: true; aggregates: CalculatorAggregates; data_source: DataSource } | { ok: false; error: string; data_source: DataSource };

export const AGGREGATE_NAMES = ['stats', 'recipients', 'comprehensive', 'calculator'] as const;
export type AggregateName = (typeof AGGREGATE_NAMES)[number];

export interface GrantsAggregates {
  stats: GrantsStats;
  recipients: GrantsRecipients;
  comprehensive: GrantsComprehensiveStats;
  calculator: StoredCalculator;
  /** Until `fillFrenchNames` reads them: where the French names of the top lists' programs and recipients are. */
  frenchNameSources?: FrenchNameSources;
}

/**
 * For each program and recipient of the top lists (by its English name, the key of its totals), the first
 * agreement (by id) whose source gives its name in French: the French name served is that agreement's.
 */
interface FrenchNameSources {
  programs: Array<[name: string, agreementId: number]>;
  recipients: Array<[name: string, agreementId: number]>;
}

const CATEGORY_LABELS = new Map(NOTABLE_RULES.categories.map((c) => [c.id, c.label]));

export interface AggregateOptions {
  /** The calculator's current fiscal year (start year); default the last year of the data with a revenue figure. */
  currentYear?: number;
}

/** The columns of a stored agreement the aggregates read (the importer's reading thread gives the same). */
export interface AggregateRow {
  id: number;
  recipient_legal_name: string;
  recipient_province: string;
  recipient_type: string;
  program_name_en: string;
  naics_sector_en: string;
  fiscal_year: string;
  fiscal_year_start: number;
  agreement_value_cents: number;
  agreement_start_date: string;
  agreement_end_date: string | null;
  agreement_title_en: string;
  is_major_funding: boolean;
  is_notable: boolean;
  notable_category: string;
  /** Whether the source gives the program's and the recipient's names in French too. */
  has_french_program: boolean;
  has_french_recipient: boolean;
}

// the aggregates' columns: of the table, and the ids of their texts in the dictionary
const STORED_AGGREGATE_COLUMNS = [
  'id',
  'recipient_province',
  'recipient_type',
  'naics_sector_en',
  'fiscal_year',
  'fiscal_year_start',
  'agreement_value_cents',
  'agreement_start_date',
  'agreement_end_date',
  'is_major_funding',
  'is_notable',
  'notable_category',
] as const satisfies ReadonlyArray<keyof AggregateRow & keyof StoredAgreement>;
const AGGREGATE_TEXT_IDS = ['recipient_text_id', 'program_text_id', 'title_text_id'] as const satisfies ReadonlyArray<TextIdColumn>;
/** The French names' text ids: only whether they name a text other than "" is read here (fillFrenchNames reads the few served). */
const FRENCH_NAME_IDS = ['recipient_fr_text_id', 'program_fr_text_id'] as const satisfies ReadonlyArray<TextIdColumn>;
const TEXTS_PER_QUERY = 1000;

/**
 * Every aggregate, accumulated one agreement at a time (each agreement once, at its current amendment; in
 * id order, which the calculator's ties follow), then built by `finish`. Used by `computeAggregates` over
 * the stored rows and by the importer's reading thread over the agreements it resolved (import/tracker.ts).
 */
export class GrantsAggregator {
  private readonly values: Float64Array;
  private count = 0;
  private total = 0;
  private min = Infinity;
  private max = -Infinity;
  private readonly major = new Bucket();
  private readonly notable = new Bucket();
  private readonly provinces = new Map<string, ProvinceBucket>();
  private readonly years = new Map<string, YearBucket>();
  private readonly programs = new Map<string, NamedBucket>();
  private readonly types = new Map<string, Bucket>();
  private readonly sectors = new Map<string, Bucket>();
  private readonly recipients = new Map<string, NamedBucket>();
  private readonly reasons = new Map<string, Bucket>();
  private readonly ranges = VALUE_RANGES.map(() => new Bucket());
  private readonly calculator: CalculatorAggregateBuilder;
  private calculatorError: string | null = null;

  /** `rows`: how many agreements will be added (the median's array). */
  constructor(rows: number, options: AggregateOptions = {}) {
    this.values = new Float64Array(rows);
    this.calculator = new CalculatorAggregateBuilder({ currentYear: options.currentYear });
  }

  add(r: AggregateRow): void {
    const cents = r.agreement_value_cents;
    if (this.count < this.values.length) this.values[this.count] = cents;
    this.count++;
    this.total += cents;
    if (cents < this.min) this.min = cents;
    if (cents > this.max) this.max = cents;
    const isMajor = r.is_major_funding;
    const isNotable = r.is_notable;
    if (isMajor) this.major.add(cents);
    if (isNotable) {
      this.notable.add(cents);
      bucketOf(this.reasons, r.notable_category, newBucket).add(cents);
    }
    const province = bucketOf(this.provinces, r.recipient_province, () => new ProvinceBucket());
    province.add(cents);
    province.recipients.add(r.recipient_legal_name);
    const year = bucketOf(this.years, r.fiscal_year, () => new YearBucket());
    year.add(cents);
    if (isMajor) year.major++;
    if (isNotable) year.notable++;
    const program = bucketOf(this.programs, r.program_name_en, newNamedBucket);
    program.add(cents);
    if (program.frenchId < 0 && r.has_french_program) program.frenchId = r.id;
    bucketOf(this.types, r.recipient_type, newBucket).add(cents);
    bucketOf(this.sectors, r.naics_sector_en, newBucket).add(cents);
    const recipient = bucketOf(this.recipients, r.recipient_legal_name, newNamedBucket);
    recipient.add(cents);
    if (recipient.frenchId < 0 && r.has_french_recipient) recipient.frenchId = r.id;
    for (let i = 0; i < VALUE_RANGES.length; i++) {
      const { min: lo, max: hi } = VALUE_RANGES[i];
      if ((lo === null || cents >= lo) && (hi === null || cents < hi)) {
        this.ranges[i].add(cents);
        break;
      }
    }
    if (this.calculatorError === null) {
      try {
        this.calculator.add({
          id: r.id,
          title: r.agreement_title_en,
          recipient: r.recipient_legal_name,
          value_cents: cents,
          start_date: r.agreement_start_date,
          end_date: r.agreement_end_date,
          fiscal_year_start: r.fiscal_year_start,
        });
      } catch (error) {
        if (!(error instanceof AggregateBuildError)) throw error;
        this.calculatorError = error.message;
      }
    }
  }

  finish(dataSource: DataSource): GrantsAggregates {
    const { values, count, total } = this;
    if (count !== values.length)
      throw new Error(`grants changed while their aggregates were computed (${count} rows read, ${values.length} counted)`);
    if (!Number.isSafeInteger(total)) throw new Error('the total value exceeds the exact integer range of cents');
    const ranked: Ranked = {
      provinces: byValue(this.provinces),
      programs: byValue(this.programs),
      recipients: byValue(this.recipients).slice(0, TOP_RECIPIENTS),
      years: byKey(this.years),
    };
    const sources = (rows: Array<[string, NamedBucket]>): Array<[string, number]> =>
      rows.filter(([, b]) => b.frenchId >= 0).map(([name, b]) => [name, b.frenchId]);
    const frenchNameSources: FrenchNameSources = {
      programs: sources(ranked.programs.slice(0, Math.max(TOP_PROGRAMS_IN_STATS, TOP_PROGRAMS_IN_ANALYSIS))),
      recipients: sources(ranked.recipients),
    };
    return {
      stats: this.stats(ranked, dataSource),
      recipients: this.recipientStats(ranked, dataSource),
      comprehensive: this.comprehensive(ranked, dataSource),
      calculator: this.storedCalculator(dataSource),
      frenchNameSources,
    };
  }

  /** The calculator's aggregates, or the reason the data cannot give them (recorded rather than failing the import). */
  private storedCalculator(dataSource: DataSource): StoredCalculator {
    if (this.calculatorError !== null) return { ok: false, error: this.calculatorError, data_source: dataSource };
    try {
      return { ok: true, aggregates: this.calculator.finish(), data_source: dataSource };
    } catch (error) {
      if (!(error instanceof AggregateBuildError)) throw error;
      return { ok: false, error: error.message, data_source: dataSource };
    }
  }

  /** The median value in cents (0 for no rows); sorts the values in place. */
  private medianCents(): number {
    const { values, count } = this;
    values.sort();
    const mid = count >> 1;
    return count === 0 ? 0 : count % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
  }

  /** /api/stats/. */
  private stats(ranked: Ranked, dataSource: DataSource): GrantsStats {
    const { count, total, major, notable } = this;
    return {
      total_grants: count,
      total_value: dollars(total),
      avg_value: averageDollars(total, count),
      major_funding_count: major.count,
      notable_count: notable.count,
      by_province: ranked.provinces.map(([p, b]) => ({ recipient_province: p, count: b.count, total_value: dollars(b.cents) })),
      by_year: ranked.years.map(([y, b]) => ({ fiscal_year: y, count: b.count, total_value: dollars(b.cents) })),
      top_programs: ranked.programs
        .slice(0, TOP_PROGRAMS_IN_STATS)
        .map(([p, b]) => ({ program_name_en: p, program_name_fr: '', count: b.count, total_value: dollars(b.cents) })),
      data_source: dataSource,
    };
  }

  /** /api/recipients/. */
  private recipientStats(ranked: Ranked, dataSource: DataSource): GrantsRecipients {
    const typeLabel = (code: string): string => (RECIPIENT_TYPES as Record<string, string>)[code] ?? 'Not given';
    return {
      top_recipients: ranked.recipients.map(([name, b]) => ({
        recipient_legal_name: name,
        recipient_legal_name_fr: '',
        total_value: dollars(b.cents),
        grant_count: b.count,
        avg_value: averageDollars(b.cents, b.count),
      })),
      by_type: byValue(this.types).map(([t, b]) => ({
        recipient_type: t,
        label: typeLabel(t),
        count: b.count,
        total_value: dollars(b.cents),
        avg_value: averageDollars(b.cents, b.count),
      })),
      by_province: ranked.provinces.map(([p, b]) => ({
        recipient_province: p,
        count: b.count,
        total_value: dollars(b.cents),
        unique_recipients: b.recipients.size,
      })),
      data_source: dataSource,
    };
  }

  /** /api/comprehensive-stats/. */
  private comprehensive(ranked: Ranked, dataSource: DataSource): GrantsComprehensiveStats {
    const { count, total, major, notable, ranges } = this;
    const empty = count === 0;
    return {
      basic_stats: {
        total_grants: count,
        total_value: dollars(total),
        average_value: averageDollars(total, count),
        median_value: this.medianCents() / 100,
        minimum_value: dollars(empty ? 0 : this.min),
        maximum_value: dollars(empty ? 0 : this.max),
        major_funding_count: major.count,
        notable_count: notable.count,
      },
      yearly_analysis: ranked.years.map(([y, b]) => ({
        fiscal_year: y,
        count: b.count,
        total_value: dollars(b.cents),
        avg_value: averageDollars(b.cents, b.count),
        major_count: b.major,
        notable_count: b.notable,
      })),
      provincial_analysis: ranked.provinces.map(([p, b]) => ({
        recipient_province: p,
        count: b.count,
        total_value: dollars(b.cents),
        avg_value: averageDollars(b.cents, b.count),
        unique_recipients: b.recipients.size,
        value_per_recipient: averageDollars(b.cents, b.recipients.size),
      })),
      sector_analysis: byValue(this.sectors).map(([s, b]) => ({ naics_sector_en: s, count: b.count, total_value: dollars(b.cents) })),
      program_analysis: ranked.programs
        .slice(0, TOP_PROGRAMS_IN_ANALYSIS)
        .map(([p, b]) => ({ program_name_en: p, program_name_fr: '', count: b.count, total_value: dollars(b.cents) })),
      value_distribution: VALUE_RANGES.map((r, i) => ({
        range: r.range,
        min: dollarsOrNull(r.min),
        max: dollarsOrNull(r.max),
        count: ranges[i].count,
        total_value: dollars(ranges[i].cents),
        percentage: empty ? 0 : round2((ranges[i].count / count) * 100),
      })),
      notable_breakdown: {
        notable: { count: notable.count, total_value: dollars(notable.cents) },
        major_funding: { count: major.count, total_value: dollars(major.cents) },
        by_reason: byValue(this.reasons).map(([c, b]) => ({
          category: c,
          label: CATEGORY_LABELS.get(c) ?? c,
          count: b.count,
          total_value: dollars(b.cents),
        })),
      },
      data_source: dataSource,
    };
  }
}

/** The lists ordered once and shared by the three served aggregates (recipients: the top ones only). */
interface Ranked {
  provinces: Array<[string, ProvinceBucket]>;
  programs: Array<[string, NamedBucket]>;
  recipients: Array<[string, NamedBucket]>;
  years: Array<[string, YearBucket]>;
}

export async function computeAggregates(
  db: Kysely<GrantsDatabase>,
  dataSource: DataSource,
  options: AggregateOptions = {},
): Promise<GrantsAggregates> {
  const { n } = await db
    .selectFrom('grants_agreements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const aggregator = new GrantsAggregator(Number(n), options);
  // The texts by their dictionary ids, read once each for the pages that need them: joining them row by row
  // would cost SQLite three index look-ups an agreement.
  const texts = new Map<number, string>();
  const readTexts = async (rows: ReadonlyArray<Pick<StoredAgreement, (typeof AGGREGATE_TEXT_IDS)[number]>>): Promise<void> => {
    const missing = new Set<number>();
    for (const r of rows) for (const c of AGGREGATE_TEXT_IDS) if (!texts.has(Number(r[c]))) missing.add(Number(r[c]));
    const ids = [...missing];
    for (let i = 0; i < ids.length; i += TEXTS_PER_QUERY) {
      const found = await db
        .selectFrom('grants_texts')
        .select(['id', 'text'])
        .where('id', 'in', ids.slice(i, i + TEXTS_PER_QUERY))
        .execute();
      for (const t of found) texts.set(Number(t.id), t.text);
    }
  };
  const textOf = (id: number | null): string => texts.get(Number(id)) ?? '';
  // the dictionary holds "" once (the French name of an agreement whose source gives none), or not at all
  const empty = await db.selectFrom('grants_texts').select('id').where('text', '=', '').executeTakeFirst();
  const emptyId = empty === undefined ? null : Number(empty.id);
  const named = (id: number | null): boolean => id !== null && Number(id) !== emptyId;
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom('grants_agreements')
      .select([...STORED_AGGREGATE_COLUMNS, ...AGGREGATE_TEXT_IDS, ...FRENCH_NAME_IDS])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE_ROWS)
      .execute();
    if (rows.length === 0) break;
    await readTexts(rows);
    for (const r of rows) {
      aggregator.add({
        id: r.id,
        recipient_legal_name: textOf(r.recipient_text_id),
        recipient_province: r.recipient_province,
        recipient_type: r.recipient_type,
        program_name_en: textOf(r.program_text_id),
        naics_sector_en: r.naics_sector_en,
        fiscal_year: r.fiscal_year,
        fiscal_year_start: r.fiscal_year_start,
        agreement_value_cents: r.agreement_value_cents,
        agreement_start_date: r.agreement_start_date,
        agreement_end_date: r.agreement_end_date,
        agreement_title_en: textOf(r.title_text_id),
        is_major_funding: Boolean(r.is_major_funding), // SQLite: 0/1
        is_notable: Boolean(r.is_notable),
        notable_category: r.notable_category,
        has_french_program: named(r.program_fr_text_id),
        has_french_recipient: named(r.recipient_fr_text_id),
      });
    }
    after = rows[rows.length - 1].id;
  }
  return fillFrenchNames(db, aggregator.finish(dataSource));
}

/**
 * The aggregates with the French names of their top lists' programs and recipients, read from the agreements that
 * `frenchNameSources` names (a hundred at most), which then goes: what is stored.
 */
export async function fillFrenchNames(db: Kysely<GrantsDatabase>, aggregates: GrantsAggregates): Promise<GrantsAggregates> {
  const { frenchNameSources: sources, ...filled } = aggregates;
  if (sources === undefined) return filled;
  const ids = [...new Set([...sources.programs, ...sources.recipients].map(([, id]) => id))];
  const names = new Map<number, { program: string; recipient: string }>();
  for (let i = 0; i < ids.length; i += TEXTS_PER_QUERY) {
    const rows = await db
      .selectFrom('grants_agreements as g')
      .leftJoin('grants_texts as p', 'p.id', 'g.program_fr_text_id')
      .leftJoin('grants_texts as r', 'r.id', 'g.recipient_fr_text_id')
      .select(['g.id', 'p.text as program', 'r.text as recipient'])
      .where('g.id', 'in', ids.slice(i, i + TEXTS_PER_QUERY))
      .execute();
    for (const r of rows) names.set(Number(r.id), { program: r.program ?? '', recipient: r.recipient ?? '' });
  }
  const nameOf = (id: number, which: 'program' | 'recipient'): string => {
    const name = names.get(id)?.[which];
    if (name === undefined) throw new Error(`grants aggregates: agreement ${id} is not stored`);
    return name;
  };
  const programs = new Map(sources.programs.map(([name, id]) => [name, nameOf(id, 'program')]));
  const recipients = new Map(sources.recipients.map(([name, id]) => [name, nameOf(id, 'recipient')]));
  const inFrench = <E extends { program_name_en: string }>(e: E): E => ({ ...e, program_name_fr: programs.get(e.program_name_en) ?? '' });
  return {
    ...filled,
    stats: { ...filled.stats, top_programs: filled.stats.top_programs.map(inFrench) },
    comprehensive: { ...filled.comprehensive, program_analysis: filled.comprehensive.program_analysis.map(inFrench) },
    recipients: {
      ...filled.recipients,
      top_recipients: filled.recipients.top_recipients.map((e) => ({
        ...e,
        recipient_legal_name_fr: recipients.get(e.recipient_legal_name) ?? '',
      })),
    },
  };
}

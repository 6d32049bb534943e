// Every aggregate the API serves, computed inside the import transaction in one pass over the stored
// agreements (read in id order, in pages), so a request reads one stored result. Sums are exact integer
// cents; dollars appear only in the output.
import type { Kysely } from 'kysely';
import { num } from '../../core/db/dialect.ts';
import { AggregateBuildError, CalculatorAggregateBuilder } from './calculator/index.ts';
import type { CalculatorAggregates } from './calculator/index.ts';
import { NOTABLE_RULES, RECIPIENT_TYPES } from './source/index.ts';
import { GRANTS_TABLE } from './tables.ts';

/** Where the data came from; generated data says so (kind "demo", is_demo true). */
export interface DataSource {
  kind: 'demo' | 'import';
  is_demo: boolean;
  description: string;
  source: string;
  schema: string;
  data_version: string;
  imported_at: string;
  notable_rules_version: string;
}

export const TOP_PROGRAMS_IN_STATS = 20;
export const TOP_RECIPIENTS = 50;
export const TOP_PROGRAMS_IN_ANALYSIS = 50;
// Rows read per query. Small pages keep few row objects alive at once: with 20,000 the heap grew by ~100 MB
// over the pass and the import of 1.3 million rows peaked above 600 MB of RSS (512 MB with 2,000).
const PAGE_ROWS = 2_000;

/** Half-open value ranges [min, max) of comprehensive-stats, in cents (null: unbounded). */
export const VALUE_RANGES: ReadonlyArray<{ range: string; min: number | null; max: number | null }> = [
  { range: 'Under $10K', min: null, max: 1_000_000 },
  { range: '$10K–$50K', min: 1_000_000, max: 5_000_000 },
  { range: '$50K–$100K', min: 5_000_000, max: 10_000_000 },
  { range: '$100K–$500K', min: 10_000_000, max: 50_000_000 },
  { range: '$500K–$1M', min: 50_000_000, max: 100_000_000 },
  { range: '$1M–$10M', min: 100_000_000, max: 1_000_000_000 },
  { range: 'Over $10M', min: 1_000_000_000, max: null },
];

const dollars = (cents: number): number => cents / 100;
const dollarsOrNull = (cents: number | null): number | null => (cents === null ? null : cents / 100);

/** total / count in cents, rounded half away from zero to the cent, as dollars (0 for no rows). */
export function averageDollars(totalCents: number, count: number): number {
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

export interface GrantsStats {
  total_grants: number;
  total_value: number;
  avg_value: number;
  major_funding_count: number;
  notable_count: number;
  by_province: Array<{ recipient_province: string; count: number; total_value: number }>;
  by_year: Array<{ fiscal_year: string; count: number; total_value: number }>;
  top_programs: Array<{ program_name_en: string; count: number; total_value: number }>;
  data_source: DataSource;
}

export interface GrantsRecipients {
  top_recipients: Array<{ recipient_legal_name: string; total_value: number; grant_count: number; avg_value: number }>;
  by_type: Array<{ recipient_type: string; label: string; count: number; total_value: number; avg_value: number }>;
  by_province: Array<{ recipient_province: string; count: number; total_value: number; unique_recipients: number }>;
  data_source: DataSource;
}

export interface GrantsComprehensiveStats {
  basic_stats: {
    total_grants: number;
    total_value: number;
    average_value: number;
    median_value: number;
    minimum_value: number;
    maximum_value: number;
    major_funding_count: number;
    notable_count: number;
  };
  yearly_analysis: Array<{ fiscal_year: string; count: number; total_value: number; avg_value: number; major_count: number; notable_count: number }>;
  provincial_analysis: Array<{ recipient_province: string; count: number; total_value: number; avg_value: number; unique_recipients: number; value_per_recipient: number }>;
  sector_analysis: Array<{ naics_sector_en: string; count: number; total_value: number }>;
  program_analysis: Array<{ program_name_en: string; count: number; total_value: number }>;
  value_distribution: Array<{ range: string; min: number | null; max: number | null; count: number; total_value: number; percentage: number }>;
  notable_breakdown: {
    notable: { count: number; total_value: number };
    major_funding: { count: number; total_value: number };
    by_reason: Array<{ category: string; label: string; count: number; total_value: number }>;
  };
  data_source: DataSource;
}

/** The calculator's aggregates, or why none could be built (e.g. no year of the data has a revenue figure). */
export type StoredCalculator = { ok: true; aggregates: CalculatorAggregates; data_source: DataSource } | { ok: false; error: string; data_source: DataSource };

export const AGGREGATE_NAMES = ['stats', 'recipients', 'comprehensive', 'calculator'] as const;
export type AggregateName = (typeof AGGREGATE_NAMES)[number];

export interface GrantsAggregates {
  stats: GrantsStats;
  recipients: GrantsRecipients;
  comprehensive: GrantsComprehensiveStats;
  calculator: StoredCalculator;
}

const CATEGORY_LABELS = new Map(NOTABLE_RULES.categories.map((c) => [c.id, c.label]));

export interface AggregateOptions {
  /** The calculator's current fiscal year (start year); default the last year of the data with a revenue figure. */
  currentYear?: number;
}

export async function computeAggregates(db: Kysely<any>, dataSource: DataSource, options: AggregateOptions = {}): Promise<GrantsAggregates> {
  const { n } = await db.selectFrom(GRANTS_TABLE).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const values = new Float64Array(num(n));
  let count = 0;
  let total = 0;
  let min = Infinity;
  let max = -Infinity;
  const major = new Bucket();
  const notable = new Bucket();
  const provinces = new Map<string, ProvinceBucket>();
  const years = new Map<string, YearBucket>();
  const programs = new Map<string, Bucket>();
  const types = new Map<string, Bucket>();
  const sectors = new Map<string, Bucket>();
  const recipients = new Map<string, Bucket>();
  const reasons = new Map<string, Bucket>();
  const ranges = VALUE_RANGES.map(() => new Bucket());
  const calculator = new CalculatorAggregateBuilder({ currentYear: options.currentYear });
  let calculatorError: string | null = null;

  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom(GRANTS_TABLE)
      .select([
        'id', 'recipient_legal_name', 'recipient_province', 'recipient_type', 'program_name_en', 'naics_sector_en', 'fiscal_year', 'fiscal_year_start',
        'agreement_value_cents', 'agreement_start_date', 'agreement_end_date', 'agreement_title_en', 'is_major_funding', 'is_notable', 'notable_category',
      ])
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE_ROWS)
      .execute();
    if (rows.length === 0) break;
    for (const r of rows) {
      const cents = num(r.agreement_value_cents);
      if (count < values.length) values[count] = cents;
      count++;
      total += cents;
      if (cents < min) min = cents;
      if (cents > max) max = cents;
      const isMajor = Boolean(r.is_major_funding);
      const isNotable = Boolean(r.is_notable);
      if (isMajor) major.add(cents);
      if (isNotable) {
        notable.add(cents);
        bucketOf(reasons, r.notable_category as string, newBucket).add(cents);
      }
      const province = bucketOf(provinces, r.recipient_province as string, () => new ProvinceBucket());
      province.add(cents);
      province.recipients.add(r.recipient_legal_name);
      const year = bucketOf(years, r.fiscal_year as string, () => new YearBucket());
      year.add(cents);
      if (isMajor) year.major++;
      if (isNotable) year.notable++;
      bucketOf(programs, r.program_name_en as string, newBucket).add(cents);
      bucketOf(types, r.recipient_type as string, newBucket).add(cents);
      bucketOf(sectors, r.naics_sector_en as string, newBucket).add(cents);
      bucketOf(recipients, r.recipient_legal_name as string, newBucket).add(cents);
      for (let i = 0; i < VALUE_RANGES.length; i++) {
        const { min: lo, max: hi } = VALUE_RANGES[i];
        if ((lo === null || cents >= lo) && (hi === null || cents < hi)) {
          ranges[i].add(cents);
          break;
        }
      }
      if (calculatorError === null) {
        try {
          calculator.add({
            id: Number(r.id),
            title: r.agreement_title_en,
            recipient: r.recipient_legal_name,
            value_cents: cents,
            start_date: r.agreement_start_date,
            end_date: r.agreement_end_date,
            fiscal_year_start: Number(r.fiscal_year_start),
          });
        } catch (error) {
          if (!(error instanceof AggregateBuildError)) throw error;
          calculatorError = error.message;
        }
      }
    }
    after = Number(rows[rows.length - 1].id);
  }
  if (count !== values.length) throw new Error(`grants changed while their aggregates were computed (${count} rows read, ${values.length} counted)`);
  if (!Number.isSafeInteger(total)) throw new Error('the total value exceeds the exact integer range of cents');
  if (count === 0) {
    min = 0;
    max = 0;
  }

  values.sort();
  const mid = count >> 1;
  const medianCents = count === 0 ? 0 : count % 2 === 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;

  let stored: StoredCalculator;
  if (calculatorError !== null) stored = { ok: false, error: calculatorError, data_source: dataSource };
  else {
    try {
      stored = { ok: true, aggregates: calculator.finish(), data_source: dataSource };
    } catch (error) {
      if (!(error instanceof AggregateBuildError)) throw error;
      stored = { ok: false, error: error.message, data_source: dataSource };
    }
  }

  const provinceRows = byValue(provinces);
  const programRows = byValue(programs);
  const yearRows = byKey(years);
  const typeLabel = (code: string): string => (RECIPIENT_TYPES as Record<string, string>)[code] ?? 'Not given';

  const stats: GrantsStats = {
    total_grants: count,
    total_value: dollars(total),
    avg_value: averageDollars(total, count),
    major_funding_count: major.count,
    notable_count: notable.count,
    by_province: provinceRows.map(([p, b]) => ({ recipient_province: p, count: b.count, total_value: dollars(b.cents) })),
    by_year: yearRows.map(([y, b]) => ({ fiscal_year: y, count: b.count, total_value: dollars(b.cents) })),
    top_programs: programRows.slice(0, TOP_PROGRAMS_IN_STATS).map(([p, b]) => ({ program_name_en: p, count: b.count, total_value: dollars(b.cents) })),
    data_source: dataSource,
  };

  const recipientStats: GrantsRecipients = {
    top_recipients: byValue(recipients)
      .slice(0, TOP_RECIPIENTS)
      .map(([name, b]) => ({ recipient_legal_name: name, total_value: dollars(b.cents), grant_count: b.count, avg_value: averageDollars(b.cents, b.count) })),
    by_type: byValue(types).map(([t, b]) => ({ recipient_type: t, label: typeLabel(t), count: b.count, total_value: dollars(b.cents), avg_value: averageDollars(b.cents, b.count) })),
    by_province: provinceRows.map(([p, b]) => ({ recipient_province: p, count: b.count, total_value: dollars(b.cents), unique_recipients: b.recipients.size })),
    data_source: dataSource,
  };

  const comprehensive: GrantsComprehensiveStats = {
    basic_stats: {
      total_grants: count,
      total_value: dollars(total),
      average_value: averageDollars(total, count),
      median_value: medianCents / 100,
      minimum_value: dollars(min),
      maximum_value: dollars(max),
      major_funding_count: major.count,
      notable_count: notable.count,
    },
    yearly_analysis: yearRows.map(([y, b]) => ({
      fiscal_year: y,
      count: b.count,
      total_value: dollars(b.cents),
      avg_value: averageDollars(b.cents, b.count),
      major_count: b.major,
      notable_count: b.notable,
    })),
    provincial_analysis: provinceRows.map(([p, b]) => ({
      recipient_province: p,
      count: b.count,
      total_value: dollars(b.cents),
      avg_value: averageDollars(b.cents, b.count),
      unique_recipients: b.recipients.size,
      value_per_recipient: averageDollars(b.cents, b.recipients.size),
    })),
    sector_analysis: byValue(sectors).map(([s, b]) => ({ naics_sector_en: s, count: b.count, total_value: dollars(b.cents) })),
    program_analysis: programRows.slice(0, TOP_PROGRAMS_IN_ANALYSIS).map(([p, b]) => ({ program_name_en: p, count: b.count, total_value: dollars(b.cents) })),
    value_distribution: VALUE_RANGES.map((r, i) => ({
      range: r.range,
      min: dollarsOrNull(r.min),
      max: dollarsOrNull(r.max),
      count: ranges[i].count,
      total_value: dollars(ranges[i].cents),
      percentage: count === 0 ? 0 : round2((ranges[i].count / count) * 100),
    })),
    notable_breakdown: {
      notable: { count: notable.count, total_value: dollars(notable.cents) },
      major_funding: { count: major.count, total_value: dollars(major.cents) },
      by_reason: byValue(reasons).map(([c, b]) => ({ category: c, label: CATEGORY_LABELS.get(c) ?? c, count: b.count, total_value: dollars(b.cents) })),
    },
    data_source: dataSource,
  };

  return { stats, recipients: recipientStats, comprehensive, calculator: stored };
}

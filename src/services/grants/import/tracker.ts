// The aggregates of a first import (into an empty SQLite table), accumulated by the importer's reading thread.
//
// Why: computed from the stored rows, the aggregates are a pass over every agreement after the last row is
// written, on the writing thread, alone on one core, after everything else. The reading
// thread sees every record anyway. It resolves the amendments as the upsert does (`supersedes`, the later row
// winning ties) and keeps, per agreement, the few fields the aggregates read, in typed arrays; at the end of
// the file it feeds them to the same GrantsAggregator as computeAggregates, while the writing thread writes
// its last batches and builds the substring index.
//
// The agreements' ids: the tracker numbers agreements in the order of their first record, from `firstId`,
// and the rows carry those ids into the table (a conflict keeps the stored id), so the calculator's ids and
// ties are the stored ones. The calculator's top lists need titles, which are not kept here (a title per
// agreement: an estimated 90 MB more); the writing thread reads them by id afterwards (`fillTitles`).
//
// Equal to computeAggregates over the stored rows: tracker.test.ts.
import { ownCopy } from '../../../core/source-text.ts';
import { GrantsAggregator } from '../aggregates.ts';
import type { AggregateOptions, AggregateRow, DataSource, GrantsAggregates } from '../aggregates.ts';
import type { CalculatorAggregates } from '../calculator/index.ts';
import { amendmentKey, fiscalYearLabel, supersedes } from '../source/index.ts';
import type { GrantRecord } from '../source/index.ts';
import { TextDictionary } from './text-dictionary.ts';

/** Distinct values of a column, numbered from 0 (values kept as their own copies: see `ownCopy`). */
class Interner {
  private readonly codes = new Map<string, number>();
  readonly values: string[] = [];

  code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.values.length;
      const own = ownCopy(value);
      this.values.push(own);
      this.codes.set(own, code);
    }
    return code;
  }
}

const NO_DATE = 0;

/** "2019-04-01" (parseIsoDate's form) → 20190401; null → NO_DATE. */
function dateNumber(date: string | null): number {
  if (date === null) return NO_DATE;
  let n = 0;
  for (const i of DATE_DIGITS) n = n * 10 + date.charCodeAt(i) - 48;
  return n;
}
const DATE_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9];

/** dateNumber's inverse, remembered (a few thousand distinct dates). */
class DateTexts {
  private readonly texts = new Map<number, string>();
  text(n: number): string | null {
    if (n === NO_DATE) return null;
    let text = this.texts.get(n);
    if (text === undefined) {
      const pad = (x: number) => String(x).padStart(2, '0');
      text = `${Math.floor(n / 10_000)}-${pad(Math.floor(n / 100) % 100)}-${pad(n % 100)}`;
      this.texts.set(n, text);
    }
    return text;
  }
}

const FLAG_MAJOR = 1;
const FLAG_NOTABLE = 2;
/** The source gives the program's (recipient's) name in French too. */
const FLAG_FRENCH_PROGRAM = 4;
const FLAG_FRENCH_RECIPIENT = 8;

export class AgreementTracker {
  readonly firstId: number;
  /** Agreement key → its number (1, 2, … in order of first appearance). */
  private readonly keys = new TextDictionary(undefined, false);
  private count = 0;
  private capacity = 0;
  // by agreement number: the amendment rule's fields, and the aggregates' fields (strings as interned codes)
  private amendment = new Int32Array(0);
  private amendmentDate = new Int32Array(0);
  private cents = new Float64Array(0);
  private fiscalYearStart = new Uint16Array(0);
  private flags = new Uint8Array(0);
  private recipient = new Int32Array(0);
  private program = new Int32Array(0);
  private startDate = new Int32Array(0); // dates: dateNumber
  private endDate = new Int32Array(0);
  private province = new Uint8Array(0);
  private recipientType = new Uint8Array(0);
  private sector = new Uint8Array(0);
  private category = new Uint8Array(0);
  private readonly recipients = new Interner();
  private readonly programs = new Interner();
  private readonly dates = new DateTexts();
  private readonly small = new Interner(); // provinces, types, sectors, categories: a few dozen values (controlled lists)

  constructor(firstId: number) {
    this.firstId = firstId;
  }

  /** Takes a record in file order (`key`: its amendmentKey); returns its agreement's id. */
  add(record: GrantRecord, key: string = amendmentKey(record)): number {
    const n = this.keys.idOf(key);
    if (n > this.count) {
      this.count = n;
      if (n >= this.capacity) this.grow();
      this.store(n, record);
    } else if (this.supersedesStored(record, n)) {
      this.store(n, record);
    }
    return this.firstId + n - 1;
  }

  /** `supersedes(record, the stored record of agreement n)`. */
  private supersedesStored(record: GrantRecord, n: number): boolean {
    return supersedes(record, { amendment_number: this.amendment[n], amendment_date: this.dates.text(this.amendmentDate[n]) });
  }

  private store(n: number, r: GrantRecord): void {
    this.amendment[n] = r.amendment_number;
    this.amendmentDate[n] = dateNumber(r.amendment_date);
    this.cents[n] = r.agreement_value_cents;
    this.fiscalYearStart[n] = r.fiscal_year_start;
    this.flags[n] =
      (r.is_major_funding ? FLAG_MAJOR : 0) |
      (r.is_notable ? FLAG_NOTABLE : 0) |
      (r.program_name_fr !== '' ? FLAG_FRENCH_PROGRAM : 0) |
      (r.recipient_legal_name_fr !== '' ? FLAG_FRENCH_RECIPIENT : 0);
    this.recipient[n] = this.recipients.code(r.recipient_legal_name);
    this.program[n] = this.programs.code(r.program_name_en);
    this.startDate[n] = dateNumber(r.agreement_start_date);
    this.endDate[n] = dateNumber(r.agreement_end_date);
    this.province[n] = this.small.code(r.recipient_province);
    this.recipientType[n] = this.small.code(r.recipient_type);
    this.sector[n] = this.small.code(r.naics_sector_en);
    this.category[n] = this.small.code(r.notable_category);
    if (this.small.values.length > 0xff)
      throw new Error('too many distinct provinces, types, sectors and categories for the import aggregates');
  }

  private grow(): void {
    // by half: the arrays of the 1.3-million-row file hold ~45 MB, and while growing the old ones too
    const capacity = Math.max(1024, Math.ceil(this.capacity * 1.5));
    const grow = <T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a as never);
      return b;
    };
    const i32 = (n: number) => new Int32Array(n);
    const u8 = (n: number) => new Uint8Array(n);
    this.amendment = grow(this.amendment, i32);
    this.amendmentDate = grow(this.amendmentDate, i32);
    this.cents = grow(this.cents, (n) => new Float64Array(n));
    this.fiscalYearStart = grow(this.fiscalYearStart, (n) => new Uint16Array(n));
    this.flags = grow(this.flags, u8);
    this.recipient = grow(this.recipient, i32);
    this.program = grow(this.program, i32);
    this.startDate = grow(this.startDate, i32);
    this.endDate = grow(this.endDate, i32);
    this.province = grow(this.province, u8);
    this.recipientType = grow(this.recipientType, u8);
    this.sector = grow(this.sector, u8);
    this.category = grow(this.category, u8);
    this.capacity = capacity;
  }

  /**
   * The aggregates of the agreements as resolved, in id order, with `dataSource`. The calculator's titles
   * are empty: `fillTitles` gives them.
   */
  aggregate(dataSource: DataSource, options: AggregateOptions = {}): GrantsAggregates {
    const aggregator = new GrantsAggregator(this.count, options);
    const small = this.small.values;
    const dates = this.dates;
    const yearLabels = new Map<number, string>();
    // one row object, refilled: the aggregator keeps none of them
    const row: AggregateRow = {
      id: 0,
      recipient_legal_name: '',
      recipient_province: '',
      recipient_type: '',
      program_name_en: '',
      naics_sector_en: '',
      fiscal_year: '',
      fiscal_year_start: 0,
      agreement_value_cents: 0,
      agreement_start_date: '',
      agreement_end_date: null,
      agreement_title_en: '',
      is_major_funding: false,
      is_notable: false,
      notable_category: '',
      has_french_program: false,
      has_french_recipient: false,
    };
    for (let n = 1; n <= this.count; n++) {
      row.id = this.firstId + n - 1;
      row.recipient_legal_name = this.recipients.values[this.recipient[n]];
      row.recipient_province = small[this.province[n]];
      row.recipient_type = small[this.recipientType[n]];
      row.program_name_en = this.programs.values[this.program[n]];
      row.naics_sector_en = small[this.sector[n]];
      const year = this.fiscalYearStart[n];
      let label = yearLabels.get(year);
      if (label === undefined) yearLabels.set(year, (label = fiscalYearLabel(year)));
      row.fiscal_year = label; // (a record's fiscal_year is its start year's label)
      row.fiscal_year_start = year;
      row.agreement_value_cents = this.cents[n];
      row.agreement_start_date = dates.text(this.startDate[n])!;
      row.agreement_end_date = dates.text(this.endDate[n]);
      row.is_major_funding = (this.flags[n] & FLAG_MAJOR) !== 0;
      row.is_notable = (this.flags[n] & FLAG_NOTABLE) !== 0;
      row.notable_category = small[this.category[n]];
      row.has_french_program = (this.flags[n] & FLAG_FRENCH_PROGRAM) !== 0;
      row.has_french_recipient = (this.flags[n] & FLAG_FRENCH_RECIPIENT) !== 0;
      aggregator.add(row);
    }
    return aggregator.finish(dataSource);
  }
}

/** The ids of the agreements the calculator's top lists name. */
export function calculatorIds(calculator: CalculatorAggregates): number[] {
  const ids = new Set<number>();
  for (const year of calculator.years) for (const p of year.top_projects) ids.add(p.id);
  for (const list of Object.values(calculator.top_grants_by_since)) for (const g of list) ids.add(g.id);
  return [...ids];
}

/** Gives the calculator's top lists their titles (by agreement id); an id without a title is an error. */
export function fillTitles(calculator: CalculatorAggregates, titles: ReadonlyMap<number, string>): void {
  const titleOf = (id: number): string => {
    const title = titles.get(id);
    if (title === undefined) throw new Error(`grants aggregates: agreement ${id} is not stored`);
    return title;
  };
  for (const year of calculator.years) for (const p of year.top_projects) p.title = titleOf(p.id);
  for (const list of Object.values(calculator.top_grants_by_since)) for (const g of list) g.title = titleOf(g.id);
}

/** The data source of aggregates built before the import knows its own (replaced by `withDataSource`). */
export const SOURCE_TO_COME: DataSource = {
  kind: 'import',
  is_demo: false,
  description: '',
  source: '',
  schema: '',
  data_version: '',
  imported_at: '',
  notable_rules_version: '',
};

/** The aggregates with another data source (the reading thread builds them before the import knows its own). */
export function withDataSource(aggregates: GrantsAggregates, dataSource: DataSource): GrantsAggregates {
  return {
    stats: { ...aggregates.stats, data_source: dataSource },
    recipients: { ...aggregates.recipients, data_source: dataSource },
    comprehensive: { ...aggregates.comprehensive, data_source: dataSource },
    calculator: { ...aggregates.calculator, data_source: dataSource },
    frenchNameSources: aggregates.frenchNameSources,
  };
}

// Precomputed aggregates for the calculator, built once per import by a streaming accumulator, so that a
// request costs O(years), whatever the number of grants.
//
// Per fiscal year: the total annual value of the grants running in it (exact integer cents), their count,
// the annual value of grants starting in it, and the top 5 projects by annual value. Per possible
// taxpayer_since_year s: the top 10 grants by score_s(g) = Σ_{y=s..current} annual_value_g(y) / revenue(y).
//
// Why that ranking is the ranking by user_share, for every caller:
//   user_share(g) = Σ_{y=s..current} annual_value_g(y) × C / revenue(y)      (C = the caller's total tax)
//                 = C × Σ_{y=s..current} annual_value_g(y) / revenue(y)      (C does not depend on y)
//                 = C × score_s(g).
//   C ≥ 0 is the same for every grant, so for C > 0, user_share(g1) > user_share(g2) ⇔ score_s(g1) > score_s(g2):
//   the order is the order of score_s, and the top 10 by score are the top 10 by user_share. (For C = 0
//   every share is 0; the list by score is still a valid top 10 of tied grants.) Only s varies between
//   callers, so one list per s suffices.
import { fiscalYearLabel, fiscalYearOfDate, parseIsoDate } from '../source/fiscal-year.ts';
import { dollarsToCents } from '../source/money.ts';
import type { GrantRecord } from '../source/record.ts';
import { FEDERAL_REVENUE_TABLE_VERSION, FIRST_REVENUE_YEAR, LAST_REVENUE_YEAR, publishedRevenue } from './constants.ts';

export const TOP_PROJECTS_PER_YEAR = 5;
export const TOP_GRANTS = 10;
/** An agreement is spread over at most this many fiscal years (guards against end dates like 2999-12-31). */
export const MAX_SPAN_YEARS = 100;

export interface CalculatorGrantInput {
  id: number;
  title: string;
  recipient: string;
  /** The agreement's current value (highest amendment), exact cents. */
  value_cents: number;
  start_date: string;
  end_date: string | null;
  /** The grant's fiscal_year (start year); defaults to the fiscal year of start_date. */
  fiscal_year_start?: number;
}

/** The builder's input for a resolved grant record (one per agreement) stored under `id`. */
export function toCalculatorInput(id: number, record: GrantRecord): CalculatorGrantInput {
  return {
    id,
    title: record.agreement_title_en,
    recipient: record.recipient_legal_name,
    value_cents: record.agreement_value_cents,
    start_date: record.agreement_start_date,
    end_date: record.agreement_end_date,
    fiscal_year_start: record.fiscal_year_start,
  };
}

/** The builder's input for an agreement as the API serves it (GET /api/grants/{id}/), values in dollars. */
export function servedGrantInput(grant: {
  id: number;
  agreement_title_en: string;
  recipient_legal_name: string;
  agreement_value: number;
  agreement_start_date: string;
  agreement_end_date: string | null;
}): CalculatorGrantInput {
  return {
    id: grant.id,
    title: grant.agreement_title_en,
    recipient: grant.recipient_legal_name,
    value_cents: dollarsToCents(grant.agreement_value),
    start_date: grant.agreement_start_date,
    end_date: grant.agreement_end_date,
  };
}

interface ProjectRef {
  id: number;
  title: string;
  recipient: string;
  annual_value_cents: number;
}

export interface RankedGrant {
  id: number;
  title: string;
  recipient: string;
  total_value_cents: number;
  /** Σ over years s..current of annual value (cents) / federal revenue (dollars). */
  score: number;
}

export interface YearAggregate {
  year: number;
  fiscal_year: string;
  running_value_cents: number;
  running_count: number;
  new_value_cents: number;
  new_count: number;
  top_projects: ProjectRef[];
}

export interface CalculatorAggregates {
  format: 'grants-calculator-aggregates/1';
  revenue_table_version: string;
  grants: number;
  first_data_year: number;
  last_data_year: number;
  current_year: number;
  since_range: { min: number; max: number };
  /** Contiguous fiscal years, from the first year any grant runs to max(last such year, current_year + 5). */
  years: YearAggregate[];
  /** For each since year s (as a string key), the top 10 grants by score_s. */
  top_grants_by_since: Record<string, RankedGrant[]>;
}

export class AggregateBuildError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AggregateBuildError';
  }
}

/** Keeps the k best items by (score desc, id asc), in order; O(k) per accepted item, O(1) per rejection. */
class TopK<T extends { id: number }> {
  readonly items: Array<{ score: number; item: T }> = [];
  private readonly k: number;
  constructor(k: number) {
    this.k = k;
  }
  private better(score: number, id: number, than: { score: number; item: T }): boolean {
    return score > than.score || (score === than.score && id < than.item.id);
  }
  /** Whether an item of this score and id would be kept (check before building the item: most are not). */
  accepts(score: number, id: number): boolean {
    const items = this.items;
    return items.length < this.k || this.better(score, id, items[items.length - 1]);
  }
  offer(score: number, item: T): void {
    if (!this.accepts(score, item.id)) return;
    const items = this.items;
    let at = items.length;
    while (at > 0 && this.better(score, item.id, items[at - 1])) at--;
    items.splice(at, 0, { score, item });
    if (items.length > this.k) items.pop();
  }
}

/** `value` cents spread over n parts in whole cents; the remainder goes to the earliest parts. Σ parts = value. */
export function splitCents(value: number, n: number): number[] {
  const sign = value < 0 ? -1 : 1;
  const abs = Math.abs(value);
  const base = Math.floor(abs / n);
  let remainder = abs - base * n;
  const parts: number[] = new Array(n);
  for (let i = 0; i < n; i++) {
    parts[i] = sign * (base + (remainder > 0 ? 1 : 0));
    if (remainder > 0) remainder--;
  }
  return parts;
}

/** The fiscal years a grant runs in, from its start date to its end date (a missing or earlier end: one year). */
export function grantYears(startDate: string, endDate: string | null): { first: number; last: number } {
  const first = fiscalYearOfDate(startDate);
  let last = endDate && endDate >= startDate ? fiscalYearOfDate(endDate) : first;
  if (last - first + 1 > MAX_SPAN_YEARS) last = first + MAX_SPAN_YEARS - 1;
  return { first, last };
}

interface YearState {
  running: number;
  count: number;
  newValue: number;
  newCount: number;
  top: TopK<ProjectRef>;
}

export interface AggregateBuilderOptions {
  /** The "current" fiscal year; by default the last fiscal year in the data that has a published revenue figure. */
  currentYear?: number;
}

/** Streaming accumulator: `add` every resolved grant (one per agreement), then `finish`. Memory is O(years). */
export class CalculatorAggregateBuilder {
  private readonly configuredCurrent: number | undefined;
  private readonly years = new Map<number, YearState>();
  private readonly revenueYears: number[] = [];
  private readonly revenueDollars: number[] = [];
  /** pairs[si][ci]: top grants by score over [revenueYears[si], revenueYears[ci]], ci ≥ si. */
  private readonly pairs: Array<Array<TopK<RankedGrant> | null>>;
  private count = 0;
  /** add()'s working array (one per builder, not one per grant) */
  private readonly prefix: Float64Array;
  private minDataYear = Infinity;
  private maxDataYear = -Infinity;
  private finished = false;

  constructor(options: AggregateBuilderOptions = {}) {
    this.configuredCurrent = options.currentYear;
    for (let y = FIRST_REVENUE_YEAR; y <= LAST_REVENUE_YEAR; y++) {
      const r = publishedRevenue(y);
      if (!r) throw new AggregateBuildError(`revenue table has no figure for ${fiscalYearLabel(y)}`);
      this.revenueYears.push(y);
      this.revenueDollars.push(r.dollars);
    }
    const n = this.revenueYears.length;
    this.prefix = new Float64Array(n + 1);
    this.pairs = [];
    for (let si = 0; si < n; si++) {
      const row: Array<TopK<RankedGrant> | null> = [];
      for (let ci = 0; ci < n; ci++) row.push(ci >= si ? new TopK<RankedGrant>(TOP_GRANTS) : null);
      this.pairs.push(row);
    }
  }

  private year(y: number): YearState {
    let s = this.years.get(y);
    if (!s) {
      s = { running: 0, count: 0, newValue: 0, newCount: 0, top: new TopK<ProjectRef>(TOP_PROJECTS_PER_YEAR) };
      this.years.set(y, s);
    }
    return s;
  }

  add(grant: CalculatorGrantInput): void {
    if (this.finished) throw new AggregateBuildError('add() after finish()');
    if (!Number.isSafeInteger(grant.value_cents))
      throw new AggregateBuildError(`grant ${grant.id}: value_cents must be a whole number of cents`);
    const start = parseIsoDate(grant.start_date);
    if (!start) throw new AggregateBuildError(`grant ${grant.id}: start_date is not a date`);
    const end = grant.end_date ? parseIsoDate(grant.end_date) : null;
    const { first, last } = grantYears(start, end);
    const dataYear = grant.fiscal_year_start ?? first;
    this.count++;
    if (dataYear < this.minDataYear) this.minDataYear = dataYear;
    if (dataYear > this.maxDataYear) this.maxDataYear = dataYear;

    const parts = splitCents(grant.value_cents, last - first + 1);
    for (let k = 0; k < parts.length; k++) {
      const state = this.year(first + k);
      const annual = parts[k];
      state.running += annual;
      state.count++;
      if (state.top.accepts(annual, grant.id))
        state.top.offer(annual, { id: grant.id, title: grant.title, recipient: grant.recipient, annual_value_cents: annual });
    }
    const firstState = this.year(first);
    firstState.newValue += parts[0];
    firstState.newCount++;

    // Scores over every (since, current) pair of revenue years the grant overlaps.
    const lo = Math.max(first, FIRST_REVENUE_YEAR);
    const hi = Math.min(last, LAST_REVENUE_YEAR);
    if (lo > hi) return;
    const n = this.revenueYears.length;
    // prefix[i] = Σ weights of revenue years before index i
    const prefix = this.prefix;
    for (let i = 0; i < n; i++) {
      const y = this.revenueYears[i];
      const w = y >= first && y <= last ? parts[y - first] / this.revenueDollars[i] : 0;
      prefix[i + 1] = prefix[i] + w;
    }
    const firstIdx = lo - FIRST_REVENUE_YEAR;
    const lastIdx = hi - FIRST_REVENUE_YEAR;
    for (let si = 0; si <= lastIdx; si++) {
      const row = this.pairs[si];
      for (let ci = Math.max(si, firstIdx); ci < n; ci++) {
        const score = prefix[Math.min(ci, lastIdx) + 1] - prefix[si];
        if (score <= 0) continue;
        const top = row[ci]!;
        if (top.accepts(score, grant.id))
          top.offer(score, { id: grant.id, title: grant.title, recipient: grant.recipient, total_value_cents: grant.value_cents, score });
      }
    }
  }

  finish(): CalculatorAggregates {
    this.finished = true;
    if (this.count === 0) throw new AggregateBuildError('no grants: the calculator needs data');
    const current = this.configuredCurrent ?? Math.min(this.maxDataYear, LAST_REVENUE_YEAR);
    if (current < FIRST_REVENUE_YEAR || current > LAST_REVENUE_YEAR) {
      throw new AggregateBuildError(
        `current year ${fiscalYearLabel(current)} has no published federal revenue figure (the table covers ${fiscalYearLabel(FIRST_REVENUE_YEAR)} to ${fiscalYearLabel(LAST_REVENUE_YEAR)})`,
      );
    }
    const sinceMin = Math.max(FIRST_REVENUE_YEAR, this.minDataYear);
    if (sinceMin > current) throw new AggregateBuildError(`the data starts after the current year ${fiscalYearLabel(current)}`);

    const moneyYears = [...this.years.keys()];
    const firstYear = Math.min(...moneyYears, sinceMin);
    const lastYear = Math.max(...moneyYears, current + 5);
    const years: YearAggregate[] = [];
    for (let y = firstYear; y <= lastYear; y++) {
      const s = this.years.get(y);
      if (s && !(Number.isSafeInteger(s.running) && Number.isSafeInteger(s.newValue))) {
        throw new AggregateBuildError(`fiscal year ${fiscalYearLabel(y)}: totals exceed the exact integer range`);
      }
      years.push({
        year: y,
        fiscal_year: fiscalYearLabel(y),
        running_value_cents: s?.running ?? 0,
        running_count: s?.count ?? 0,
        new_value_cents: s?.newValue ?? 0,
        new_count: s?.newCount ?? 0,
        top_projects: s ? s.top.items.map((e) => e.item) : [],
      });
    }
    const top: Record<string, RankedGrant[]> = {};
    const ci = current - FIRST_REVENUE_YEAR;
    for (let s = sinceMin; s <= current; s++) {
      top[String(s)] = this.pairs[s - FIRST_REVENUE_YEAR][ci]!.items.map((e) => e.item);
    }
    return {
      format: 'grants-calculator-aggregates/1',
      revenue_table_version: FEDERAL_REVENUE_TABLE_VERSION,
      grants: this.count,
      first_data_year: this.minDataYear,
      last_data_year: this.maxDataYear,
      current_year: current,
      since_range: { min: sinceMin, max: current },
      years,
      top_grants_by_since: top,
    };
  }
}

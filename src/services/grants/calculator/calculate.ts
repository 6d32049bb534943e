// The calculator: a pure function of a request and the precomputed aggregates; O(years) per request, no
// state shared between callers, no clock.
import { fiscalYearLabel, parseIsoDate } from '../source/fiscal-year.ts';
import { dollarsToCents, formatCents, formatDollars } from '../source/money.ts';
import { grantYears, splitCents } from './aggregates.ts';
import type { CalculatorAggregates, CalculatorGrantInput, RankedGrant, YearAggregate } from './aggregates.ts';
import { FIRST_TAX_YEAR, LAST_REVENUE_YEAR, LAST_TAX_YEAR, publishedRevenue } from './constants.ts';
import { federalIncomeTax, gstCents } from './tax.ts';
import type { GrantsLanguage } from '../language.ts';

/** Why the calculator refused a parameter, for a page to say in its own language (`message` says it in English). */
export type InputProblem =
  | { kind: 'body' }
  | { kind: 'required' }
  | { kind: 'number' }
  | { kind: 'negative' }
  | { kind: 'tooLarge'; max: number }
  | { kind: 'mode'; modes: string }
  | { kind: 'year' }
  | { kind: 'yearRange'; min: number; max: number };

/** A request the calculator refuses; the HTTP layer answers 400 {"error": message}. */
export class CalculatorInputError extends Error {
  readonly parameter: string;
  readonly problem: InputProblem;
  constructor(parameter: string, message: string, problem: InputProblem) {
    super(message);
    this.name = 'CalculatorInputError';
    this.parameter = parameter;
    this.problem = problem;
  }
}

type InputMode = 'annual' | 'monthly';
const INPUT_MODES: readonly InputMode[] = ['annual', 'monthly'];
export const DEFAULT_TAXPAYER_SINCE_YEAR = 2018;
/** Amounts above this are refused (far above any income; keeps every intermediate exact). */
export const MAX_AMOUNT_DOLLARS = 1_000_000_000_000;

interface ValidatedRequest {
  /** Annual amounts (monthly inputs already × 12), exact cents. */
  incomeCents: number;
  gstSpendingCents: number;
  inputMode: InputMode;
  sinceYear: number;
}

interface ShareEntry {
  year: number;
  fiscal_year: string;
  user_share: number;
  user_share_formatted: string;
  grant_count: number;
}

/** The agreement's title and recipient in English, in French with `fr` (see calculationIn), both with `both`. */
interface NamedAgreement {
  id: number;
  title: string;
  recipient: string;
  title_fr?: string;
  recipient_fr?: string;
}

interface ProjectShare extends NamedAgreement {
  annual_value: number;
  user_share: number;
  user_share_formatted: string;
}

interface YearlyBreakdownEntry extends ShareEntry {
  federal_revenue: number;
  top_projects: ProjectShare[];
}

interface GrantShare extends NamedAgreement {
  total_value: number;
  user_share: number;
  user_share_formatted: string;
}

export interface CalculatorResponse {
  success: true;
  calculation: {
    annual_income: number;
    gst_eligible_spending: number;
    input_mode: InputMode;
    taxpayer_since_year: number;
    tax_year: number;
    current_year: number;
    current_fiscal_year: string;
    federal_income_tax: number;
    federal_income_tax_formatted: string;
    gst_paid: number;
    gst_paid_formatted: string;
    total_tax_contribution: number;
    total_tax_contribution_formatted: string;
    federal_revenue: number;
    grants_portion_of_taxes: number;
    grants_portion_of_taxes_formatted: string;
    revenue_share_percentage: number;
  };
  grant_shares: GrantShare[];
  yearly_breakdown: YearlyBreakdownEntry[];
  future_projections: {
    continuing_only: Array<ShareEntry & { federal_revenue: number; revenue_is_projected: boolean }>;
    with_new_projects: Array<ShareEntry & { expected_new_grants: number }>;
    historical_average: number;
    historical_average_formatted: string;
  };
  total_grants_share: number;
  total_grants_share_formatted: string;
}

function amountCents(value: unknown, parameter: string, required: boolean): number {
  if (value === undefined || value === null || value === '') {
    if (required) throw new CalculatorInputError(parameter, `${parameter} is required`, { kind: 'required' });
    return 0;
  }
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) n = Number(value);
  else throw new CalculatorInputError(parameter, `${parameter} must be a number`, { kind: 'number' });
  if (!Number.isFinite(n)) throw new CalculatorInputError(parameter, `${parameter} must be a number`, { kind: 'number' });
  if (n < 0) throw new CalculatorInputError(parameter, `${parameter} must be greater than or equal to 0`, { kind: 'negative' });
  if (n > MAX_AMOUNT_DOLLARS)
    throw new CalculatorInputError(parameter, `${parameter} must be at most ${MAX_AMOUNT_DOLLARS}`, {
      kind: 'tooLarge',
      max: MAX_AMOUNT_DOLLARS,
    });
  return dollarsToCents(n);
}

/** Checks and normalises a request body against the data's year range. */
function validateCalculatorRequest(body: unknown, aggregates: CalculatorAggregates): ValidatedRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new CalculatorInputError('body', 'the request body must be a JSON object with annual_income', { kind: 'body' });
  }
  const b = body as Record<string, unknown>;
  let inputMode: InputMode = 'annual';
  if (b.input_mode !== undefined && b.input_mode !== null) {
    const mode = typeof b.input_mode === 'string' ? b.input_mode.trim().toLowerCase() : '';
    if (mode !== 'annual' && mode !== 'monthly')
      throw new CalculatorInputError('input_mode', `input_mode must be one of: ${INPUT_MODES.join(', ')}`, {
        kind: 'mode',
        modes: INPUT_MODES.join(', '),
      });
    inputMode = mode;
  }
  const factor = inputMode === 'monthly' ? 12 : 1;
  const incomeCents = amountCents(b.annual_income, 'annual_income', true) * factor;
  const gstSpendingCents = amountCents(b.gst_eligible_spending, 'gst_eligible_spending', false) * factor;

  const { min, max } = aggregates.since_range;
  let sinceYear: number;
  if (b.taxpayer_since_year === undefined || b.taxpayer_since_year === null || b.taxpayer_since_year === '') {
    // the contract's default, moved into the data's range when the data does not reach 2018
    sinceYear = Math.min(max, Math.max(min, DEFAULT_TAXPAYER_SINCE_YEAR));
  } else {
    const raw = b.taxpayer_since_year;
    const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d{4}\s*$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(n))
      throw new CalculatorInputError('taxpayer_since_year', 'taxpayer_since_year must be an integer year, e.g. 2018', { kind: 'year' });
    if (n < min || n > max)
      throw new CalculatorInputError('taxpayer_since_year', `taxpayer_since_year must be between ${min} and ${max}`, {
        kind: 'yearRange',
        min,
        max,
      });
    sinceYear = n;
  }
  return { incomeCents, gstSpendingCents, inputMode, sinceYear };
}

/** Revenue of a fiscal year: the published figure, or for later years the latest published one. */
function revenueFor(year: number): { dollars: number; projected: boolean } {
  const published = publishedRevenue(year);
  if (published) return { dollars: published.dollars, projected: false };
  if (year > LAST_REVENUE_YEAR) return { dollars: publishedRevenue(LAST_REVENUE_YEAR)!.dollars, projected: true };
  throw new Error(`no federal revenue figure for ${fiscalYearLabel(year)}`);
}

/** cents × C / revenue → dollars: the share of an amount paid by a contribution of C cents. */
function share(amountCents: number, contributionCents: number, revenueDollars: number): number {
  return (amountCents * contributionCents) / (revenueDollars * 10_000);
}

/** The caller's federal income tax and GST for the tax year of the current fiscal year: C of the formulas. */
function contributionOf(request: ValidatedRequest, current: number, options: CalculateOptions) {
  const taxYear = options.taxYear ?? Math.min(LAST_TAX_YEAR, Math.max(FIRST_TAX_YEAR, current));
  const tax = federalIncomeTax(request.incomeCents, taxYear);
  const gst = gstCents(request.gstSpendingCents);
  return { taxYear, tax, gst, contribution: tax.taxCents + gst };
}

/** The inputs and the contribution as both answers report them (CONTRIBUTION_FIELDS of the schema). */
function contributionFields(request: ValidatedRequest, current: number, c: ReturnType<typeof contributionOf>) {
  return {
    annual_income: request.incomeCents / 100,
    gst_eligible_spending: request.gstSpendingCents / 100,
    input_mode: request.inputMode,
    taxpayer_since_year: request.sinceYear,
    tax_year: c.taxYear,
    current_year: current,
    current_fiscal_year: fiscalYearLabel(current),
    federal_income_tax: c.tax.taxCents / 100,
    federal_income_tax_formatted: formatCents(c.tax.taxCents),
    gst_paid: c.gst / 100,
    gst_paid_formatted: formatCents(c.gst),
    total_tax_contribution: c.contribution / 100,
    total_tax_contribution_formatted: formatCents(c.contribution),
  };
}

export interface CalculateOptions {
  /** Tax year for the brackets; default the calendar year the current fiscal year starts in (clamped to the tables). */
  taxYear?: number;
}

/**
 * The calculator: validates the body (throws CalculatorInputError naming the parameter) and returns the
 * taxpayer's share of grants, in O(years + 10).
 */
export function calculateTaxpayerShare(
  body: unknown,
  aggregates: CalculatorAggregates,
  options: CalculateOptions = {},
): CalculatorResponse {
  const request = validateCalculatorRequest(body, aggregates);
  const current = aggregates.current_year;
  const { taxYear, tax, gst, contribution } = contributionOf(request, current, options);

  const byYear = new Map<number, YearAggregate>(aggregates.years.map((y) => [y.year, y]));
  const yearOf = (y: number): YearAggregate | undefined => byYear.get(y);

  const yearly: YearlyBreakdownEntry[] = [];
  let total = 0;
  let newShareSum = 0;
  let newCountSum = 0;
  for (let y = request.sinceYear; y <= current; y++) {
    const agg = yearOf(y);
    const revenue = revenueFor(y).dollars;
    const s = share(agg?.running_value_cents ?? 0, contribution, revenue);
    total += s;
    newShareSum += share(agg?.new_value_cents ?? 0, contribution, revenue);
    newCountSum += agg?.new_count ?? 0;
    yearly.push({
      year: y,
      fiscal_year: fiscalYearLabel(y),
      user_share: s,
      user_share_formatted: formatDollars(s),
      grant_count: agg?.running_count ?? 0,
      federal_revenue: revenue,
      top_projects: (agg?.top_projects ?? []).map((p) => {
        const ps = share(p.annual_value_cents, contribution, revenue);
        return {
          id: p.id,
          title: p.title,
          recipient: p.recipient,
          annual_value: p.annual_value_cents / 100,
          user_share: ps,
          user_share_formatted: formatDollars(ps),
        };
      }),
    });
  }
  const pastYears = current - request.sinceYear + 1;
  const historicalAverage = newShareSum / pastYears;
  const averageNewCount = newCountSum / pastYears;

  const continuing: CalculatorResponse['future_projections']['continuing_only'] = [];
  const withNew: CalculatorResponse['future_projections']['with_new_projects'] = [];
  for (let y = current + 1; y <= current + 5; y++) {
    const agg = yearOf(y);
    const revenue = revenueFor(y);
    const s = share(agg?.running_value_cents ?? 0, contribution, revenue.dollars);
    const count = agg?.running_count ?? 0;
    continuing.push({
      year: y,
      fiscal_year: fiscalYearLabel(y),
      user_share: s,
      user_share_formatted: formatDollars(s),
      grant_count: count,
      federal_revenue: revenue.dollars,
      revenue_is_projected: revenue.projected,
    });
    const sn = s + historicalAverage;
    withNew.push({
      year: y,
      fiscal_year: fiscalYearLabel(y),
      user_share: sn,
      user_share_formatted: formatDollars(sn),
      grant_count: count,
      expected_new_grants: averageNewCount,
    });
  }

  const ranked: RankedGrant[] = aggregates.top_grants_by_since[String(request.sinceYear)] ?? [];
  const grantShares: GrantShare[] = ranked.map((g) => {
    const s = (g.score * contribution) / 10_000;
    return {
      id: g.id,
      title: g.title,
      total_value: g.total_value_cents / 100,
      user_share: s,
      user_share_formatted: formatDollars(s),
      recipient: g.recipient,
    };
  });

  const currentRevenue = revenueFor(current).dollars;
  const currentShare = share(yearOf(current)?.running_value_cents ?? 0, contribution, currentRevenue);
  return {
    success: true,
    calculation: {
      ...contributionFields(request, current, { taxYear, tax, gst, contribution }),
      federal_revenue: currentRevenue,
      grants_portion_of_taxes: currentShare,
      grants_portion_of_taxes_formatted: formatDollars(currentShare),
      revenue_share_percentage: (contribution / 100 / currentRevenue) * 100,
    },
    grant_shares: grantShares,
    yearly_breakdown: yearly,
    future_projections: {
      continuing_only: continuing,
      with_new_projects: withNew,
      historical_average: historicalAverage,
      historical_average_formatted: formatDollars(historicalAverage),
    },
    total_grants_share: total,
    total_grants_share_formatted: formatDollars(total),
  };
}

/** The French title and recipient name of agreements by id ('' where the source gives none). */
export type FrenchTexts = ReadonlyMap<number, { title: string; recipient: string }>;

/** An agreement's title and recipient as calculationIn names them. */
export function namedIn<E extends NamedAgreement>(entry: E, french: FrenchTexts, language: GrantsLanguage): E {
  const fr = french.get(entry.id) ?? { title: '', recipient: '' };
  if (language === 'both') return { ...entry, title_fr: fr.title, recipient_fr: fr.recipient };
  if (language === 'fr') return { ...entry, title: fr.title || entry.title, recipient: fr.recipient || entry.recipient };
  return entry;
}

/**
 * An answer's agreements (the top grants and each year's top projects) named as C's other answers name them: `fr`,
 * the French title and recipient where the source gives them (else the English ones) under the English fields; `both`,
 * the English ones with the French beside them (`title_fr`, `recipient_fr`; "" where the source gives none).
 */
export function calculationIn(answer: CalculatorResponse, french: FrenchTexts, language: GrantsLanguage): CalculatorResponse {
  if (language === 'en') return answer;
  return {
    ...answer,
    grant_shares: answer.grant_shares.map((g) => namedIn(g, french, language)),
    yearly_breakdown: answer.yearly_breakdown.map((y) => ({ ...y, top_projects: y.top_projects.map((p) => namedIn(p, french, language)) })),
  };
}

/** One fiscal year of one grant's share: its annual value there and the caller's share of it. */
interface GrantShareYear {
  year: number;
  fiscal_year: string;
  annual_value: number;
  federal_revenue: number;
  revenue_is_projected: boolean;
  /** Whether the year lies in taxpayer_since_year..current year, the years `user_share` sums. */
  counted: boolean;
  user_share: number;
  user_share_formatted: string;
}

export interface GrantTaxpayerShare {
  calculation: Pick<
    CalculatorResponse['calculation'],
    | 'annual_income'
    | 'gst_eligible_spending'
    | 'input_mode'
    | 'taxpayer_since_year'
    | 'tax_year'
    | 'current_year'
    | 'current_fiscal_year'
    | 'federal_income_tax'
    | 'federal_income_tax_formatted'
    | 'gst_paid'
    | 'gst_paid_formatted'
    | 'total_tax_contribution'
    | 'total_tax_contribution_formatted'
  >;
  years: GrantShareYear[];
  /** The calculator's user_share(g): Σ over the counted years of rate(y) × annual value. */
  user_share: number;
  user_share_formatted: string;
  /** The same sum over the grant's years after the current year (revenue of a year without a figure: the latest). */
  future_share: number;
  future_share_formatted: string;
}

/**
 * One grant's share for a caller: the calculator's per-grant formula (user_share(g) = Σ_{y = since..current}
 * rate(y) × annual_value_g(y)), with the same request validation, tax, revenue figures and spreading of the value
 * over the fiscal years, year by year. Years of the grant before taxpayer_since_year or before the first revenue
 * figure are listed with no share and not counted.
 */
export function grantTaxpayerShare(
  grant: CalculatorGrantInput,
  body: unknown,
  aggregates: CalculatorAggregates,
  options: CalculateOptions = {},
): GrantTaxpayerShare {
  const request = validateCalculatorRequest(body, aggregates);
  const current = aggregates.current_year;
  const { taxYear, tax, gst, contribution } = contributionOf(request, current, options);
  const start = parseIsoDate(grant.start_date);
  if (!start) throw new Error(`grant ${grant.id}: start_date is not a date`);
  const end = grant.end_date ? parseIsoDate(grant.end_date) : null;
  const { first, last } = grantYears(start, end);
  const parts = splitCents(grant.value_cents, last - first + 1);
  const years: GrantShareYear[] = [];
  let total = 0;
  let future = 0;
  for (let k = 0; k < parts.length; k++) {
    const y = first + k;
    const published = publishedRevenue(y);
    const revenue = published ? { dollars: published.dollars, projected: false } : y > LAST_REVENUE_YEAR ? revenueFor(y) : null;
    const s = revenue ? share(parts[k], contribution, revenue.dollars) : 0;
    const counted = revenue !== null && y >= request.sinceYear && y <= current;
    if (counted) total += s;
    else if (y > current) future += s;
    years.push({
      year: y,
      fiscal_year: fiscalYearLabel(y),
      annual_value: parts[k] / 100,
      federal_revenue: revenue?.dollars ?? 0,
      revenue_is_projected: revenue?.projected ?? false,
      counted,
      user_share: s,
      user_share_formatted: formatDollars(s),
    });
  }
  return {
    calculation: {
      ...contributionFields(request, current, { taxYear, tax, gst, contribution }),
    },
    years,
    user_share: total,
    user_share_formatted: formatDollars(total),
    future_share: future,
    future_share_formatted: formatDollars(future),
  };
}

import type { DataSummary, PanelRow } from './types.ts';
import type { NegBinPanelData } from './model.ts';

/** The panel as the model sees it: complete rows, integer indices, predictors standardised within year. */
export interface PanelDesign extends NegBinPanelData {
  predictors: string[];
  countries: string[];
  years: number[];
  excludedRows: number;
  exclusionReasons: Record<string, number>;
  /** Predictor-years where every country had the same value (standardised values set to 0). */
  constantWithinYear: { predictor: string; year: number }[];
  /** The predictors as supplied, row-major n × k. */
  raw: Float64Array;
  /** The standardisation per year index and predictor (nYears × k): x = (raw − yearMean) · yearScale. */
  yearMean: Float64Array;
  yearScale: Float64Array;
}

export const EXCLUSION = {
  predictor: 'missing or non-finite predictor value',
  publications: 'publications missing, not finite or not positive',
  retractions: 'retractions missing or not a non-negative integer',
  year: 'year not an integer',
  country: 'country missing',
  duplicate: 'duplicate country-year (first kept)',
} as const;

/**
 * Standardise each predictor within each year: (x - mean_year) / sd_year with the sample sd (n - 1).
 * A predictor with fewer than two rows or no spread in a year gets 0 there (it carries no within-year
 * contrast), and that predictor-year is reported. Used by the fit and by the simulator, so both apply the
 * coefficients to the same scale.
 */
export function standardiseWithinYear(
  raw: Float64Array,
  k: number,
  yearIndex: Int32Array,
  nYears: number,
): { standardised: Float64Array; constant: { predictor: number; year: number }[]; mean: Float64Array; scale: Float64Array } {
  const n = yearIndex.length;
  const sum = new Float64Array(nYears * k);
  const count = new Float64Array(nYears);
  for (let i = 0; i < n; i++) {
    const t = yearIndex[i];
    count[t]++;
    for (let j = 0; j < k; j++) sum[t * k + j] += raw[i * k + j];
  }
  const mean = new Float64Array(nYears * k);
  for (let t = 0; t < nYears; t++) for (let j = 0; j < k; j++) mean[t * k + j] = count[t] > 0 ? sum[t * k + j] / count[t] : 0;
  const ss = new Float64Array(nYears * k);
  for (let i = 0; i < n; i++) {
    const t = yearIndex[i];
    for (let j = 0; j < k; j++) {
      const d = raw[i * k + j] - mean[t * k + j];
      ss[t * k + j] += d * d;
    }
  }
  const scale = new Float64Array(nYears * k);
  const constant: { predictor: number; year: number }[] = [];
  for (let t = 0; t < nYears; t++) {
    for (let j = 0; j < k; j++) {
      const sd = count[t] > 1 ? Math.sqrt(ss[t * k + j] / (count[t] - 1)) : 0;
      // Relative threshold: a spread at rounding level is no spread.
      const tiny = 1e-12 * Math.max(1, Math.abs(mean[t * k + j]));
      if (sd > tiny) scale[t * k + j] = 1 / sd;
      else if (count[t] > 0) constant.push({ predictor: j, year: t });
    }
  }
  const standardised = new Float64Array(n * k);
  for (let i = 0; i < n; i++) {
    const t = yearIndex[i];
    for (let j = 0; j < k; j++) standardised[i * k + j] = (raw[i * k + j] - mean[t * k + j]) * scale[t * k + j];
  }
  return { standardised, constant, mean, scale };
}

/** Names of the predictors: the explicit list, or the keys of the first row in their order. */
function predictorNames(rows: readonly PanelRow[], explicit: string[] | null): string[] {
  if (explicit) {
    if (new Set(explicit).size !== explicit.length) throw new RangeError('predictors must not repeat');
    return [...explicit];
  }
  if (rows.length === 0) return [];
  return Object.keys(rows[0].predictors);
}

/** Validate rows, drop incomplete ones (counted by reason), index countries and years, standardise. */
export function buildDesign(rows: readonly PanelRow[], explicitPredictors: string[] | null = null): PanelDesign {
  const predictors = predictorNames(rows, explicitPredictors);
  const k = predictors.length;
  const reasons: Record<string, number> = {};
  const bump = (reason: string) => {
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  };
  const kept: PanelRow[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (typeof row.country !== 'string' || row.country.trim() === '') {
      bump(EXCLUSION.country);
      continue;
    }
    if (!Number.isInteger(row.year)) {
      bump(EXCLUSION.year);
      continue;
    }
    if (!(Number.isFinite(row.publications) && row.publications > 0)) {
      bump(EXCLUSION.publications);
      continue;
    }
    if (!(Number.isInteger(row.retractions) && row.retractions >= 0)) {
      bump(EXCLUSION.retractions);
      continue;
    }
    let complete = true;
    for (const name of predictors) {
      const value = row.predictors[name];
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        complete = false;
        break;
      }
    }
    if (!complete) {
      bump(EXCLUSION.predictor);
      continue;
    }
    const key = `${row.country}\u0000${row.year}`;
    if (seen.has(key)) {
      bump(EXCLUSION.duplicate);
      continue;
    }
    seen.add(key);
    kept.push(row);
  }
  const countries = [...new Set(kept.map((r) => r.country))].sort();
  const years = [...new Set(kept.map((r) => r.year))].sort((a, b) => a - b);
  const countryIndex = new Map(countries.map((c, i) => [c, i]));
  const yearIndexOf = new Map(years.map((y, i) => [y, i]));
  const n = kept.length;
  const y = new Float64Array(n);
  const logExposure = new Float64Array(n);
  const raw = new Float64Array(n * k);
  const country = new Int32Array(n);
  const year = new Int32Array(n);
  kept.forEach((row, i) => {
    y[i] = row.retractions;
    logExposure[i] = Math.log(row.publications);
    country[i] = countryIndex.get(row.country)!;
    year[i] = yearIndexOf.get(row.year)!;
    for (let j = 0; j < k; j++) raw[i * k + j] = row.predictors[predictors[j]] as number;
  });
  const { standardised, constant, mean, scale } = standardiseWithinYear(raw, k, year, years.length);
  return {
    n,
    k,
    nCountries: countries.length,
    nYears: years.length,
    y,
    logExposure,
    x: standardised,
    country,
    year,
    predictors,
    countries,
    years,
    excludedRows: rows.length - n,
    exclusionReasons: reasons,
    constantWithinYear: constant.map((c) => ({ predictor: predictors[c.predictor], year: years[c.year] })),
    raw,
    yearMean: mean,
    yearScale: scale,
  };
}

export function summariseDesign(design: PanelDesign): DataSummary {
  return {
    observations: design.n,
    countries: design.nCountries,
    years: design.nYears > 0 ? { first: design.years[0], last: design.years[design.nYears - 1], count: design.nYears } : null,
    excludedRows: design.excludedRows,
    exclusionReasons: { ...design.exclusionReasons },
  };
}

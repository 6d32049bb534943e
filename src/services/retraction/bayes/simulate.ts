// A seeded country-year panel drawn from the model itself, for parameter-recovery tests and demos.
// Counts are generated on the same within-year standardised predictor scale the fit uses.
import { Random } from '../../../core/random.ts';
import { standardiseWithinYear } from './design.ts';
import type { PanelRow } from './types.ts';

interface SimulationTruth {
  alpha: number;
  beta: Record<string, number>;
  sigmaCountry: number;
  sigmaYear: number;
  /** NB2 dispersion; Infinity draws Poisson counts (the limit φ → ∞). */
  phi: number;
}

export interface PanelSimulationOptions {
  countries: number;
  firstYear: number;
  years: number;
  /** Predictor names; each needs a coefficient in truth.beta. */
  predictors: string[];
  truth: SimulationTruth;
  seed: number | string;
  /** Publications per country-year: lognormal around a country level, growing over time. */
  publications?: { logMedian: number; logSdBetweenCountries: number; growthPerYear: number; logSdWithinCountry: number };
  /**
   * Raw predictors: a country level (sharing one common factor with this loading, so predictors correlate
   * across countries) plus year-to-year noise of this sd.
   */
  predictorStructure?: { factorLoading: number; withinCountrySd: number };
}

export interface SimulatedPanel {
  rows: PanelRow[];
  truth: SimulationTruth;
  countryEffects: number[];
  yearEffects: number[];
}

const DEFAULT_PUBLICATIONS = { logMedian: Math.log(3000), logSdBetweenCountries: 2, growthPerYear: 0.05, logSdWithinCountry: 0.1 };
const DEFAULT_PREDICTOR_STRUCTURE = { factorLoading: 0.6, withinCountrySd: 0.3 };

export function simulatePanel(options: PanelSimulationOptions): SimulatedPanel {
  const { countries, years, predictors, truth } = options;
  for (const p of predictors) {
    if (!Number.isFinite(truth.beta[p])) throw new RangeError(`truth.beta has no coefficient for predictor ${p}`);
  }
  const pubs = options.publications ?? DEFAULT_PUBLICATIONS;
  const structure = options.predictorStructure ?? DEFAULT_PREDICTOR_STRUCTURE;
  const root = new Random(options.seed);
  const rngPredictors = root.fork('predictors');
  const rngEffects = root.fork('effects');
  const rngPublications = root.fork('publications');
  const rngCounts = root.fork('counts');

  const k = predictors.length;
  const n = countries * years;
  const loading = structure.factorLoading;
  const unique = Math.sqrt(Math.max(0, 1 - loading * loading));
  const countryLevel = new Float64Array(countries * k);
  for (let c = 0; c < countries; c++) {
    const factor = rngPredictors.normal();
    for (let j = 0; j < k; j++) countryLevel[c * k + j] = loading * factor + unique * rngPredictors.normal();
  }
  const raw = new Float64Array(n * k);
  const yearIndex = new Int32Array(n);
  for (let c = 0; c < countries; c++) {
    for (let t = 0; t < years; t++) {
      const i = c * years + t;
      yearIndex[i] = t;
      for (let j = 0; j < k; j++) raw[i * k + j] = countryLevel[c * k + j] + structure.withinCountrySd * rngPredictors.normal();
    }
  }
  const { standardised } = standardiseWithinYear(raw, k, yearIndex, years);

  const countryEffects = Array.from({ length: countries }, () => truth.sigmaCountry * rngEffects.normal());
  const yearEffects = Array.from({ length: years }, () => truth.sigmaYear * rngEffects.normal());
  const countryLogPubs = Array.from({ length: countries }, () => pubs.logMedian + pubs.logSdBetweenCountries * rngPublications.normal());

  const width = String(countries).length;
  const rows: PanelRow[] = [];
  for (let c = 0; c < countries; c++) {
    for (let t = 0; t < years; t++) {
      const i = c * years + t;
      const publications = Math.max(
        1,
        Math.round(Math.exp(countryLogPubs[c] + pubs.growthPerYear * t + pubs.logSdWithinCountry * rngPublications.normal())),
      );
      let eta = Math.log(publications) + truth.alpha + countryEffects[c] + yearEffects[t];
      for (let j = 0; j < k; j++) eta += standardised[i * k + j] * truth.beta[predictors[j]];
      const retractions = Number.isFinite(truth.phi) ? rngCounts.negBinomial(Math.exp(eta), truth.phi) : rngCounts.poisson(Math.exp(eta));
      const values: Record<string, number> = {};
      for (let j = 0; j < k; j++) values[predictors[j]] = raw[i * k + j];
      rows.push({
        country: `Country ${String(c + 1).padStart(width, '0')}`,
        year: options.firstYear + t,
        publications,
        retractions,
        predictors: values,
      });
    }
  }
  return { rows, truth, countryEffects, yearEffects };
}

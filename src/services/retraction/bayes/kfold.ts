// K-fold cross-validation by country (leave countries out): the countries are dealt into K folds at random
// (seeded); for each fold the model is refitted without its countries, and each left-out country's rows are
// predicted jointly, as a new country would be:
//   log p(y_c | y_−fold) ≈ log (1/S) Σ_s ∫ Π_i p(y_ci | η_ci,s + u, φ_s) N(u | 0, σ_country,s) du,
// with η_ci,s = log(publications) + α_s + x_ci·β_s + v_t,s. The one-dimensional integral over the new
// country's effect u is computed per draw by adaptive Gauss–Hermite quadrature: centred at the mode of the
// (log-concave) integrand, scaled by its curvature (Liu & Pierce 1994; Pinheiro & Bates 1995).
// Predictors of a left-out country are standardised with the training countries' year means and sds. A
// year no training country has gets a new year effect, drawn from N(0, σ_year,s) once per draw.
//
// Two figures come from the same refits. elpd_kfold_joint (elpdKfold) sums, over countries, the log density of
// the country's rows predicted jointly (one new country effect shared by its rows). elpd_kfold_pointwise
// is the figure brms::kfold (folds grouped by country) reports: the sum over held-out rows of
// log (1/S) Σ_s p(y_i | θ_s), each row on its own, where p(y_i | θ_s) = ∫ p(y_i | η_is + u) N(u | 0, σ_country,s) du
// integrates the new country's effect out by the same quadrature (brms draws one u per draw instead, whose
// average has this expectation). The joint figure is larger: a country's rows share its effect, so seeing
// them together predicts them better than one at a time.
//
// Unlike PSIS-LOO, this needs no importance sampling, so it stays reliable where Pareto k flags observations;
// it answers a different question (predicting a country not in the data), so its elpd is compared between
// models, not with elpd_loo.
import { Random } from '../../../core/random.ts';
import type { ChainProgress } from './chains.ts';
import { buildDesign, type PanelDesign } from './design.ts';
import { diagnoseQuantity } from './diagnostics.ts';
import { parameterLayout, type ParameterLayout } from './model.ts';
import { samplePosterior, type ConstrainedDraws } from './posterior.ts';
import { gaussHermite, logAddExp, logGamma } from './special.ts';
import type { CountFamily, DemocracyModelConfig, KFoldSummary, PanelRow } from './types.ts';

/** Quadrature nodes per draw; the integrand is smooth and unimodal, so 15 adaptive nodes are ample. */
export const KFOLD_QUADRATURE_NODES = 15;

/** One left-out country's rows, as the integral sees them: counts and, per draw, the linear predictor without u. */
interface HeldOutCountry {
  y: Float64Array;
  /** Row-major rows × draws: η without the country effect. */
  eta: Float64Array;
}

/**
 * log ∫ exp(f(u)) du for f(u) = Σ_i log p(y_i | e_i + u) + log N(u | 0, σ), by adaptive Gauss–Hermite
 * quadrature around the mode of f. `phi` null: Poisson. `constant` holds Σ of the terms free of u.
 */
export function integrateCountryEffect(
  y: Float64Array,
  etaWithoutU: Float64Array,
  offset: number,
  stride: number,
  sigma: number,
  phi: number | null,
  constant: number,
  rule: { nodes: Float64Array; weights: Float64Array },
): number {
  const rows = y.length;
  const logPhi = phi === null ? 0 : Math.log(phi);
  // f, f' and f'' at u; the u-free terms (log Γ, φ log φ, log y!) are in `constant`.
  const evaluate = (u: number, wantDerivatives: boolean): { f: number; d1: number; d2: number } => {
    let f = -0.5 * (u / sigma) ** 2 - Math.log(sigma) - 0.5 * Math.log(2 * Math.PI) + constant;
    let d1 = -u / (sigma * sigma);
    let d2 = -1 / (sigma * sigma);
    for (let i = 0; i < rows; i++) {
      const eta = etaWithoutU[offset + i * stride] + u;
      const yi = y[i];
      if (phi === null) {
        const mu = Math.exp(eta);
        f += yi * eta - mu;
        if (wantDerivatives) {
          d1 += yi - mu;
          d2 -= mu;
        }
      } else {
        const w = eta - logPhi;
        const logPhiPlusMu = w > 0 ? eta + Math.log1p(Math.exp(-w)) : logPhi + Math.log1p(Math.exp(w));
        f += yi * eta - (phi + yi) * logPhiPlusMu;
        if (wantDerivatives) {
          const s = w > 0 ? 1 / (1 + Math.exp(-w)) : Math.exp(w) / (1 + Math.exp(w));
          d1 += yi - (phi + yi) * s;
          d2 -= (phi + yi) * s * (1 - s);
        }
      }
    }
    return { f, d1, d2 };
  };
  // Newton's method for the mode (f is concave), with step halving if a step does not raise f.
  let u = 0;
  let at = evaluate(u, true);
  for (let it = 0; it < 100; it++) {
    let step = -at.d1 / at.d2;
    let next = evaluate(u + step, true);
    for (let half = 0; half < 30 && !(next.f >= at.f); half++) {
      step /= 2;
      next = evaluate(u + step, true);
    }
    u += step;
    at = next;
    if (Math.abs(step) < 1e-10 * Math.max(1, Math.abs(u))) break;
  }
  const scale = Math.SQRT2 / Math.sqrt(-at.d2);
  let log = -Infinity;
  for (let j = 0; j < rule.nodes.length; j++) {
    const x = rule.nodes[j];
    log = logAddExp(log, Math.log(rule.weights[j]) + x * x + evaluate(u + scale * x, false).f);
  }
  return Math.log(scale) + log;
}

/** Terms of the country's log-likelihood that do not involve u, for one draw. */
function constantTerms(y: Float64Array, phi: number | null): number {
  let c = 0;
  for (let i = 0; i < y.length; i++) {
    c -= logGamma(y[i] + 1);
    if (phi !== null) c += logGamma(y[i] + phi) - logGamma(phi) + phi * Math.log(phi);
  }
  return c;
}

/** log p(y_c | draws) for a held-out country: log of the mean over draws of the integral over u. */
function countryPredictiveDensity(
  country: HeldOutCountry,
  sigmaCountry: Float64Array,
  phi: Float64Array | null,
  rule: { nodes: Float64Array; weights: Float64Array },
): number {
  const S = sigmaCountry.length;
  let log = -Infinity;
  for (let s = 0; s < S; s++) {
    const ph = phi ? phi[s] : null;
    const value = integrateCountryEffect(country.y, country.eta, s, S, sigmaCountry[s], ph, constantTerms(country.y, ph), rule);
    log = logAddExp(log, value);
  }
  return log - Math.log(S);
}

/** log of the posterior mean of p(y_c | θ_s, u_c,s): the full-data fit's own (in-sample) density of a country. */
function inSampleCountryDensity(design: PanelDesign, draws: ConstrainedDraws, family: CountFamily, rows: number[]): number {
  const L = parameterLayout(design.k, design.nCountries, design.nYears, family);
  const S = draws.all[0].length;
  const { k, x, y, logExposure, country, year } = design;
  let log = -Infinity;
  for (let s = 0; s < S; s++) {
    const phi = L.logPhi >= 0 ? draws.all[L.logPhi][s] : null;
    let total = 0;
    for (const i of rows) {
      let eta = logExposure[i] + draws.all[L.alpha][s] + draws.all[L.countryBlock + country[i]][s] + draws.all[L.yearBlock + year[i]][s];
      for (let j = 0; j < k; j++) eta += x[i * k + j] * draws.all[L.beta + j][s];
      total += rowLogPmf(y[i], eta, phi);
    }
    log = logAddExp(log, total);
  }
  return log - Math.log(S);
}

function rowLogPmf(yi: number, eta: number, phi: number | null): number {
  if (phi === null) return yi * eta - Math.exp(eta) - logGamma(yi + 1);
  const logPhi = Math.log(phi);
  const logPhiPlusMu = eta > logPhi ? eta + Math.log1p(Math.exp(logPhi - eta)) : logPhi + Math.log1p(Math.exp(eta - logPhi));
  return logGamma(yi + phi) - logGamma(phi) - logGamma(yi + 1) + phi * logPhi + yi * eta - (phi + yi) * logPhiPlusMu;
}

/** Countries dealt into `folds` folds after a seeded shuffle (fold sizes differ by at most one). */
export function assignFolds(countries: readonly string[], folds: number, seed: number | string): string[][] {
  const order = new Random(seed).fork('kfold-by-country').shuffle([...countries].sort());
  const out: string[][] = Array.from({ length: folds }, () => []);
  order.forEach((c, i) => out[i % folds].push(c));
  return out.map((f) => f.sort());
}

/** What a fold's refit saw and produced, for callers that check the k-fold figures from the draws. */
export interface KFoldRefit {
  fold: number;
  train: PanelDesign;
  held: PanelDesign;
  layout: ParameterLayout;
  draws: ConstrainedDraws;
}

export interface KFoldOptions {
  /** The full-data fit's design and draws, for p_kfold (the in-sample density of the same countries). */
  full?: { design: PanelDesign; draws: ConstrainedDraws };
  onFold?: (fold: number, folds: number) => void;
  /** Progress of the refits' chains, numbered on after the full fit's: fold f's chain c is (f + 1) · chains + c. */
  onProgress?: (progress: ChainProgress) => void;
  /** Called with each fold's refit once its figures are computed. */
  onRefit?: (refit: KFoldRefit) => void;
}

/**
 * The log predictive densities of a fold's left-out countries from the refit's draws: each country's rows jointly
 * (one new country effect shared by its rows), and each row alone.
 */
function predictHeldOut(
  train: PanelDesign,
  held: PanelDesign,
  draws: ConstrainedDraws,
  L: ParameterLayout,
  seed: number | string,
  fold: number,
): Pick<KFoldSummary, 'perCountry' | 'perObservation'> {
  const rule = gaussHermite(KFOLD_QUADRATURE_NODES);
  const perCountry: KFoldSummary['perCountry'] = [];
  const perObservation: KFoldSummary['perObservation'] = [];
  const all = draws.all;
  const S = all[0].length;
  const phi = L.logPhi >= 0 ? all[L.logPhi] : null;
  const sigmaYear = all[L.logSigmaYear];
  // Year effects of the held-out rows: the training year's draws, or a new year's drawn from its prior.
  const yearRng = new Random(seed).fork('new-years');
  const yearDraws = held.years.map((calendarYear) => {
    const t = train.years.indexOf(calendarYear);
    if (t >= 0) return all[L.yearBlock + t];
    return Float64Array.from({ length: S }, (_, s) => yearRng.normal(0, sigmaYear[s]));
  });
  for (let c = 0; c < held.nCountries; c++) {
    const rows: number[] = [];
    for (let i = 0; i < held.n; i++) if (held.country[i] === c) rows.push(i);
    const eta = new Float64Array(rows.length * S);
    rows.forEach((i, r) => {
      const calendarYear = held.years[held.year[i]];
      const tTrain = train.years.indexOf(calendarYear);
      const xs = new Float64Array(held.k);
      for (let j = 0; j < held.k; j++) {
        // Standardised against the training countries of that year (0 where the year is new: no contrast known).
        xs[j] = tTrain >= 0 ? (held.raw[i * held.k + j] - train.yearMean[tTrain * train.k + j]) * train.yearScale[tTrain * train.k + j] : 0;
      }
      const v = yearDraws[held.year[i]];
      for (let s = 0; s < S; s++) {
        let value = held.logExposure[i] + all[L.alpha][s] + v[s];
        for (let j = 0; j < held.k; j++) value += xs[j] * all[L.beta + j][s];
        eta[r * S + s] = value;
      }
    });
    const y = Float64Array.from(rows, (i) => held.y[i]);
    const elpd = countryPredictiveDensity({ y, eta }, all[L.logSigmaCountry], phi, rule);
    perCountry.push({ country: held.countries[c], fold, observations: rows.length, elpd });
    // brms::kfold's pointwise terms: each row alone, its own integral over the new country effect.
    rows.forEach((i, r) => {
      const single = { y: y.subarray(r, r + 1), eta: eta.subarray(r * S, (r + 1) * S) };
      perObservation.push({
        country: held.countries[c],
        year: held.years[held.year[i]],
        fold,
        elpd: countryPredictiveDensity(single, all[L.logSigmaCountry], phi, rule),
      });
    });
  }
  return { perCountry, perObservation };
}

export async function kfoldByCountry(
  panel: readonly PanelRow[],
  config: DemocracyModelConfig,
  folds: number,
  options: KFoldOptions = {},
): Promise<KFoldSummary> {
  const wallStart = performance.now();
  const full = options.full?.design ?? buildDesign(panel, config.predictors);
  const predictors = full.predictors;
  if (!(Number.isInteger(folds) && folds >= 2)) throw new RangeError('k-fold needs an integer number of folds ≥ 2');
  if (full.nCountries < folds)
    throw new RangeError(`k-fold by country needs at least ${folds} countries; the panel has ${full.nCountries}`);
  const foldCountries = assignFolds(full.countries, folds, config.sampler.seed);
  const perCountry: KFoldSummary['perCountry'] = [];
  const perObservation: KFoldSummary['perObservation'] = [];
  let rhatMax = -Infinity;
  let essMin = Infinity;
  let divergences = 0;
  let cpuSeconds: number | null = 0;

  for (let f = 0; f < folds; f++) {
    options.onFold?.(f, folds);
    const out = new Set(foldCountries[f]);
    const train = buildDesign(
      panel.filter((r) => !out.has(r.country)),
      predictors,
    );
    const held = buildDesign(
      panel.filter((r) => out.has(r.country)),
      predictors,
    );
    // Each fold's chains get their own stream, derived from the configured seed.
    const foldConfig: DemocracyModelConfig = {
      ...config,
      sampler: { ...config.sampler, seed: `${String(config.sampler.seed)}/kfold-${f}` },
    };
    const chains = config.sampler.chains;
    const sample = await samplePosterior(
      train,
      foldConfig,
      options.onProgress && ((p) => options.onProgress?.({ ...p, chain: (f + 1) * chains + p.chain })),
    );
    for (const chain of sample.chains.chains) {
      for (let s = 0; s < chain.draws; s++) divergences += chain.divergent[s];
      const cpu =
        chain.warmupCpuSeconds !== null && chain.samplingCpuSeconds !== null ? chain.warmupCpuSeconds + chain.samplingCpuSeconds : null;
      cpuSeconds = cpuSeconds === null || cpu === null ? null : cpuSeconds + cpu;
    }
    const L = sample.target.layout;
    for (const q of [L.alpha, ...Array.from({ length: train.k }, (_, j) => L.beta + j), L.logSigmaCountry, L.logSigmaYear, L.logPhi]) {
      if (q < 0) continue;
      const d = diagnoseQuantity(sample.draws.byChain[q]);
      if (Number.isFinite(d.rhat)) rhatMax = Math.max(rhatMax, d.rhat);
      if (Number.isFinite(d.essBulk)) essMin = Math.min(essMin, d.essBulk);
    }

    const predicted = predictHeldOut(train, held, sample.draws, L, foldConfig.sampler.seed, f);
    perCountry.push(...predicted.perCountry);
    perObservation.push(...predicted.perObservation);
    options.onRefit?.({ fold: f, train, held, layout: L, draws: sample.draws });
  }

  perCountry.sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : 0));
  const { sum: elpd, se } = sumAndSe(perCountry.map((p) => p.elpd));
  perObservation.sort((a, b) => (a.country < b.country ? -1 : a.country > b.country ? 1 : a.year - b.year));
  const pointwise = sumAndSe(perObservation.map((p) => p.elpd));

  // p_kfold: the in-sample density of the same countries (from the full fit's draws) less the out-of-sample one.
  const pKfold = options.full ? inSampleDensity(options.full.design, options.full.draws, config.family) - elpd : null;

  return {
    folds,
    elpdKfold: elpd,
    elpdKfoldSe: se,
    kfoldic: -2 * elpd,
    pKfold,
    elpdKfoldPointwise: pointwise.sum,
    elpdKfoldPointwiseSe: pointwise.se,
    perObservation,
    countries: perCountry.length,
    observations: perCountry.reduce((a, p) => a + p.observations, 0),
    foldCountries,
    perCountry,
    refitRhatMax: Number.isFinite(rhatMax) ? rhatMax : null,
    refitEssBulkMin: Number.isFinite(essMin) ? essMin : null,
    refitDivergences: divergences,
    wallSeconds: (performance.now() - wallStart) / 1000,
    cpuSeconds,
    method:
      `${folds}-fold cross-validation by country: countries dealt into ${folds} folds after a seeded shuffle; each fold's countries left out, ` +
      `the model refitted with the same configuration (${config.sampler.chains} chains × ${config.sampler.draws} draws) and each left-out country's rows predicted jointly ` +
      `as a new country: the new country effect integrated out per draw by adaptive Gauss–Hermite quadrature (${KFOLD_QUADRATURE_NODES} nodes), ` +
      'predictors standardised with the training countries of the year. elpd_kfold sums log p(rows of a country | the other folds) over countries; ' +
      'it measures prediction for countries outside the data and is compared between models, not with elpd_loo (which predicts one country-year at a time). ' +
      "elpd_kfold_pointwise is brms::kfold's figure (folds grouped by country): the sum over held-out country-years of log mean_s p(y_i | θ_s), each row predicted alone " +
      "with the new country effect integrated out the same way (brms draws one per posterior draw instead); its SE is √n times the sd of the pointwise terms, as loo's. " +
      'The two differ in either direction (the joint one counts how well the rows of a country agree with each other, not only with the model): ' +
      'compare models on the same figure, never one figure with the other.',
  };
}

/** The full fit's log density of each country's rows jointly (its own effect drawn with the rest), summed over countries. */
function inSampleDensity(design: PanelDesign, draws: ConstrainedDraws, family: CountFamily): number {
  let lpd = 0;
  for (let c = 0; c < design.nCountries; c++) {
    const rows: number[] = [];
    for (let i = 0; i < design.n; i++) if (design.country[i] === c) rows.push(i);
    lpd += inSampleCountryDensity(design, draws, family, rows);
  }
  return lpd;
}

/** Sum and standard error √(n · var) of pointwise terms, as `loo` reports them. */
export function sumAndSe(values: readonly number[]): { sum: number; se: number } {
  const n = values.length;
  const sum = values.reduce((a, b) => a + b, 0);
  const mean = sum / Math.max(1, n);
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / Math.max(1, n - 1);
  return { sum, se: Math.sqrt(n * variance) };
}

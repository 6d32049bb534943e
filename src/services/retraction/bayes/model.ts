// The hierarchical negative-binomial model of retractions per country-year:
//   y_ct ~ NegBinomial2(μ_ct, φ),  log μ_ct = log(pub_ct) + α + x_ct·β + u_c + v_t,  u ~ N(0, σ_c), v ~ N(0, σ_t).
// The sampler moves on θ = [α', β'_1..β'_K, log σ_c, log σ_t, log φ, w_country…, w_year…]; the posterior
// is the model's whichever coordinates are chosen, because every change of coordinates below is linear
// with unit Jacobian, and the log transforms of σ_c, σ_t, φ add their Jacobians.
//
// Year effects are sampled in an orthonormal basis, v = s_t B w with B = [1/√T, Helmert contrasts]: the
// likelihood sees only the contrasts (the common level goes with the intercept), so the mean year effect,
// which only the prior constrains, is one coordinate instead of a direction shared by all years. Non-centred:
// s_t = σ_t, w ~ N(0, 1); centred: s_t = 1, w ~ N(0, σ_t) (B is orthogonal, so w has the prior of v).
// Country effects, non-centred: u = σ_c w, w ~ N(0, 1). With shifted coefficients the sampler moves
//   (α', β') = (α, β) + P u + (mean v, 0, …, 0),   P = (X̄ᵀX̄)⁻¹X̄ᵀ, X̄ = [1, country means x̄_c of x],
// what the data pin down, instead of (α, β), which slide against all effects at once.
// Country effects, centred: w_c = a_c = α + x̄_c·β + u_c + mean v, the country's own log-rate intercept, with
// prior a_c ~ N(α + x̄_c·β + mean v, σ_c); then log μ_ct = log(pub_ct) + a_c + (x_ct − x̄_c)·β + v_t − mean v.
// Each a_c is pinned by its country's data and α, β by the spread of the a_c, so strong country data mixes
// best in this form, weak data in the non-centred one. With shifted coefficients α' = α + mean v here.
//
// The Poisson family (y_ct ~ Poisson(μ_ct), no φ) shares everything else; its layout has no log φ coordinate.
import type { Random } from '../../../core/random.ts';
import { digamma, logGamma } from './special.ts';
import type { Target } from './target.ts';
import type { CountFamily, ModelPriors, ParameterisationSettings } from './types.ts';

/** The numeric part of a PanelDesign: what a worker needs, all typed arrays (transferable). */
export interface NegBinPanelData {
  n: number;
  k: number;
  nCountries: number;
  nYears: number;
  /** Retractions per row. */
  y: Float64Array;
  /** log(publications): the exposure offset. */
  logExposure: Float64Array;
  /** Standardised predictors, row-major n × k. */
  x: Float64Array;
  country: Int32Array;
  year: Int32Array;
}

export interface ParameterLayout {
  dim: number;
  alpha: number;
  beta: number;
  logSigmaCountry: number;
  logSigmaYear: number;
  /** −1 for the Poisson, which has no φ. */
  logPhi: number;
  countryBlock: number;
  yearBlock: number;
}

export function parameterLayout(k: number, nCountries: number, nYears: number, family: CountFamily = 'negbinomial2'): ParameterLayout {
  const scalars = family === 'negbinomial2' ? 4 : 3;
  return {
    dim: k + scalars + nCountries + nYears,
    alpha: 0,
    beta: 1,
    logSigmaCountry: k + 1,
    logSigmaYear: k + 2,
    logPhi: family === 'negbinomial2' ? k + 3 : -1,
    countryBlock: k + scalars,
    yearBlock: k + scalars + nCountries,
  };
}

/** Names of the constrained quantities, in the order `constrain` writes them. */
export function constrainedNames(
  predictors: string[],
  countries: string[],
  years: number[],
  family: CountFamily = 'negbinomial2',
): string[] {
  return [
    'alpha',
    ...predictors.map((p) => `beta[${p}]`),
    'sigma_country',
    'sigma_year',
    ...(family === 'negbinomial2' ? ['phi'] : []),
    ...countries.map((c) => `u[${c}]`),
    ...years.map((y) => `v[${y}]`),
  ];
}

/** log p(y | μ, φ) of NegBinomial2 with log μ = eta, in the stable form used throughout. */
export function negBinomial2LogPmf(y: number, eta: number, phi: number): number {
  const logPhi = Math.log(phi);
  const logPhiPlusMu = eta > logPhi ? eta + Math.log1p(Math.exp(logPhi - eta)) : logPhi + Math.log1p(Math.exp(eta - logPhi));
  return logGamma(y + phi) - logGamma(phi) - logGamma(y + 1) + phi * logPhi + y * eta - (phi + y) * logPhiPlusMu;
}

/** log p(y | μ) of the Poisson with log μ = eta. */
export function poissonLogPmf(y: number, eta: number): number {
  return y * eta - Math.exp(eta) - logGamma(y + 1);
}

/** Country means of the (standardised) predictors, row-major nCountries × k. */
function countryMeans(data: NegBinPanelData): Float64Array {
  const { n, k, nCountries, x, country } = data;
  const means = new Float64Array(nCountries * k);
  const count = new Float64Array(nCountries);
  for (let i = 0; i < n; i++) {
    const c = country[i];
    count[c]++;
    for (let j = 0; j < k; j++) means[c * k + j] += x[i * k + j];
  }
  for (let c = 0; c < nCountries; c++) for (let j = 0; j < k; j++) if (count[c] > 0) means[c * k + j] /= count[c];
  return means;
}

/**
 * P = (AᵀA)⁻¹Aᵀ for A = [1, country means of x] (row-major (k+1) × nCountries), by Cholesky with a small
 * ridge if AᵀA is near singular. Returns null when it stays singular (then no shift is applied).
 */
export function countryProjection(data: NegBinPanelData): Float64Array | null {
  const { k, nCountries } = data;
  const m = k + 1;
  const means = countryMeans(data);
  const A = new Float64Array(nCountries * m);
  for (let c = 0; c < nCountries; c++) {
    A[c * m] = 1;
    for (let j = 0; j < k; j++) A[c * m + 1 + j] = means[c * k + j];
  }
  const G = new Float64Array(m * m);
  for (let c = 0; c < nCountries; c++) {
    for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) G[a * m + b] += A[c * m + a] * A[c * m + b];
  }
  let trace = 0;
  for (let a = 0; a < m; a++) trace += G[a * m + a];
  for (const ridge of [0, 1e-10, 1e-8, 1e-6]) {
    const L = new Float64Array(m * m);
    let ok = true;
    for (let a = 0; a < m && ok; a++) {
      for (let b = 0; b <= a; b++) {
        let sum = G[a * m + b] + (a === b ? ridge * trace : 0);
        for (let t = 0; t < b; t++) sum -= L[a * m + t] * L[b * m + t];
        if (a === b) {
          if (!(sum > 1e-12 * Math.max(trace, 1e-300))) {
            ok = false;
            break;
          }
          L[a * m + a] = Math.sqrt(sum);
        } else {
          L[a * m + b] = sum / L[b * m + b];
        }
      }
    }
    if (!ok) continue;
    // Solve G P = Aᵀ column by column (each column is one country).
    const P = new Float64Array(m * nCountries);
    const w = new Float64Array(m);
    for (let c = 0; c < nCountries; c++) {
      for (let a = 0; a < m; a++) {
        let sum = A[c * m + a];
        for (let t = 0; t < a; t++) sum -= L[a * m + t] * w[t];
        w[a] = sum / L[a * m + a];
      }
      for (let a = m - 1; a >= 0; a--) {
        let sum = w[a];
        for (let t = a + 1; t < m; t++) sum -= L[t * m + a] * w[t];
        w[a] = sum / L[a * m + a];
      }
      for (let a = 0; a < m; a++) P[a * nCountries + c] = w[a];
    }
    return P;
  }
  return null;
}

/** How the sampler's coordinates relate to the model's parameters; the posterior is the same in all. */
export type Parameterisation = ParameterisationSettings;

export const DEFAULT_PARAMETERISATION: Parameterisation = { countryEffects: 'centred', yearEffects: 'centred', shiftedCoefficients: true };

/** Orthonormal T × T basis (row-major): column 0 is 1/√T, column j ≥ 1 the j-th Helmert contrast. */
export function yearBasis(nYears: number): Float64Array {
  const B = new Float64Array(nYears * nYears);
  for (let t = 0; t < nYears; t++) B[t * nYears] = 1 / Math.sqrt(nYears);
  for (let j = 1; j < nYears; j++) {
    const norm = Math.sqrt(j * (j + 1));
    for (let t = 0; t < j; t++) B[t * nYears + j] = 1 / norm;
    B[j * nYears + j] = -j / norm;
  }
  return B;
}

export function describeParameterisation(p: Parameterisation, family: CountFamily = 'negbinomial2'): string {
  const parts: string[] = [];
  if (p.countryEffects === 'centred') {
    parts.push(
      'country effects centred: each country intercept a[c] = alpha + xbar[c]·beta + u[c] + mean(v) is sampled directly with prior ' +
        'Normal(alpha + xbar[c]·beta + mean(v), sigma_country), where xbar[c] are the country means of the standardised predictors',
    );
    if (p.shiftedCoefficients) parts.push('the intercept is sampled as alpha + mean(v)');
  } else {
    parts.push('country effects non-centred (u = sigma_country * z, z ~ Normal(0, 1) sampled)');
    if (p.shiftedCoefficients) {
      parts.push(
        'intercept and coefficients sampled shifted by the projection of the country effects onto the country means of the predictors ' +
          '(the intercept also by the mean year effect)',
      );
    }
  }
  parts.push(
    (p.yearEffects === 'centred'
      ? 'year effects centred (their Normal(0, sigma_year) prior on the sampled coordinates)'
      : 'year effects non-centred (v = sigma_year * B z, z ~ Normal(0, 1))') +
      ', sampled in an orthonormal basis B of the years: their scaled mean and Helmert contrasts',
  );
  parts.push(
    family === 'poisson'
      ? 'sigma_country and sigma_year sampled on the log scale'
      : 'sigma_country, sigma_year and phi sampled on the log scale',
  );
  return `${parts.join('; ')}. Every change of coordinates is linear with unit Jacobian (the log scales add their Jacobians), so the posterior is the model's.`;
}

/** The panel model's log density in the sampler's coordinates; NB2 by default, or the Poisson. */
export class NegBinPanelTarget implements Target {
  readonly dim: number;
  readonly layout: ParameterLayout;
  readonly parameterisation: Parameterisation;
  readonly family: CountFamily;
  private readonly data: NegBinPanelData;
  private readonly priors: ModelPriors;
  private readonly centredCountries: boolean;
  private readonly centredYears: boolean;
  /** Non-centred countries only: (k+1) × nCountries projection, or null for unshifted coordinates. */
  private readonly projection: Float64Array | null;
  /** Country means of x, nCountries × k (centred countries only). */
  private readonly means: Float64Array;
  /** Orthonormal year basis, T × T. */
  private readonly basis: Float64Array;
  // Observations grouped by distinct count: log Γ(y+φ) - log Γ(φ) and its φ-derivative are computed once
  // per distinct y per evaluation instead of once per row.
  private readonly distinctY: Float64Array;
  private readonly distinctIndex: Int32Array;
  private readonly lgammaDiff: Float64Array;
  private readonly digammaDiff: Float64Array;
  // Scratch reused across calls.
  /** Model (α, β). */
  private readonly theta: Float64Array;
  /** Gradient of the log density with respect to the model's (α, β) at fixed effects. */
  private readonly gradTheta: Float64Array;
  /** Non-centred: P u. */
  private readonly projected: Float64Array;
  /** Model effects u_c, v_t. */
  private readonly countryEffect: Float64Array;
  private readonly yearEffect: Float64Array;
  /** Per-country and per-year additive terms of η in the likelihood loop. */
  private readonly countryTerm: Float64Array;
  private readonly yearTerm: Float64Array;
  /** Σ ∂ℓ/∂η over each country's and each year's rows. */
  private readonly gradCountry: Float64Array;
  private readonly gradYear: Float64Array;
  private readonly pooledLogRate: number;
  /** ∂/∂ log φ of the NB2 likelihood at the last evaluation. */
  private gradLogPhi = 0;

  constructor(
    data: NegBinPanelData,
    priors: ModelPriors,
    parameterisation: Partial<Parameterisation> = {},
    family: CountFamily = 'negbinomial2',
  ) {
    this.data = data;
    this.priors = priors;
    this.family = family;
    this.parameterisation = { ...DEFAULT_PARAMETERISATION, ...parameterisation };
    this.centredCountries = this.parameterisation.countryEffects === 'centred';
    this.centredYears = this.parameterisation.yearEffects === 'centred';
    this.layout = parameterLayout(data.k, data.nCountries, data.nYears, family);
    this.dim = this.layout.dim;
    this.projection = !this.centredCountries && this.parameterisation.shiftedCoefficients ? countryProjection(data) : null;
    this.means = countryMeans(data);
    this.basis = yearBasis(data.nYears);
    const values = [...new Set(data.y)].sort((a, b) => a - b);
    this.distinctY = Float64Array.from(values);
    const where = new Map(values.map((v, i) => [v, i]));
    this.distinctIndex = Int32Array.from(data.y, (v) => where.get(v)!);
    this.lgammaDiff = new Float64Array(values.length);
    this.digammaDiff = new Float64Array(values.length);
    this.theta = new Float64Array(data.k + 1);
    this.gradTheta = new Float64Array(data.k + 1);
    this.projected = new Float64Array(data.k + 1);
    this.countryEffect = new Float64Array(data.nCountries);
    this.yearEffect = new Float64Array(data.nYears);
    this.countryTerm = new Float64Array(data.nCountries);
    this.yearTerm = new Float64Array(data.nYears);
    this.gradCountry = new Float64Array(data.nCountries);
    this.gradYear = new Float64Array(data.nYears);
    let ySum = 0;
    let exposureSum = 0;
    for (let i = 0; i < data.n; i++) {
      ySum += data.y[i];
      exposureSum += Math.exp(data.logExposure[i]);
    }
    this.pooledLogRate = data.n > 0 ? Math.log((ySum + 0.5) / exposureSum) : 0;
  }

  /**
   * Uniform in (-r, r) around 0, except the intercept (and centred country intercepts), which are centred
   * on the pooled log rate per publication.
   */
  initialise(rng: Random, radius: number, out: Float64Array): void {
    for (let i = 0; i < this.dim; i++) out[i] = rng.uniform(-radius, radius);
    out[this.layout.alpha] += this.pooledLogRate;
    if (this.centredCountries) for (let c = 0; c < this.data.nCountries; c++) out[this.layout.countryBlock + c] += this.pooledLogRate;
  }

  /**
   * From the sampled coordinates: model effects (countryEffect, yearEffect), model (α, β) (theta), and the
   * per-country and per-year terms of η (countryTerm, yearTerm, each with the intercept where it belongs).
   */
  private unpack(q: Float64Array, sigmaC: number, sigmaT: number): void {
    const { k, nCountries, nYears } = this.data;
    const L = this.layout;
    const theta = this.theta;
    const u = this.countryEffect;
    const v = this.yearEffect;
    const st = this.centredYears ? 1 : sigmaT;
    const B = this.basis;
    let vMean = 0;
    for (let t = 0; t < nYears; t++) {
      let s = 0;
      const row = t * nYears;
      for (let j = 0; j < nYears; j++) s += B[row + j] * q[L.yearBlock + j];
      v[t] = st * s;
      vMean += v[t];
    }
    vMean = nYears > 0 ? vMean / nYears : 0;
    if (this.centredCountries) {
      for (let a = 0; a <= k; a++) theta[a] = q[a];
      if (this.parameterisation.shiftedCoefficients) theta[0] -= vMean;
      const means = this.means;
      for (let c = 0; c < nCountries; c++) {
        const intercept = q[L.countryBlock + c];
        let between = 0;
        for (let j = 0; j < k; j++) between += means[c * k + j] * theta[1 + j];
        // η = off + a_c + (x − x̄_c)·β + v_t − v̄: the loop adds x·β, so the country term carries a_c − x̄_c·β.
        this.countryTerm[c] = intercept - between;
        u[c] = intercept - theta[0] - between - vMean;
      }
      for (let t = 0; t < nYears; t++) this.yearTerm[t] = v[t] - vMean;
      return;
    }
    for (let c = 0; c < nCountries; c++) u[c] = sigmaC * q[L.countryBlock + c];
    const P = this.projection;
    for (let a = 0; a <= k; a++) {
      let s = 0;
      if (P) {
        const row = a * nCountries;
        for (let c = 0; c < nCountries; c++) s += P[row + c] * u[c];
      }
      this.projected[a] = s;
      theta[a] = q[a] - s;
    }
    if (P) theta[0] -= vMean;
    for (let c = 0; c < nCountries; c++) this.countryTerm[c] = theta[0] + u[c];
    for (let t = 0; t < nYears; t++) this.yearTerm[t] = v[t];
  }

  /** θ → (α, β, σ_c, σ_t, φ, u, v), in constrainedNames order. */
  constrain(q: Float64Array, out: Float64Array): void {
    const L = this.layout;
    const { k, nCountries, nYears } = this.data;
    const sigmaC = Math.exp(q[L.logSigmaCountry]);
    const sigmaT = Math.exp(q[L.logSigmaYear]);
    this.unpack(q, sigmaC, sigmaT);
    for (let a = 0; a <= k; a++) out[a] = this.theta[a];
    out[L.logSigmaCountry] = sigmaC;
    out[L.logSigmaYear] = sigmaT;
    if (L.logPhi >= 0) out[L.logPhi] = Math.exp(q[L.logPhi]);
    for (let c = 0; c < nCountries; c++) out[L.countryBlock + c] = this.countryEffect[c];
    for (let t = 0; t < nYears; t++) out[L.yearBlock + t] = this.yearEffect[t];
  }

  /**
   * NB2 log-likelihood (without the constant −Σ log y!) at the unpacked parameters and log φ = rho; fills the
   * likelihood parts of gradTheta, gradCountry, gradYear and gradLogPhi.
   */
  private negBinomialLikelihood(rho: number): number {
    const { n, k, y, logExposure, x, country, year } = this.data;
    const theta = this.theta;
    const gTheta = this.gradTheta;
    const gC = this.gradCountry;
    const gT = this.gradYear;
    const countryTerm = this.countryTerm;
    const yearTerm = this.yearTerm;
    const phi = Math.exp(rho);
    const distinctY = this.distinctY;
    const lgd = this.lgammaDiff;
    const dgd = this.digammaDiff;
    const lgPhi = logGamma(phi);
    const dgPhi = digamma(phi);
    for (let u = 0; u < distinctY.length; u++) {
      const yu = distinctY[u];
      if (yu === 0) {
        lgd[u] = 0;
        dgd[u] = 0;
        continue;
      }
      lgd[u] = logGamma(yu + phi) - lgPhi;
      dgd[u] = digamma(yu + phi) - dgPhi;
    }

    // One pass over the rows. gTheta[1..k] collects Σ g x, the country and year sums collect Σ g.
    gTheta.fill(0);
    gC.fill(0);
    gT.fill(0);
    let lp = n * phi * rho;
    let gRho = 0;
    const di = this.distinctIndex;
    for (let i = 0; i < n; i++) {
      const c = country[i];
      const t = year[i];
      let eta = logExposure[i] + countryTerm[c] + yearTerm[t];
      const row = i * k;
      for (let j = 0; j < k; j++) eta += x[row + j] * theta[1 + j];
      const w = eta - rho;
      let s: number;
      let logPhiPlusMu: number;
      if (w > 0) {
        const e = Math.exp(-w);
        s = 1 / (1 + e);
        logPhiPlusMu = eta + Math.log1p(e);
      } else {
        const e = Math.exp(w);
        s = e / (1 + e);
        logPhiPlusMu = rho + Math.log1p(e);
      }
      const yi = y[i];
      const u = di[i];
      lp += lgd[u] + yi * eta - (phi + yi) * logPhiPlusMu;
      // ∂/∂η = y - (φ + y) μ/(φ + μ), with s = μ/(φ + μ).
      const g = yi - (phi + yi) * s;
      for (let j = 0; j < k; j++) gTheta[1 + j] += g * x[row + j];
      gC[c] += g;
      gT[t] += g;
      // ∂/∂ log φ = φ[ψ(y+φ) - ψ(φ) + log φ - log(φ+μ) + 1 - (φ+y)/(φ+μ)], rearranged with s.
      gRho += phi * (dgd[u] + rho - logPhiPlusMu) + phi * s - yi * (1 - s);
    }
    this.gradLogPhi = gRho;
    return lp;
  }

  /** Poisson log-likelihood (without −Σ log y!) at the unpacked parameters; fills the same gradient parts. */
  private poissonLikelihood(): number {
    const { n, k, y, logExposure, x, country, year } = this.data;
    const theta = this.theta;
    const gTheta = this.gradTheta;
    const gC = this.gradCountry;
    const gT = this.gradYear;
    const countryTerm = this.countryTerm;
    const yearTerm = this.yearTerm;
    gTheta.fill(0);
    gC.fill(0);
    gT.fill(0);
    let lp = 0;
    for (let i = 0; i < n; i++) {
      const c = country[i];
      const t = year[i];
      let eta = logExposure[i] + countryTerm[c] + yearTerm[t];
      const row = i * k;
      for (let j = 0; j < k; j++) eta += x[row + j] * theta[1 + j];
      const mu = Math.exp(eta);
      lp += y[i] * eta - mu;
      const g = y[i] - mu;
      for (let j = 0; j < k; j++) gTheta[1 + j] += g * x[row + j];
      gC[c] += g;
      gT[t] += g;
    }
    return lp;
  }

  logDensityGradient(q: Float64Array, grad: Float64Array): number {
    const { k, nCountries, nYears } = this.data;
    const L = this.layout;
    const pr = this.priors;
    const logSigmaC = q[L.logSigmaCountry];
    const logSigmaT = q[L.logSigmaYear];
    const sigmaC = Math.exp(logSigmaC);
    const sigmaT = Math.exp(logSigmaT);
    this.unpack(q, sigmaC, sigmaT);
    const theta = this.theta;
    const gTheta = this.gradTheta;
    const gC = this.gradCountry;
    const gT = this.gradYear;
    let lp = this.family === 'poisson' ? this.poissonLikelihood() : this.negBinomialLikelihood(q[L.logPhi]);

    // Priors on the model's (α, β).
    const alpha = theta[0];
    const dA = alpha - pr.intercept.mean;
    const varA = pr.intercept.sd * pr.intercept.sd;
    lp -= (0.5 * dA * dA) / varA;
    const gAlphaPrior = -dA / varA;
    gTheta[0] = gAlphaPrior;
    const varB = pr.coefficients.sd * pr.coefficients.sd;
    for (let j = 1; j <= k; j++) {
      const d = theta[j] - pr.coefficients.mean;
      lp -= (0.5 * d * d) / varB;
      gTheta[j] -= d / varB;
    }

    let gLogSc = 0;
    let gLogSt = 0;
    let gYearMean = 0; // ∂ log p / ∂ v̄ through terms that use the mean year effect
    if (this.centredCountries) {
      // Likelihood: η = off + a_c − x̄_c·β + x·β + v_t − v̄. Prior: r_c = a_c − α − x̄_c·β − v̄ ~ N(0, σ_c).
      const inv = 1 / (sigmaC * sigmaC);
      const means = this.means;
      let sumSq = 0;
      let sumR = 0;
      let totalG = 0;
      for (let c = 0; c < nCountries; c++) {
        const r = this.countryEffect[c];
        sumSq += r * r;
        sumR += r;
        totalG += gC[c];
        grad[L.countryBlock + c] = gC[c] - r * inv;
        // β enters through −x̄_c·β in the likelihood term and in r_c.
        for (let j = 0; j < k; j++) gTheta[1 + j] += means[c * k + j] * (r * inv - gC[c]);
      }
      gTheta[0] += sumR * inv;
      lp += -0.5 * sumSq * inv - nCountries * logSigmaC;
      gLogSc += sumSq * inv - nCountries;
      // v̄ reaches the likelihood through −v̄; and either r_c (unshifted) or α = α' − v̄ (shifted).
      gYearMean += (this.parameterisation.shiftedCoefficients ? -gAlphaPrior : sumR * inv) - totalG;
      for (let a = 0; a <= k; a++) grad[a] = gTheta[a];
    } else {
      // Total derivative of each u_c: direct, plus through (α, β) = … − P u.
      const P = this.projection;
      let gAlphaLik = 0;
      for (let c = 0; c < nCountries; c++) gAlphaLik += gC[c];
      gTheta[0] += gAlphaLik;
      for (let c = 0; c < nCountries; c++) {
        let dU = gC[c];
        if (P) for (let a = 0; a <= k; a++) dU -= P[a * nCountries + c] * gTheta[a];
        const w = q[L.countryBlock + c];
        grad[L.countryBlock + c] = sigmaC * dU - w;
        gLogSc += dU * this.countryEffect[c];
        lp -= 0.5 * w * w;
      }
      if (P) gYearMean -= gTheta[0];
      for (let a = 0; a <= k; a++) grad[a] = gTheta[a];
    }

    // Year effects: total derivative dV_t (direct sums plus the share of ∂/∂v̄), then back through v = s_t B w.
    const viaMean = nYears > 0 ? gYearMean / nYears : 0;
    const dV = this.gradYear;
    for (let t = 0; t < nYears; t++) {
      dV[t] = gT[t] + viaMean;
      if (!this.centredYears) gLogSt += dV[t] * this.yearEffect[t];
    }
    const B = this.basis;
    const st = this.centredYears ? 1 : sigmaT;
    let sumSqT = 0;
    for (let j = 0; j < nYears; j++) {
      let s = 0;
      for (let t = 0; t < nYears; t++) s += B[t * nYears + j] * dV[t];
      const w = q[L.yearBlock + j];
      if (this.centredYears) {
        grad[L.yearBlock + j] = s - w / (sigmaT * sigmaT);
        sumSqT += w * w;
      } else {
        grad[L.yearBlock + j] = st * s - w;
        lp -= 0.5 * w * w;
      }
    }
    if (this.centredYears) {
      const inv = 1 / (sigmaT * sigmaT);
      lp += -0.5 * sumSqT * inv - nYears * logSigmaT;
      gLogSt += sumSqT * inv - nYears;
    }

    // Priors on the scales; the log transforms of σ_c, σ_t and φ add log σ_c + log σ_t + log φ.
    lp += -pr.sigmaCountry.rate * sigmaC + logSigmaC;
    gLogSc += -pr.sigmaCountry.rate * sigmaC + 1;
    lp += -pr.sigmaYear.rate * sigmaT + logSigmaT;
    gLogSt += -pr.sigmaYear.rate * sigmaT + 1;
    if (L.logPhi >= 0) {
      // Gamma(shape a, rate b) on φ: (a - 1) log φ - b φ, plus the Jacobian log φ.
      const rho = q[L.logPhi];
      const phi = Math.exp(rho);
      lp += pr.dispersion.shape * rho - pr.dispersion.rate * phi;
      grad[L.logPhi] = this.gradLogPhi + pr.dispersion.shape - pr.dispersion.rate * phi;
    }

    grad[L.logSigmaCountry] = gLogSc;
    grad[L.logSigmaYear] = gLogSt;
    return lp;
  }
}

/**
 * Per-observation log-likelihoods over posterior draws, for PSIS-LOO, WAIC and the predictive checks.
 * `columns` holds the constrained draws (constrainedNames order), one array of all draws per quantity.
 */
export class PointwiseLogLik {
  readonly family: CountFamily;
  private readonly data: NegBinPanelData;
  private readonly columns: Float64Array[];
  private readonly layout: ParameterLayout;
  /** NB2 only (null for the Poisson): φ per draw and what the pmf needs of it. */
  readonly phi: Float64Array | null;
  private readonly logPhi: Float64Array | null;
  private readonly logGammaPhi: Float64Array | null;
  private readonly phiLogPhi: Float64Array | null;
  readonly draws: number;

  constructor(data: NegBinPanelData, columns: Float64Array[], family: CountFamily = 'negbinomial2') {
    this.data = data;
    this.columns = columns;
    this.family = family;
    this.layout = parameterLayout(data.k, data.nCountries, data.nYears, family);
    this.draws = columns[this.layout.alpha].length;
    if (this.layout.logPhi >= 0) {
      const phi = columns[this.layout.logPhi];
      this.phi = phi;
      this.logPhi = phi.map(Math.log);
      this.logGammaPhi = phi.map(logGamma);
      this.phiLogPhi = phi.map((p) => p * Math.log(p));
    } else {
      this.phi = this.logPhi = this.logGammaPhi = this.phiLogPhi = null;
    }
  }

  /** Writes log μ_is = η_is for every draw s into out. */
  linearPredictor(i: number, out: Float64Array): void {
    const { k, logExposure, x, country, year } = this.data;
    const L = this.layout;
    const S = this.draws;
    const alpha = this.columns[L.alpha];
    const u = this.columns[L.countryBlock + country[i]];
    const v = this.columns[L.yearBlock + year[i]];
    for (let s = 0; s < S; s++) out[s] = logExposure[i] + alpha[s] + u[s] + v[s];
    for (let j = 0; j < k; j++) {
      const xij = x[i * k + j];
      if (xij === 0) continue;
      const beta = this.columns[L.beta + j];
      for (let s = 0; s < S; s++) out[s] += xij * beta[s];
    }
  }

  /** Writes log p(y_i | θ_s) for every draw s into out. */
  compute(i: number, out: Float64Array): void {
    const S = this.draws;
    const yi = this.data.y[i];
    const lfy = logGamma(yi + 1);
    this.linearPredictor(i, out);
    const phi = this.phi;
    const logPhi = this.logPhi;
    const lgPhi = this.logGammaPhi;
    const phiLogPhi = this.phiLogPhi;
    if (!phi || !logPhi || !lgPhi || !phiLogPhi) {
      for (let s = 0; s < S; s++) out[s] = yi * out[s] - Math.exp(out[s]) - lfy;
      return;
    }
    for (let s = 0; s < S; s++) {
      const eta = out[s];
      const rho = logPhi[s];
      const logPhiPlusMu = eta > rho ? eta + Math.log1p(Math.exp(rho - eta)) : rho + Math.log1p(Math.exp(eta - rho));
      const ph = phi[s];
      const lgammaRatio = yi === 0 ? 0 : logGamma(yi + ph) - lgPhi[s];
      out[s] = lgammaRatio + phiLogPhi[s] - lfy + yi * eta - (ph + yi) * logPhiPlusMu;
    }
  }
}

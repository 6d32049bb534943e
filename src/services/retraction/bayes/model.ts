// The hierarchical negative-binomial model of retractions per country-year:
//   y_ct ~ NegBinomial2(μ_ct, φ),  log μ_ct = log(pub_ct) + α + x_ct·β + u_c + v_t,  u ~ N(0, σ_c), v ~ N(0, σ_t).
// The sampler moves on θ = [α̃, β̃_1..β̃_K, log σ_c, log σ_t, log φ, w_country…, w_year…]. Each set of effects
// is either non-centred (u = σ_c w, w ~ N(0, 1)) or centred (u = w, w ~ N(0, σ_c)), as configured. With
// shifted coefficients,
//   (α, β) = (α̃, β̃) − P u − (mean v, 0, …, 0),   P = (X̄ᵀX̄)⁻¹X̄ᵀ, X̄ = [1, country means of x].
// The likelihood sees (α, β) only together with the projection of the country effects onto X̄ (and with
// the mean year effect), so in the original coordinates α and β slide against all effects at once; (α̃, β̃)
// are what the data pin down. The map is triangular with unit diagonal (Jacobian 1), the priors are
// evaluated on (α, β), and the posterior is the model's, unchanged. The log transforms of σ_c, σ_t and φ
// add their Jacobians.
import type { Random } from '../../../core/random.ts';
import { digamma, logGamma } from './special.ts';
import type { Target } from './target.ts';
import type { ModelPriors, ParameterisationSettings } from './types.ts';

/** The numeric part of a PanelDesign: what a worker needs, all typed arrays (transferable). */
export interface NegBinPanelData {
  n: number;
  k: number;
  nCountries: number;
  nYears: number;
  y: Float64Array;
  logExposure: Float64Array;
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
  logPhi: number;
  zCountry: number;
  zYear: number;
}

export function parameterLayout(k: number, nCountries: number, nYears: number): ParameterLayout {
  return {
    dim: k + 4 + nCountries + nYears,
    alpha: 0,
    beta: 1,
    logSigmaCountry: k + 1,
    logSigmaYear: k + 2,
    logPhi: k + 3,
    zCountry: k + 4,
    zYear: k + 4 + nCountries,
  };
}

/** Names of the constrained quantities, in the order `constrain` writes them. */
export function constrainedNames(predictors: string[], countries: string[], years: number[]): string[] {
  return [
    'alpha',
    ...predictors.map((p) => `beta[${p}]`),
    'sigma_country',
    'sigma_year',
    'phi',
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

/**
 * P = (AᵀA)⁻¹Aᵀ for A = [1, country means of x] (row-major (k+1) × nCountries), by Cholesky with a small
 * ridge if AᵀA is near singular. Returns null when it stays singular (then no shift is applied).
 */
export function countryProjection(data: NegBinPanelData): Float64Array | null {
  const { n, k, nCountries, x, country } = data;
  const m = k + 1;
  const A = new Float64Array(nCountries * m);
  const count = new Float64Array(nCountries);
  for (let i = 0; i < n; i++) {
    const c = country[i];
    count[c]++;
    for (let j = 0; j < k; j++) A[c * m + 1 + j] += x[i * k + j];
  }
  for (let c = 0; c < nCountries; c++) {
    A[c * m] = 1;
    for (let j = 0; j < k; j++) A[c * m + 1 + j] = count[c] > 0 ? A[c * m + 1 + j] / count[c] : 0;
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
          if (!(sum > 1e-12 * Math.max(trace, 1e-300))) { ok = false; break; }
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

export const DEFAULT_PARAMETERISATION: Parameterisation = { countryEffects: 'non-centred', yearEffects: 'non-centred', shiftedCoefficients: true };

export function describeParameterisation(p: Parameterisation): string {
  const effect = (kind: Parameterisation['countryEffects'], name: string, sigma: string) =>
    kind === 'non-centred' ? `${name} effects non-centred (${name[0]} = ${sigma} * z, z ~ Normal(0, 1) sampled)` : `${name} effects centred (sampled directly with their Normal(0, ${sigma}) prior)`;
  const parts = [effect(p.countryEffects, 'country', 'sigma_country'), effect(p.yearEffects, 'year', 'sigma_year')];
  if (p.shiftedCoefficients) {
    parts.push(
      'intercept and coefficients sampled shifted by the projection of the country effects onto the country means of the predictors ' +
        '(the intercept also by the mean year effect), a unit-Jacobian change of coordinates that leaves the posterior unchanged',
    );
  }
  parts.push('sigma_country, sigma_year and phi sampled on the log scale with their Jacobians');
  return `${parts.join('; ')}.`;
}

export class NegBinPanelTarget implements Target {
  readonly dim: number;
  readonly layout: ParameterLayout;
  readonly parameterisation: Parameterisation;
  private readonly data: NegBinPanelData;
  private readonly priors: ModelPriors;
  /** (k+1) × nCountries projection, or null for unshifted coordinates. */
  private readonly projection: Float64Array | null;
  // Observations grouped by distinct count: log Γ(y+φ) - log Γ(φ) and its φ-derivative are computed once
  // per distinct y per evaluation instead of once per row.
  private readonly distinctY: Float64Array;
  private readonly distinctIndex: Int32Array;
  private readonly lgammaDiff: Float64Array;
  private readonly digammaDiff: Float64Array;
  // Scratch reused across calls: (α, β), their gradient, P u, the effects, and the effects' gradients.
  private readonly theta: Float64Array;
  private readonly gradTheta: Float64Array;
  private readonly projected: Float64Array;
  private readonly countryEffect: Float64Array;
  private readonly yearEffect: Float64Array;
  private readonly gradU: Float64Array;
  private readonly gradV: Float64Array;
  private readonly pooledLogRate: number;

  constructor(data: NegBinPanelData, priors: ModelPriors, parameterisation: Partial<Parameterisation> = {}) {
    this.data = data;
    this.priors = priors;
    this.parameterisation = { ...DEFAULT_PARAMETERISATION, ...parameterisation };
    this.layout = parameterLayout(data.k, data.nCountries, data.nYears);
    this.dim = this.layout.dim;
    this.projection = this.parameterisation.shiftedCoefficients ? countryProjection(data) : null;
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
    this.gradU = new Float64Array(data.nCountries);
    this.gradV = new Float64Array(data.nYears);
    let ySum = 0;
    let exposureSum = 0;
    for (let i = 0; i < data.n; i++) {
      ySum += data.y[i];
      exposureSum += Math.exp(data.logExposure[i]);
    }
    this.pooledLogRate = data.n > 0 ? Math.log((ySum + 0.5) / exposureSum) : 0;
  }

  /** Uniform in (-r, r) around 0, except the intercept, centred on the pooled log rate per publication. */
  initialise(rng: Random, radius: number, out: Float64Array): void {
    for (let i = 0; i < this.dim; i++) out[i] = rng.uniform(-radius, radius);
    out[this.layout.alpha] += this.pooledLogRate;
  }

  /**
   * Effects u, v into countryEffect / yearEffect, P u into projected, (α, β) into theta.
   * sc, st: the multipliers from sampled coordinates to effects (σ when non-centred, 1 when centred).
   */
  private unpack(q: Float64Array, sc: number, st: number): void {
    const { k, nCountries, nYears } = this.data;
    const L = this.layout;
    const u = this.countryEffect;
    const v = this.yearEffect;
    for (let c = 0; c < nCountries; c++) u[c] = sc * q[L.zCountry + c];
    let vMean = 0;
    for (let t = 0; t < nYears; t++) {
      v[t] = st * q[L.zYear + t];
      vMean += v[t];
    }
    vMean = nYears > 0 ? vMean / nYears : 0;
    const P = this.projection;
    for (let a = 0; a <= k; a++) {
      let s = 0;
      if (P) {
        const row = a * nCountries;
        for (let c = 0; c < nCountries; c++) s += P[row + c] * u[c];
      }
      this.projected[a] = s;
      this.theta[a] = q[a] - s;
    }
    if (P) this.theta[0] -= vMean;
  }

  /** θ → (α, β, σ_c, σ_t, φ, u, v), in constrainedNames order. */
  constrain(q: Float64Array, out: Float64Array): void {
    const L = this.layout;
    const { k, nCountries, nYears } = this.data;
    const sigmaC = Math.exp(q[L.logSigmaCountry]);
    const sigmaT = Math.exp(q[L.logSigmaYear]);
    const sc = this.parameterisation.countryEffects === 'non-centred' ? sigmaC : 1;
    const st = this.parameterisation.yearEffects === 'non-centred' ? sigmaT : 1;
    this.unpack(q, sc, st);
    for (let a = 0; a <= k; a++) out[a] = this.theta[a];
    out[L.logSigmaCountry] = sigmaC;
    out[L.logSigmaYear] = sigmaT;
    out[L.logPhi] = Math.exp(q[L.logPhi]);
    for (let c = 0; c < nCountries; c++) out[L.zCountry + c] = this.countryEffect[c];
    for (let t = 0; t < nYears; t++) out[L.zYear + t] = this.yearEffect[t];
  }

  logDensityGradient(q: Float64Array, grad: Float64Array): number {
    const { n, k, nCountries, nYears, y, logExposure, x, country, year } = this.data;
    const L = this.layout;
    const pr = this.priors;
    const nonCentredC = this.parameterisation.countryEffects === 'non-centred';
    const nonCentredT = this.parameterisation.yearEffects === 'non-centred';
    const logSigmaC = q[L.logSigmaCountry];
    const logSigmaT = q[L.logSigmaYear];
    const rho = q[L.logPhi];
    const sigmaC = Math.exp(logSigmaC);
    const sigmaT = Math.exp(logSigmaT);
    const phi = Math.exp(rho);
    const sc = nonCentredC ? sigmaC : 1;
    const st = nonCentredT ? sigmaT : 1;
    this.unpack(q, sc, st);
    const theta = this.theta;
    const gTheta = this.gradTheta;
    const uEff = this.countryEffect;
    const vEff = this.yearEffect;
    const alpha = theta[0];

    const distinctY = this.distinctY;
    const lgd = this.lgammaDiff;
    const dgd = this.digammaDiff;
    const lgPhi = logGamma(phi);
    const dgPhi = digamma(phi);
    for (let u = 0; u < distinctY.length; u++) {
      const yu = distinctY[u];
      if (yu === 0) { lgd[u] = 0; dgd[u] = 0; continue; }
      lgd[u] = logGamma(yu + phi) - lgPhi;
      dgd[u] = digamma(yu + phi) - dgPhi;
    }

    gTheta.fill(0);
    const gU = this.gradU;
    const gV = this.gradV;
    gU.fill(0);
    gV.fill(0);
    let lp = n * phi * rho;
    let gAlpha = 0;
    let gRho = 0;
    const di = this.distinctIndex;
    for (let i = 0; i < n; i++) {
      const c = country[i];
      const t = year[i];
      let eta = logExposure[i] + alpha + uEff[c] + vEff[t];
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
      gAlpha += g;
      for (let j = 0; j < k; j++) gTheta[1 + j] += g * x[row + j];
      gU[c] += g;
      gV[t] += g;
      // ∂/∂ log φ = φ[ψ(y+φ) - ψ(φ) + log φ - log(φ+μ) + 1 - (φ+y)/(φ+μ)], rearranged with s.
      gRho += phi * (dgd[u] + rho - logPhiPlusMu) + phi * s - yi * (1 - s);
    }
    gTheta[0] = gAlpha;

    // Priors on (α, β), evaluated at the model's coefficients.
    const dA = alpha - pr.intercept.mean;
    const varA = pr.intercept.sd * pr.intercept.sd;
    lp -= (0.5 * dA * dA) / varA;
    gTheta[0] -= dA / varA;
    const varB = pr.coefficients.sd * pr.coefficients.sd;
    for (let j = 1; j <= k; j++) {
      const d = theta[j] - pr.coefficients.mean;
      lp -= (0.5 * d * d) / varB;
      gTheta[j] -= d / varB;
    }

    // Total derivative with respect to each effect: its direct part plus the part through (α, β) = … − P u − (v̄, 0…).
    const P = this.projection;
    let gLogSc = 0;
    let sumSqC = 0;
    for (let c = 0; c < nCountries; c++) {
      let dU = gU[c];
      if (P) for (let a = 0; a <= k; a++) dU -= P[a * nCountries + c] * gTheta[a];
      const w = q[L.zCountry + c];
      if (nonCentredC) {
        grad[L.zCountry + c] = sigmaC * dU - w;
        gLogSc += dU * uEff[c];
        lp -= 0.5 * w * w;
      } else {
        grad[L.zCountry + c] = dU - w / (sigmaC * sigmaC);
        sumSqC += w * w;
      }
    }
    let gLogSt = 0;
    let sumSqT = 0;
    const viaIntercept = P ? gTheta[0] / nYears : 0;
    for (let t = 0; t < nYears; t++) {
      const dV = gV[t] - viaIntercept;
      const w = q[L.zYear + t];
      if (nonCentredT) {
        grad[L.zYear + t] = sigmaT * dV - w;
        gLogSt += dV * vEff[t];
        lp -= 0.5 * w * w;
      } else {
        grad[L.zYear + t] = dV - w / (sigmaT * sigmaT);
        sumSqT += w * w;
      }
    }
    // Centred effects carry their Normal(0, σ) density: −Σu²/(2σ²) − C log σ.
    if (!nonCentredC) {
      const inv = 1 / (sigmaC * sigmaC);
      lp += -0.5 * sumSqC * inv - nCountries * logSigmaC;
      gLogSc += sumSqC * inv - nCountries;
    }
    if (!nonCentredT) {
      const inv = 1 / (sigmaT * sigmaT);
      lp += -0.5 * sumSqT * inv - nYears * logSigmaT;
      gLogSt += sumSqT * inv - nYears;
    }

    // Priors on the scales; the log transforms of σ_c, σ_t and φ add log σ_c + log σ_t + log φ.
    lp += -pr.sigmaCountry.rate * sigmaC + logSigmaC;
    gLogSc += -pr.sigmaCountry.rate * sigmaC + 1;
    lp += -pr.sigmaYear.rate * sigmaT + logSigmaT;
    gLogSt += -pr.sigmaYear.rate * sigmaT + 1;
    // Gamma(shape a, rate b) on φ: (a - 1) log φ - b φ, plus the Jacobian log φ.
    lp += pr.dispersion.shape * rho - pr.dispersion.rate * phi;
    gRho += pr.dispersion.shape - pr.dispersion.rate * phi;

    for (let a = 0; a <= k; a++) grad[a] = gTheta[a];
    grad[L.logSigmaCountry] = gLogSc;
    grad[L.logSigmaYear] = gLogSt;
    grad[L.logPhi] = gRho;
    return lp;
  }
}

/**
 * Per-observation log-likelihoods over posterior draws, for PSIS-LOO. `columns` holds the constrained
 * draws (constrainedNames order), one array of all draws per quantity.
 */
export class PointwiseLogLik {
  private readonly data: NegBinPanelData;
  private readonly columns: Float64Array[];
  private readonly layout: ParameterLayout;
  private readonly phi: Float64Array;
  private readonly logPhi: Float64Array;
  private readonly logGammaPhi: Float64Array;
  private readonly phiLogPhi: Float64Array;
  readonly draws: number;

  constructor(data: NegBinPanelData, columns: Float64Array[]) {
    this.data = data;
    this.columns = columns;
    this.layout = parameterLayout(data.k, data.nCountries, data.nYears);
    this.phi = columns[this.layout.logPhi];
    this.draws = this.phi.length;
    this.logPhi = this.phi.map(Math.log);
    this.logGammaPhi = this.phi.map(logGamma);
    this.phiLogPhi = this.phi.map((p) => p * Math.log(p));
  }

  /** Writes log p(y_i | θ_s) for every draw s into out. */
  compute(i: number, out: Float64Array): void {
    const { k, y, logExposure, x, country, year } = this.data;
    const L = this.layout;
    const S = this.draws;
    const alpha = this.columns[L.alpha];
    const u = this.columns[L.zCountry + country[i]];
    const v = this.columns[L.zYear + year[i]];
    const yi = y[i];
    const lfy = logGamma(yi + 1);
    for (let s = 0; s < S; s++) out[s] = logExposure[i] + alpha[s] + u[s] + v[s];
    for (let j = 0; j < k; j++) {
      const xij = x[i * k + j];
      if (xij === 0) continue;
      const beta = this.columns[L.beta + j];
      for (let s = 0; s < S; s++) out[s] += xij * beta[s];
    }
    const phi = this.phi;
    const logPhi = this.logPhi;
    const lgPhi = this.logGammaPhi;
    const phiLogPhi = this.phiLogPhi;
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

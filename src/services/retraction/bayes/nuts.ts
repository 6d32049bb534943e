// The No-U-Turn sampler with multinomial sampling of the trajectory (Betancourt 2017, "A Conceptual
// Introduction to Hamiltonian Monte Carlo", appendix A), the generalised no-U-turn criterion on the
// momentum sum ρ with the additional checks across the two halves of every merged trajectory, a
// diagonal Euclidean metric, and Stan-style warmup: dual-averaging step size (Hoffman & Gelman 2014) and
// the metric estimated in doubling windows. All buffers are allocated once per chain; a leapfrog step
// allocates nothing.
import type { Random } from '../../../core/random.ts';
import { logAddExp } from './special.ts';
import type { Target } from './target.ts';
import type { AdaptationSettings, SamplerSettings } from './types.ts';

/** The sampler settings one chain runs with (the model's SamplerSettings less chains, seed and threads). */
export type NutsSettings = Pick<
  SamplerSettings,
  'warmup' | 'draws' | 'maxTreeDepth' | 'targetAcceptance' | 'maxEnergyError' | 'initRadius' | 'initialMetric' | 'adaptation'
>;

export interface ChainOutput {
  dim: number;
  draws: number;
  /** Unconstrained draws, row-major draws × dim. */
  samples: Float64Array;
  logDensity: Float64Array;
  acceptStat: Float64Array;
  treeDepth: Uint8Array;
  leapfrogSteps: Int32Array;
  divergent: Uint8Array;
  /** Hamiltonian at each kept draw (for E-BFMI). */
  energy: Float64Array;
  stepSize: number;
  inverseMetric: Float64Array;
  warmupDivergences: number;
  /** Wall clock. */
  warmupSeconds: number;
  samplingSeconds: number;
  /** CPU time (user + system) of the thread that ran the chain; null where Node cannot measure it. */
  warmupCpuSeconds: number | null;
  samplingCpuSeconds: number | null;
}

/** CPU seconds (user + system) this thread has used, or null on a Node without process.threadCpuUsage (< 23.9). */
export function threadCpuSeconds(): number | null {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : null;
  return usage ? (usage.user + usage.system) / 1e6 : null;
}

const elapsed = (from: number | null, to: number | null) => (from === null || to === null ? null : to - from);

class PhasePoint {
  readonly q: Float64Array;
  readonly p: Float64Array;
  readonly g: Float64Array;
  lp = 0;
  constructor(dim: number) {
    this.q = new Float64Array(dim);
    this.p = new Float64Array(dim);
    this.g = new Float64Array(dim);
  }
  copyFrom(other: PhasePoint): void {
    this.q.set(other.q);
    this.p.set(other.p);
    this.g.set(other.g);
    this.lp = other.lp;
  }
}

/** Scratch vectors of one level of the recursive tree build. */
class TreeLevel {
  readonly pInitEnd: Float64Array;
  readonly pSharpInitEnd: Float64Array;
  readonly rhoInit: Float64Array;
  readonly pFinalBeg: Float64Array;
  readonly pSharpFinalBeg: Float64Array;
  readonly rhoFinal: Float64Array;
  readonly rhoSubtree: Float64Array;
  readonly proposeFinal: PhasePoint;
  constructor(dim: number) {
    this.pInitEnd = new Float64Array(dim);
    this.pSharpInitEnd = new Float64Array(dim);
    this.rhoInit = new Float64Array(dim);
    this.pFinalBeg = new Float64Array(dim);
    this.pSharpFinalBeg = new Float64Array(dim);
    this.rhoFinal = new Float64Array(dim);
    this.rhoSubtree = new Float64Array(dim);
    this.proposeFinal = new PhasePoint(dim);
  }
}

export interface TransitionInfo {
  acceptStat: number;
  treeDepth: number;
  leapfrogSteps: number;
  divergent: boolean;
  energy: number;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Generalised no-U-turn criterion: the trajectory keeps going while both ends still move along ρ. */
function noUTurn(pSharpMinus: Float64Array, pSharpPlus: Float64Array, rho: Float64Array): boolean {
  return dot(pSharpPlus, rho) > 0 && dot(pSharpMinus, rho) > 0;
}

export class NutsSampler {
  readonly dim: number;
  stepSize = 1;
  readonly inverseMetric: Float64Array;
  maxTreeDepth: number;
  maxEnergyError: number;
  private readonly target: Target;
  private readonly rng: Random;
  private readonly sqrtMetric: Float64Array;

  private readonly z: PhasePoint;
  private readonly zFwd: PhasePoint;
  private readonly zBck: PhasePoint;
  private readonly zSample: PhasePoint;
  private readonly zPropose: PhasePoint;
  private readonly pFwdFwd: Float64Array;
  private readonly pSharpFwdFwd: Float64Array;
  private readonly pFwdBck: Float64Array;
  private readonly pSharpFwdBck: Float64Array;
  private readonly pBckFwd: Float64Array;
  private readonly pSharpBckFwd: Float64Array;
  private readonly pBckBck: Float64Array;
  private readonly pSharpBckBck: Float64Array;
  private readonly rho: Float64Array;
  private readonly rhoFwd: Float64Array;
  private readonly rhoBck: Float64Array;
  private readonly rhoExtended: Float64Array;
  private readonly levels: TreeLevel[];

  // Per-transition accumulators.
  private h0 = 0;
  private leapfrogSteps = 0;
  private sumMetropolis = 0;
  private divergent = false;
  /** Log of the summed multinomial weights of the subtree the last buildTree call built. */
  private lastLogWeight = -Infinity;

  constructor(target: Target, rng: Random, maxTreeDepth: number, maxEnergyError: number) {
    const dim = target.dim;
    this.dim = dim;
    this.target = target;
    this.rng = rng;
    this.maxTreeDepth = maxTreeDepth;
    this.maxEnergyError = maxEnergyError;
    this.inverseMetric = new Float64Array(dim).fill(1);
    this.sqrtMetric = new Float64Array(dim).fill(1);
    this.z = new PhasePoint(dim);
    this.zFwd = new PhasePoint(dim);
    this.zBck = new PhasePoint(dim);
    this.zSample = new PhasePoint(dim);
    this.zPropose = new PhasePoint(dim);
    const v = () => new Float64Array(dim);
    this.pFwdFwd = v();
    this.pSharpFwdFwd = v();
    this.pFwdBck = v();
    this.pSharpFwdBck = v();
    this.pBckFwd = v();
    this.pSharpBckFwd = v();
    this.pBckBck = v();
    this.pSharpBckBck = v();
    this.rho = v();
    this.rhoFwd = v();
    this.rhoBck = v();
    this.rhoExtended = v();
    this.levels = [];
    for (let d = 0; d <= maxTreeDepth; d++) this.levels.push(new TreeLevel(dim));
  }

  setInverseMetric(values: Float64Array): void {
    this.inverseMetric.set(values);
    for (let i = 0; i < this.dim; i++) this.sqrtMetric[i] = 1 / Math.sqrt(values[i]);
  }

  /** Evaluates the density and gradient at point.q. */
  evaluate(point: PhasePoint): void {
    point.lp = this.target.logDensityGradient(point.q, point.g);
  }

  private sampleMomentum(p: Float64Array): void {
    for (let i = 0; i < this.dim; i++) p[i] = this.rng.normal() * this.sqrtMetric[i];
  }

  private kinetic(p: Float64Array): number {
    let s = 0;
    const m = this.inverseMetric;
    for (let i = 0; i < p.length; i++) s += m[i] * p[i] * p[i];
    return 0.5 * s;
  }

  private hamiltonian(z: PhasePoint): number {
    const h = -z.lp + this.kinetic(z.p);
    return Number.isNaN(h) ? Infinity : h;
  }

  private sharp(p: Float64Array, out: Float64Array): void {
    const m = this.inverseMetric;
    for (let i = 0; i < p.length; i++) out[i] = m[i] * p[i];
  }

  private leapfrog(z: PhasePoint, epsilon: number): void {
    const { q, p, g } = z;
    const m = this.inverseMetric;
    const half = 0.5 * epsilon;
    const n = this.dim;
    for (let i = 0; i < n; i++) p[i] += half * g[i];
    for (let i = 0; i < n; i++) q[i] += epsilon * m[i] * p[i];
    z.lp = this.target.logDensityGradient(q, g);
    for (let i = 0; i < n; i++) p[i] += half * g[i];
  }

  /** One NUTS transition from `current` (q, g, lp used); the selected point is written back into it. */
  transition(current: PhasePoint): TransitionInfo {
    const z = this.z;
    z.copyFrom(current);
    this.sampleMomentum(z.p);
    this.h0 = this.hamiltonian(z);
    this.zFwd.copyFrom(z);
    this.zBck.copyFrom(z);
    this.zSample.copyFrom(z);
    this.zPropose.copyFrom(z);
    this.pFwdFwd.set(z.p);
    this.sharp(z.p, this.pSharpFwdFwd);
    this.pFwdBck.set(z.p);
    this.pSharpFwdBck.set(this.pSharpFwdFwd);
    this.pBckFwd.set(z.p);
    this.pSharpBckFwd.set(this.pSharpFwdFwd);
    this.pBckBck.set(z.p);
    this.pSharpBckBck.set(this.pSharpFwdFwd);
    this.rho.set(z.p);

    let logSumWeight = 0; // the initial point has weight exp(H0 - H0) = 1
    this.leapfrogSteps = 0;
    this.sumMetropolis = 0;
    this.divergent = false;
    let depth = 0;

    while (depth < this.maxTreeDepth) {
      this.rhoFwd.fill(0);
      this.rhoBck.fill(0);
      let valid: boolean;
      if (this.rng.next() > 0.5) {
        // Extend forward: the old trajectory becomes the backward half.
        z.copyFrom(this.zFwd);
        this.rhoBck.set(this.rho);
        this.pBckFwd.set(this.pFwdFwd);
        this.pSharpBckFwd.set(this.pSharpFwdFwd);
        valid = this.buildTree(depth, this.zPropose, this.pSharpFwdBck, this.pSharpFwdFwd, this.rhoFwd, this.pFwdBck, this.pFwdFwd, 1);
        this.zFwd.copyFrom(z);
      } else {
        // Extend backward: the old trajectory becomes the forward half.
        z.copyFrom(this.zBck);
        this.rhoFwd.set(this.rho);
        this.pFwdBck.set(this.pBckBck);
        this.pSharpFwdBck.set(this.pSharpBckBck);
        valid = this.buildTree(depth, this.zPropose, this.pSharpBckFwd, this.pSharpBckBck, this.rhoBck, this.pBckFwd, this.pBckBck, -1);
        this.zBck.copyFrom(z);
      }
      if (!valid) break;
      const logWeightSubtree = this.lastLogWeight;
      depth++;
      // Biased progressive sampling: prefer the new half in proportion to its weight over the old.
      if (logWeightSubtree > logSumWeight || this.rng.next() < Math.exp(logWeightSubtree - logSumWeight)) {
        this.zSample.copyFrom(this.zPropose);
      }
      logSumWeight = logAddExp(logSumWeight, logWeightSubtree);

      const rho = this.rho;
      for (let i = 0; i < this.dim; i++) rho[i] = this.rhoBck[i] + this.rhoFwd[i];
      let persist = noUTurn(this.pSharpBckBck, this.pSharpFwdFwd, rho);
      const ext = this.rhoExtended;
      for (let i = 0; i < this.dim; i++) ext[i] = this.rhoBck[i] + this.pFwdBck[i];
      persist = persist && noUTurn(this.pSharpBckBck, this.pSharpFwdBck, ext);
      for (let i = 0; i < this.dim; i++) ext[i] = this.rhoFwd[i] + this.pBckFwd[i];
      persist = persist && noUTurn(this.pSharpBckFwd, this.pSharpFwdFwd, ext);
      if (!persist) break;
    }

    current.copyFrom(this.zSample);
    return {
      acceptStat: this.leapfrogSteps > 0 ? this.sumMetropolis / this.leapfrogSteps : 0,
      treeDepth: depth,
      leapfrogSteps: this.leapfrogSteps,
      divergent: this.divergent,
      energy: this.hamiltonian(current),
    };
  }

  /**
   * Builds a subtree of 2^depth leapfrog steps from this.z in direction `sign`, sampling a proposal
   * uniformly by weight within it. "beg" is the end next to the existing trajectory, "end" the far end.
   * Returns false when the subtree diverged or turned back on itself; its log weight is left in lastLogWeight.
   */
  private buildTree(
    depth: number,
    propose: PhasePoint,
    pSharpBeg: Float64Array,
    pSharpEnd: Float64Array,
    rho: Float64Array,
    pBeg: Float64Array,
    pEnd: Float64Array,
    sign: number,
  ): boolean {
    const z = this.z;
    if (depth === 0) {
      this.leapfrog(z, sign * this.stepSize);
      this.leapfrogSteps++;
      const h = this.hamiltonian(z);
      if (h - this.h0 > this.maxEnergyError) this.divergent = true;
      const logWeight = this.h0 - h;
      this.lastLogWeight = logWeight;
      this.sumMetropolis += logWeight > 0 ? 1 : Math.exp(logWeight);
      propose.copyFrom(z);
      this.sharp(z.p, pSharpBeg);
      pSharpEnd.set(pSharpBeg);
      for (let i = 0; i < this.dim; i++) rho[i] += z.p[i];
      pBeg.set(z.p);
      pEnd.set(z.p);
      return !this.divergent;
    }
    const level = this.levels[depth];
    level.rhoInit.fill(0);
    if (!this.buildTree(depth - 1, propose, pSharpBeg, level.pSharpInitEnd, level.rhoInit, pBeg, level.pInitEnd, sign)) return false;
    const logWeightInit = this.lastLogWeight;
    level.rhoFinal.fill(0);
    if (!this.buildTree(depth - 1, level.proposeFinal, level.pSharpFinalBeg, pSharpEnd, level.rhoFinal, level.pFinalBeg, pEnd, sign))
      return false;
    const logWeightFinal = this.lastLogWeight;
    const logWeightSubtree = logAddExp(logWeightInit, logWeightFinal);
    // Uniform progressive sampling inside a subtree.
    if (this.rng.next() < Math.exp(logWeightFinal - logWeightSubtree)) propose.copyFrom(level.proposeFinal);
    const rs = level.rhoSubtree;
    for (let i = 0; i < this.dim; i++) {
      rs[i] = level.rhoInit[i] + level.rhoFinal[i];
      rho[i] += rs[i];
    }
    let persist = noUTurn(pSharpBeg, pSharpEnd, rs);
    const ext = this.rhoExtended;
    for (let i = 0; i < this.dim; i++) ext[i] = level.rhoInit[i] + level.pFinalBeg[i];
    persist = persist && noUTurn(pSharpBeg, level.pSharpFinalBeg, ext);
    for (let i = 0; i < this.dim; i++) ext[i] = level.rhoFinal[i] + level.pInitEnd[i];
    persist = persist && noUTurn(level.pSharpInitEnd, pSharpEnd, ext);
    this.lastLogWeight = logWeightSubtree;
    return persist;
  }

  /**
   * A first step size: doubled or halved until one leapfrog step from `current` crosses an acceptance
   * probability of 0.8 (the heuristic of Hoffman & Gelman 2014, with fresh momenta each try).
   */
  initialiseStepSize(current: PhasePoint): void {
    const z = this.z;
    const tryStep = (): number => {
      z.copyFrom(current);
      this.sampleMomentum(z.p);
      const h0 = this.hamiltonian(z);
      this.leapfrog(z, this.stepSize);
      return h0 - this.hamiltonian(z);
    };
    const logTarget = Math.log(0.8);
    const direction = tryStep() > logTarget ? 1 : -1;
    for (let i = 0; i < 200; i++) {
      const delta = tryStep();
      if (direction === 1 && !(delta > logTarget)) break;
      if (direction === -1 && !(delta < logTarget)) break;
      this.stepSize = direction === 1 ? 2 * this.stepSize : 0.5 * this.stepSize;
      if (this.stepSize > 1e7) throw new Error('step size search diverged upward: the posterior appears improper');
      if (this.stepSize < 1e-300) throw new Error('step size search collapsed to zero: the density is not finite near the initial point');
    }
  }

  newPoint(): PhasePoint {
    return new PhasePoint(this.dim);
  }
}

/** Dual averaging of log step size toward a target acceptance statistic (Hoffman & Gelman 2014, §3.2.1). */
class StepSizeAdapter {
  private counter = 0;
  private sBar = 0;
  private xBar = 0;
  private mu = 0;
  private readonly delta: number;
  private readonly gamma = 0.05;
  private readonly t0 = 10;
  private readonly kappa = 0.75;

  constructor(targetAcceptance: number) {
    this.delta = targetAcceptance;
  }

  restart(stepSize: number): void {
    this.counter = 0;
    this.sBar = 0;
    this.xBar = 0;
    this.mu = Math.log(10 * stepSize);
  }

  /** Returns the next step size to try. */
  learn(acceptStat: number): number {
    this.counter++;
    const a = Math.min(1, acceptStat);
    const eta = 1 / (this.counter + this.t0);
    this.sBar = (1 - eta) * this.sBar + eta * (this.delta - a);
    const x = this.mu - (this.sBar * Math.sqrt(this.counter)) / this.gamma;
    const w = Math.pow(this.counter, -this.kappa);
    this.xBar = (1 - w) * this.xBar + w * x;
    return Math.exp(x);
  }

  /** The averaged step size used after warmup. */
  final(): number {
    return Math.exp(this.xBar);
  }
}

/**
 * Warmup schedule for the diagonal metric: an initial buffer (step size only), windows of doubling length
 * whose draws estimate the posterior variances, and a terminal buffer; the last window is stretched to
 * meet the terminal buffer. Variances are shrunk toward 1e-3 as Stan does, so a short window cannot
 * produce a degenerate metric.
 */
class MetricWindows {
  private readonly warmup: number;
  private readonly initBuffer: number;
  private readonly termBuffer: number;
  private windowSize: number;
  private windowEnd: number;
  private counter = 0;
  private readonly adapt: boolean;
  private readonly mean: Float64Array;
  private readonly m2: Float64Array;
  private count = 0;

  constructor(dim: number, warmup: number, settings: AdaptationSettings) {
    this.warmup = warmup;
    let { initBuffer, termBuffer, baseWindow } = settings;
    this.adapt = warmup >= 20;
    if (initBuffer + baseWindow + termBuffer > warmup) {
      initBuffer = Math.floor(0.15 * warmup);
      termBuffer = Math.floor(0.1 * warmup);
      baseWindow = warmup - (initBuffer + termBuffer);
    }
    this.initBuffer = initBuffer;
    this.termBuffer = termBuffer;
    this.windowSize = baseWindow;
    this.windowEnd = initBuffer + baseWindow - 1;
    this.mean = new Float64Array(dim);
    this.m2 = new Float64Array(dim);
  }

  /** Feeds one warmup draw; returns true and writes new inverse-metric values when a window closes. */
  observe(q: Float64Array, inverseMetricOut: Float64Array): boolean {
    if (!this.adapt) return false;
    const c = this.counter;
    const lastWindowEnd = this.warmup - this.termBuffer - 1;
    if (c >= this.initBuffer && c <= lastWindowEnd) {
      this.count++;
      for (let i = 0; i < q.length; i++) {
        const d = q[i] - this.mean[i];
        this.mean[i] += d / this.count;
        this.m2[i] += d * (q[i] - this.mean[i]);
      }
    }
    if (c === this.windowEnd && c < this.warmup) {
      this.nextWindow(lastWindowEnd);
      const n = this.count;
      for (let i = 0; i < q.length; i++) {
        const variance = n > 1 ? this.m2[i] / (n - 1) : 1;
        inverseMetricOut[i] = (n / (n + 5)) * variance + 1e-3 * (5 / (n + 5));
      }
      this.count = 0;
      this.mean.fill(0);
      this.m2.fill(0);
      this.counter++;
      return true;
    }
    this.counter++;
    return false;
  }

  private nextWindow(lastWindowEnd: number): void {
    if (this.windowEnd === lastWindowEnd) return;
    this.windowSize *= 2;
    this.windowEnd = this.counter + this.windowSize;
    if (this.windowEnd !== lastWindowEnd && this.windowEnd + 2 * this.windowSize >= this.warmup - this.termBuffer) {
      this.windowEnd = lastWindowEnd;
    }
  }
}

/** Draws an initial point where the density and gradient are finite (up to 100 tries, as Stan does). */
function initialPoint(
  target: Target,
  rng: Random,
  radius: number,
  point: { q: Float64Array; g: Float64Array; lp: number },
  given?: Float64Array,
): void {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (given && attempt === 0) point.q.set(given);
    else target.initialise(rng, radius, point.q);
    point.lp = target.logDensityGradient(point.q, point.g);
    if (Number.isFinite(point.lp) && point.g.every(Number.isFinite)) return;
  }
  throw new Error('no initial point with a finite log density and gradient after 100 attempts');
}

/**
 * A diagonal inverse metric from the curvature at q: 1 / (−∂²log p/∂q_i²) by central differences of the
 * analytic gradient, capped at 1 (the unit metric) and 1 where the curvature is not positive.
 */
export function curvatureInverseMetric(target: Target, q: Float64Array, out: Float64Array): void {
  const dim = target.dim;
  const point = q.slice();
  const up = new Float64Array(dim);
  const down = new Float64Array(dim);
  for (let i = 0; i < dim; i++) {
    const h = 1e-4 * Math.max(1, Math.abs(q[i]));
    point[i] = q[i] + h;
    target.logDensityGradient(point, up);
    point[i] = q[i] - h;
    target.logDensityGradient(point, down);
    point[i] = q[i];
    const curvature = -(up[i] - down[i]) / (2 * h);
    out[i] = Number.isFinite(curvature) && curvature > 1 ? 1 / curvature : 1;
  }
}

/** Called after every iteration (1-based count over warmup and draws). */
export type IterationListener = (completed: number, total: number) => void;

/** Runs one chain: warmup with adaptation, then `draws` kept transitions at the adapted step size and metric. */
export function runNutsChain(
  target: Target,
  settings: NutsSettings,
  rng: Random,
  init?: Float64Array,
  onIteration?: IterationListener,
): ChainOutput {
  const totalIterations = settings.warmup + settings.draws;
  const dim = target.dim;
  const sampler = new NutsSampler(target, rng, settings.maxTreeDepth, settings.maxEnergyError);
  const current = sampler.newPoint();
  initialPoint(target, rng, settings.initRadius, current, init);
  if (settings.initialMetric === 'curvature' && settings.warmup > 0) {
    const metric = new Float64Array(dim);
    curvatureInverseMetric(target, current.q, metric);
    sampler.setInverseMetric(metric);
  }
  sampler.initialiseStepSize(current);
  const stepAdapter = new StepSizeAdapter(settings.targetAcceptance);
  stepAdapter.restart(sampler.stepSize);
  const windows = new MetricWindows(dim, settings.warmup, settings.adaptation);
  const newMetric = new Float64Array(dim);

  const t0 = performance.now();
  const c0 = threadCpuSeconds();
  let warmupDivergences = 0;
  for (let iter = 0; iter < settings.warmup; iter++) {
    const info = sampler.transition(current);
    if (info.divergent) warmupDivergences++;
    sampler.stepSize = stepAdapter.learn(info.acceptStat);
    if (windows.observe(current.q, newMetric)) {
      sampler.setInverseMetric(newMetric);
      sampler.initialiseStepSize(current);
      stepAdapter.restart(sampler.stepSize);
    }
    onIteration?.(iter + 1, totalIterations);
  }
  if (settings.warmup > 0) sampler.stepSize = stepAdapter.final();
  const t1 = performance.now();
  const c1 = threadCpuSeconds();

  const n = settings.draws;
  const samples = new Float64Array(n * dim);
  const logDensity = new Float64Array(n);
  const acceptStat = new Float64Array(n);
  const treeDepth = new Uint8Array(n);
  const leapfrogSteps = new Int32Array(n);
  const divergent = new Uint8Array(n);
  const energy = new Float64Array(n);
  for (let iter = 0; iter < n; iter++) {
    const info = sampler.transition(current);
    samples.set(current.q, iter * dim);
    logDensity[iter] = current.lp;
    acceptStat[iter] = info.acceptStat;
    treeDepth[iter] = info.treeDepth;
    leapfrogSteps[iter] = info.leapfrogSteps;
    divergent[iter] = info.divergent ? 1 : 0;
    energy[iter] = info.energy;
    onIteration?.(settings.warmup + iter + 1, totalIterations);
  }
  const t2 = performance.now();
  const c2 = threadCpuSeconds();
  return {
    dim,
    draws: n,
    samples,
    logDensity,
    acceptStat,
    treeDepth,
    leapfrogSteps,
    divergent,
    energy,
    stepSize: sampler.stepSize,
    inverseMetric: Float64Array.from(sampler.inverseMetric),
    warmupDivergences,
    warmupSeconds: (t1 - t0) / 1000,
    samplingSeconds: (t2 - t1) / 1000,
    warmupCpuSeconds: elapsed(c0, c1),
    samplingCpuSeconds: elapsed(c1, c2),
  };
}

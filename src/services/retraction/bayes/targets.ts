// Targets a worker thread can rebuild from plain data: the democracy model, and a multivariate normal
// used to check the sampler against a closed form (in-thread and across workers alike).
import type { Random } from '../../../core/random.ts';
import { NegBinPanelTarget, type NegBinPanelData, type Parameterisation } from './model.ts';
import type { Target } from './target.ts';
import type { CountFamily, ModelPriors } from './types.ts';

export type TargetSpec =
  | { kind: 'negbin-panel'; data: NegBinPanelData; priors: ModelPriors; parameterisation: Parameterisation; family?: CountFamily }
  | { kind: 'gaussian'; mean: Float64Array; precision: Float64Array };

/** A multivariate normal N(mean, precision⁻¹); precision is row-major dim × dim. */
export class GaussianTarget implements Target {
  readonly dim: number;
  private readonly mean: Float64Array;
  private readonly precision: Float64Array;
  private readonly diff: Float64Array;

  constructor(mean: Float64Array, precision: Float64Array) {
    if (precision.length !== mean.length * mean.length) throw new RangeError('precision must be dim × dim');
    this.dim = mean.length;
    this.mean = mean;
    this.precision = precision;
    this.diff = new Float64Array(this.dim);
  }

  initialise(rng: Random, radius: number, out: Float64Array): void {
    for (let i = 0; i < this.dim; i++) out[i] = rng.uniform(-radius, radius);
  }

  logDensityGradient(q: Float64Array, grad: Float64Array): number {
    const n = this.dim;
    const d = this.diff;
    for (let i = 0; i < n; i++) d[i] = q[i] - this.mean[i];
    let quad = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      const row = i * n;
      for (let j = 0; j < n; j++) s += this.precision[row + j] * d[j];
      grad[i] = -s;
      quad += d[i] * s;
    }
    return -0.5 * quad;
  }
}

export function buildTarget(spec: TargetSpec): Target {
  switch (spec.kind) {
    case 'negbin-panel':
      return new NegBinPanelTarget(spec.data, spec.priors, spec.parameterisation, spec.family);
    case 'gaussian':
      return new GaussianTarget(spec.mean, spec.precision);
  }
}

/** A deep copy whose typed arrays are fresh (so they can be transferred), plus the buffers to transfer. */
export function transferableCopy(spec: TargetSpec): { spec: TargetSpec; transfer: ArrayBuffer[] } {
  const transfer: ArrayBuffer[] = [];
  const copy = <T extends Float64Array | Int32Array>(a: T): T => {
    const c = a.slice() as T;
    transfer.push(c.buffer as ArrayBuffer);
    return c;
  };
  if (spec.kind === 'gaussian') {
    return { spec: { kind: 'gaussian', mean: copy(spec.mean), precision: copy(spec.precision) }, transfer };
  }
  const d = spec.data;
  return {
    spec: {
      kind: 'negbin-panel',
      priors: structuredClone(spec.priors),
      parameterisation: { ...spec.parameterisation },
      ...(spec.family ? { family: spec.family } : {}),
      data: {
        n: d.n,
        k: d.k,
        nCountries: d.nCountries,
        nYears: d.nYears,
        y: copy(d.y),
        logExposure: copy(d.logExposure),
        x: copy(d.x),
        country: copy(d.country),
        year: copy(d.year),
      },
    },
    transfer,
  };
}

import type { Random } from '../../../core/random.ts';

/** A differentiable log density on an unconstrained vector, as the sampler sees it. */
export interface Target {
  readonly dim: number;
  /** Log density (up to an additive constant) at q; writes ∂/∂q into grad. Must not allocate. */
  logDensityGradient(q: Float64Array, grad: Float64Array): number;
  /** Writes a random initial point (uniform within `radius` of the target's own centre) into out. */
  initialise(rng: Random, radius: number, out: Float64Array): void;
}

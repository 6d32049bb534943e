// The curve drawn through the democracy scatter: a Poisson log-linear fit of each country's retractions on its mean
// democracy index with its publications as exposure, log E[retractions] = log(publications) + a + b·democracy, by
// maximum likelihood (Newton's method on the two parameters). Descriptive, as the scatter is: one point per country,
// no covariates, no year or country effects (the Bayesian model is on the same page for those).

export interface RateCurve {
  intercept: number;
  slope: number;
  /** Retractions per 1,000 publications the curve gives at democracy index x. */
  ratePer1000(x: number): number;
}

export interface ExposurePoint {
  x: number;
  events: number;
  exposure: number;
}

/** The maximum-likelihood curve, or null when the points cannot determine it (fewer than two x values, no events). */
export function fitRateCurve(points: readonly ExposurePoint[]): RateCurve | null {
  const used = points.filter((p) => p.exposure > 0 && Number.isFinite(p.x) && p.events >= 0);
  const xs = new Set(used.map((p) => p.x));
  const events = used.reduce((s, p) => s + p.events, 0);
  const exposure = used.reduce((s, p) => s + p.exposure, 0);
  if (xs.size < 2 || events <= 0) return null;
  // Centre x so that the two parameters are nearly orthogonal; start from the pooled rate and no slope.
  const centre = used.reduce((s, p) => s + p.x * p.exposure, 0) / exposure;
  let a = Math.log(events / exposure);
  let b = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    let g0 = 0,
      g1 = 0,
      h00 = 0,
      h01 = 0,
      h11 = 0;
    for (const p of used) {
      const z = p.x - centre;
      const mu = p.exposure * Math.exp(a + b * z);
      g0 += p.events - mu;
      g1 += (p.events - mu) * z;
      h00 += mu;
      h01 += mu * z;
      h11 += mu * z * z;
    }
    const det = h00 * h11 - h01 * h01;
    if (!(det > 0)) return null;
    let da = (h11 * g0 - h01 * g1) / det;
    let db = (h00 * g1 - h01 * g0) / det;
    // Halve a step that would overflow exp (a far start on a steep slope).
    while (Math.abs(db) > 50) {
      da /= 2;
      db /= 2;
    }
    a += da;
    b += db;
    if (Math.abs(da) < 1e-12 && Math.abs(db) < 1e-12) break;
  }
  if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
  const intercept = a - b * centre;
  return { intercept, slope: b, ratePer1000: (x: number) => 1000 * Math.exp(intercept + b * x) };
}

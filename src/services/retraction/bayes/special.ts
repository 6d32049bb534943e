// Special functions used in the hot path of the sampler and by the diagnostics. Written here (rather than
// taken from jstat) because the sampler needs digamma, which jstat lacks, and both must be fast and exact
// to ~1e-13 relative for the gradient check.

const HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

/** log Γ(x) for x > 0: shift up to x ≥ 10, then the Stirling series (error < 1e-15 relative there). */
export function logGamma(x: number): number {
  if (!(x > 0)) return x === 0 ? Infinity : NaN;
  let shift = 0;
  let product = 1;
  while (x < 10) {
    product *= x;
    x += 1;
    shift++;
    // Keep the running product far from overflow for tiny x.
    if (product > 1e280) break;
  }
  const inv = 1 / x;
  const inv2 = inv * inv;
  const series = inv * (1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 * (1 / 1188)))));
  const stirling = (x - 0.5) * Math.log(x) - x + HALF_LOG_TWO_PI + series;
  return shift === 0 ? stirling : stirling - Math.log(product);
}

/** ψ(x) = d/dx log Γ(x) for x > 0: recurrence up to x ≥ 10, then the asymptotic series. */
export function digamma(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  let result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  const inv = 1 / x;
  const inv2 = inv * inv;
  const series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132)))));
  return result + Math.log(x) - 0.5 * inv - series;
}

/** log(exp(a) + exp(b)) without overflow; -Infinity is the identity. */
export function logAddExp(a: number, b: number): number {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  return a > b ? a + Math.log1p(Math.exp(b - a)) : b + Math.log1p(Math.exp(a - b));
}

/**
 * Standard normal quantile Φ⁻¹(p), Wichura's algorithm AS 241 (PPND16), accurate to about 1e-16.
 * Coefficients from Wichura (1988), Applied Statistics 37, 477–484.
 */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((2509.0809287301226727 * r + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r +
          13731.693765509461125) *
          r +
          1971.5909503065514427) *
          r +
          133.14166789178437745) *
          r +
          3.387132872796366608)) /
      (((((((5226.495278852545925 * r + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r +
        5394.1960214247511077) *
        r +
        687.1870074920579083) *
        r +
        42.313330701600911252) *
        r +
        1)
    );
  }
  let r = q < 0 ? p : 1 - p;
  r = Math.sqrt(-Math.log(r));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value =
      (((((((7.7454501427834140764e-4 * r + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
        1.42343711074968357734) /
      (((((((1.05075007164441684324e-9 * r + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r +
        0.68976733498510000455) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
        1);
  } else {
    r -= 5;
    value =
      (((((((2.01033439929228813265e-7 * r + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r +
        0.29656057182850489123) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
        6.6579046435011037772) /
      (((((((2.04426310338993978564e-15 * r + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r +
        0.0148753612908506148525) *
        r +
        0.13692988092273580531) *
        r +
        0.59983220655588793769) *
        r +
        1);
  }
  return q < 0 ? -value : value;
}

/** Sample quantile with linear interpolation between order statistics (R type 7); `sorted` ascending. */
export function quantileSorted(sorted: ArrayLike<number>, prob: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const h = (n - 1) * prob;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, n - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/** log B(a, b) = log Γ(a) + log Γ(b) − log Γ(a + b). */
function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/**
 * Continued fraction of the incomplete beta function (the even/odd terms of its standard expansion),
 * evaluated by the modified Lentz method; converges quickly for x < (a + 1) / (a + b + 2).
 */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let f = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    // Even step: d_{2m} = m (b − m) x / ((a + 2m − 1)(a + 2m)).
    let term = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + term * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + term / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    f *= d * c;
    // Odd step: d_{2m+1} = −(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
    term = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + term * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + term / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return f;
}

/** Regularised incomplete beta function I_x(a, b), the Beta(a, b) distribution function at x. */
export function betaCdf(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const logFront = a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b);
  // The fraction converges fast on one side of the mean; the symmetry I_x(a, b) = 1 − I_{1−x}(b, a) covers the other.
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(logFront) * betaContinuedFraction(x, a, b)) / a;
  return 1 - (Math.exp(logFront) * betaContinuedFraction(1 - x, b, a)) / b;
}

/** Quantile of Beta(a, b) by bisection on the distribution function (monotone; 1e-14 absolute in x). */
export function betaQuantile(p: number, a: number, b: number): number {
  if (!(a > 0 && b > 0) || !(p >= 0 && p <= 1)) return NaN;
  if (p === 0) return 0;
  if (p === 1) return 1;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-14; i++) {
    const mid = (lo + hi) / 2;
    if (betaCdf(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Nodes and weights of n-point Gauss–Hermite quadrature (∫ f(x) e^{−x²} dx ≈ Σ w_j f(x_j)): the roots of
 * the orthonormal Hermite function of order n, bracketed on a fine grid and polished by Newton steps,
 * with w_j = 2 / h_n'(x_j)² in that normalisation.
 */
export function gaussHermite(n: number): { nodes: Float64Array; weights: Float64Array } {
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new RangeError('Gauss–Hermite order must be an integer in 1..100');
  // Orthonormal recurrence: h_0 = π^{−1/4}, h_j = x √(2/j) h_{j−1} − √((j−1)/j) h_{j−2}; h_n' = √(2n) h_{n−1}.
  const evaluate = (x: number): { value: number; derivative: number } => {
    let previous = 0;
    let current = Math.pow(Math.PI, -0.25);
    for (let j = 1; j <= n; j++) {
      const next = x * Math.sqrt(2 / j) * current - Math.sqrt((j - 1) / j) * previous;
      previous = current;
      current = next;
    }
    return { value: current, derivative: Math.sqrt(2 * n) * previous };
  };
  const nodes: number[] = [];
  const limit = Math.sqrt(2 * n + 1) + 1;
  const step = 1e-3;
  let x0 = -limit;
  let f0 = evaluate(x0).value;
  for (let x1 = -limit + step; x1 <= limit && nodes.length < n; x1 += step) {
    const f1 = evaluate(x1).value;
    if (f0 === 0 || f0 * f1 < 0) {
      let x = f0 === 0 ? x0 : (x0 + x1) / 2;
      for (let it = 0; it < 50; it++) {
        const { value, derivative } = evaluate(x);
        const dx = value / derivative;
        x -= dx;
        if (Math.abs(dx) < 1e-15 * Math.max(1, Math.abs(x))) break;
      }
      nodes.push(x);
      if (f0 === 0) f0 = f1;
    }
    x0 = x1;
    f0 = f1;
  }
  if (nodes.length !== n) throw new Error(`Gauss–Hermite: found ${nodes.length} of ${n} roots`);
  const weights = nodes.map((x) => 2 / evaluate(x).derivative ** 2);
  return { nodes: Float64Array.from(nodes), weights: Float64Array.from(weights) };
}

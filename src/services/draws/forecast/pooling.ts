// Cross-category pooling: how far a category's next value moves back toward its recent level, shared by the
// categories and shrunk per category (a hierarchical estimate). Between consecutive draws of a category,
// with s its scale and m the median of its last five values,
//   z = (y_{t+1} − y_t) / s  ≈  φ · x,   x = (m_t − y_t) / s,
// so φ = 0 is the naive forecast (no pull toward the level) and φ = 1 the level itself. φ is estimated by least
// squares through the origin on every category's pairs of the last REVERSION_YEARS (a weak ridge prior at 0
// keeps it defined), then each category's own estimate is shrunk toward it: φ_c = (n_c φ̂_c + K φ) / (n_c + K),
// clipped to [0, 1].

export interface ReversionPair {
  category: number;
  /** Day of the second draw of the pair (when it became known). */
  day: number;
  x: number;
  z: number;
}

export const REVERSION_YEARS = 4;
/** Pooled pairs a category's own estimate is worth as much as. */
export const REVERSION_SHRINKAGE = 10;
/** Ridge prior toward φ = 0, in units of Σx². */
export const REVERSION_RIDGE = 4;

export interface ReversionEstimate {
  pooled: number;
  own: number | null;
  ownPairs: number;
  shrunk: number;
}

/** φ for `category` from the pairs known on `day`. */
export function reversionEstimate(pairs: readonly ReversionPair[], category: number, day: number): ReversionEstimate {
  const from = day - REVERSION_YEARS * 365;
  let sxx = REVERSION_RIDGE;
  let sxz = 0;
  let ownXx = 0;
  let ownXz = 0;
  let ownPairs = 0;
  for (const p of pairs) {
    if (p.day > day || p.day <= from) continue;
    sxx += p.x * p.x;
    sxz += p.x * p.z;
    if (p.category === category) {
      ownXx += p.x * p.x;
      ownXz += p.x * p.z;
      ownPairs++;
    }
  }
  const pooled = sxz / sxx;
  const own = ownXx > 0 ? ownXz / ownXx : null;
  const mixed = own === null ? pooled : (ownPairs * own + REVERSION_SHRINKAGE * pooled) / (ownPairs + REVERSION_SHRINKAGE);
  return { pooled, own, ownPairs, shrunk: Math.min(1, Math.max(0, mixed)) };
}

export function estimateReversion(pairs: readonly ReversionPair[], category: number, day: number): number {
  return reversionEstimate(pairs, category, day).shrunk;
}

// Reads the effects of a review's summary-of-findings rows for its forest plots: the measure is text as the
// source wrote it ("RR", "RR ", "Peto OR", "Rate ratio", "MD", "Sensitivity (…)", "NR" …), the estimate and
// its 95% interval are numbers or null. A row is plotted only when all of it can be read and makes sense on
// the measure's scale; every other row is kept with the reason it is not plotted, so the page can list it.

/** How an effect measure is plotted: ratios on a log axis around 1, differences on a linear axis around 0. */
type MeasureScale = 'ratio' | 'difference';

export interface MeasureKind {
  scale: MeasureScale;
  /** The measure as shown (normalised spelling: "RR", "Peto OR", "MD" …). */
  label: string;
  /** What the axis says. */
  name: string;
}

// Upper-case keys after collapsing spaces. Ratios share one log axis (no effect = 1); each difference measure
// has its own axis (no effect = 0), because a mean difference is in its outcome's units.
const RATIOS: Record<string, string> = {
  RR: 'risk ratio',
  'RISK RATIO': 'risk ratio',
  OR: 'odds ratio',
  'ODDS RATIO': 'odds ratio',
  'PETO OR': 'Peto odds ratio',
  'BB OR': 'odds ratio (beta-binomial)',
  HR: 'hazard ratio',
  'HAZARD RATIO': 'hazard ratio',
  'RATE RATIO': 'rate ratio',
  'RELATIVE INCIDENCE RATE': 'incidence rate ratio',
  IRR: 'incidence rate ratio',
  DOR: 'diagnostic odds ratio',
};
const DIFFERENCES: Record<string, string> = {
  MD: 'mean difference (outcome units)',
  'MEAN DIFFERENCE': 'mean difference (outcome units)',
  SMD: 'standardised mean difference',
  'STD. MEAN DIFFERENCE': 'standardised mean difference',
  RD: 'risk difference',
  'RISK DIFFERENCE': 'risk difference',
  PF: 'prevented fraction',
};
const SHORT: Record<string, string> = {
  'RISK RATIO': 'RR',
  'ODDS RATIO': 'OR',
  'HAZARD RATIO': 'HR',
  'MEAN DIFFERENCE': 'MD',
  'STD. MEAN DIFFERENCE': 'SMD',
  'RISK DIFFERENCE': 'RD',
  'RELATIVE INCIDENCE RATE': 'Incidence rate ratio',
  'RATE RATIO': 'Rate ratio',
};
// Measures of a diagnostic test's accuracy: proportions with no line of no effect, not a comparison.
const ACCURACY = /\b(sensitivity|specificity|accuracy)\b/i;

/** The measure of a row's text, or why it cannot be plotted. */
export function readMeasure(text: string | null): MeasureKind | { reason: string } {
  const raw = (text ?? '').replace(/\s+/g, ' ').trim();
  if (raw === '' || /^(NA|NR|N\/A|none reported|not reported.*|not measured|not estimable)$/i.test(raw))
    return { reason: 'an estimate without its measure (ratio or difference: the scale is unknown)' };
  if (ACCURACY.test(raw)) return { reason: `diagnostic accuracy (${raw}) is a proportion, not an effect against a comparison` };
  const key = raw.toUpperCase();
  if (RATIOS[key]) return { scale: 'ratio', label: SHORT[key] ?? (/\s/.test(key) ? raw : key), name: RATIOS[key] };
  if (DIFFERENCES[key]) return { scale: 'difference', label: SHORT[key] ?? key, name: DIFFERENCES[key] };
  return { reason: `effect measure "${raw}" is not one this page knows how to plot` };
}

export interface EffectRow {
  measure: string | null;
  effect: number | null;
  ci_lower: number | null;
  ci_upper: number | null;
}

export type ReadEffect =
  { plotted: true; kind: MeasureKind; estimate: number; lower: number; upper: number } | { plotted: false; reason: string };

/** A row's effect as it can be plotted, or the reason it is listed instead. */
export function readEffect(row: EffectRow): ReadEffect {
  const { effect, ci_lower: lower, ci_upper: upper } = row;
  if (effect === null || !Number.isFinite(effect)) return { plotted: false, reason: 'no effect estimate given' };
  const measure = readMeasure(row.measure);
  if ('reason' in measure) return { plotted: false, reason: measure.reason };
  if (lower === null || upper === null || !Number.isFinite(lower) || !Number.isFinite(upper))
    return { plotted: false, reason: 'no 95% confidence interval given' };
  if (lower > upper) return { plotted: false, reason: `the interval's lower bound (${lower}) is above its upper bound (${upper})` };
  if (effect < lower || effect > upper)
    return { plotted: false, reason: `the estimate (${effect}) lies outside its own interval (${lower} to ${upper})` };
  if (measure.scale === 'ratio' && lower <= 0)
    return { plotted: false, reason: `a ratio must be above 0 (the interval starts at ${lower})` };
  return { plotted: true, kind: measure, estimate: effect, lower, upper };
}

// Reads the effects of a review's summary-of-findings rows for its forest plots: the measure is text as the
// source wrote it ("RR", "RR ", "Peto OR", "Rate ratio", "MD", "Sensitivity (…)", "NR" …), the estimate and
// its 95% interval are numbers or null. A row is plotted only when all of it can be read and makes sense on
// the measure's scale; every other row is kept with the reason it is not plotted, so the page can list it.
import { oralMessages } from '../messages/index.ts';
import type { OralTranslate } from '../messages/index.ts';

/** The words a caller without a page's language reads the reasons and names in. */
const ENGLISH = oralMessages.in('en');

/** The measures this page plots, by their message in A's catalogue (`measure.<id>`). */
type MeasureId =
  | 'riskRatio'
  | 'oddsRatio'
  | 'petoOddsRatio'
  | 'betaBinomialOddsRatio'
  | 'hazardRatio'
  | 'rateRatio'
  | 'incidenceRateRatio'
  | 'diagnosticOddsRatio'
  | 'meanDifference'
  | 'standardisedMeanDifference'
  | 'riskDifference'
  | 'preventedFraction';

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
const RATIOS: Record<string, MeasureId> = {
  RR: 'riskRatio',
  'RISK RATIO': 'riskRatio',
  OR: 'oddsRatio',
  'ODDS RATIO': 'oddsRatio',
  'PETO OR': 'petoOddsRatio',
  'BB OR': 'betaBinomialOddsRatio',
  HR: 'hazardRatio',
  'HAZARD RATIO': 'hazardRatio',
  'RATE RATIO': 'rateRatio',
  'RELATIVE INCIDENCE RATE': 'incidenceRateRatio',
  IRR: 'incidenceRateRatio',
  DOR: 'diagnosticOddsRatio',
};
const DIFFERENCES: Record<string, MeasureId> = {
  MD: 'meanDifference',
  'MEAN DIFFERENCE': 'meanDifference',
  SMD: 'standardisedMeanDifference',
  'STD. MEAN DIFFERENCE': 'standardisedMeanDifference',
  RD: 'riskDifference',
  'RISK DIFFERENCE': 'riskDifference',
  PF: 'preventedFraction',
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

/** The measure of a row's text, or why it cannot be plotted, in the words of `t` (English unless a page says). */
export function readMeasure(text: string | null, t: OralTranslate = ENGLISH): MeasureKind | { reason: string } {
  const raw = (text ?? '').replace(/\s+/g, ' ').trim();
  if (raw === '' || /^(NA|NR|N\/A|none reported|not reported.*|not measured|not estimable)$/i.test(raw))
    return { reason: t('effect.noMeasure') };
  if (ACCURACY.test(raw)) return { reason: t('effect.accuracy', { measure: raw }) };
  const key = raw.toUpperCase();
  if (RATIOS[key]) return { scale: 'ratio', label: SHORT[key] ?? (/\s/.test(key) ? raw : key), name: t(`measure.${RATIOS[key]}`) };
  if (DIFFERENCES[key]) return { scale: 'difference', label: SHORT[key] ?? key, name: t(`measure.${DIFFERENCES[key]}`) };
  return { reason: t('effect.unknownMeasure', { measure: raw }) };
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
export function readEffect(row: EffectRow, t: OralTranslate = ENGLISH): ReadEffect {
  const { effect, ci_lower: lower, ci_upper: upper } = row;
  if (effect === null || !Number.isFinite(effect)) return { plotted: false, reason: t('effect.noEstimate') };
  const measure = readMeasure(row.measure, t);
  if ('reason' in measure) return { plotted: false, reason: measure.reason };
  if (lower === null || upper === null || !Number.isFinite(lower) || !Number.isFinite(upper))
    return { plotted: false, reason: t('effect.noInterval') };
  if (lower > upper) return { plotted: false, reason: t('effect.reversed', { lower: String(lower), upper: String(upper) }) };
  if (effect < lower || effect > upper)
    return { plotted: false, reason: t('effect.outside', { effect: String(effect), lower: String(lower), upper: String(upper) }) };
  if (measure.scale === 'ratio' && lower <= 0) return { plotted: false, reason: t('effect.ratioNotPositive', { lower: String(lower) }) };
  return { plotted: true, kind: measure, estimate: effect, lower, upper };
}

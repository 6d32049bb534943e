// What /api/models/ says about each model and about the numbers the forecasts report. Kept next to the
// code that implements them so that the description and the behaviour change together.
import { DATE_LAW_GAPS, DATE_METHOD, DORMANT_RULE, LIKELY_WINDOW_DAYS, STALE_DATE_METHOD } from './draw-dates.ts';
import type { ModelName } from './forecast-panel.ts';
import { DAMPED_MIN_OBSERVATIONS, REVERSION_WINDOW, SES_MIN_OBSERVATIONS, WINDOW } from './members.ts';
import {
  ADAPTIVE_LEVEL_RANGE,
  ADAPTIVE_STEP,
  DATE_INTERVAL_TARGET,
  FALLBACK_QUANTILE,
  HIT_TOLERANCE,
  LIKELY_MIN_WINDOWS,
} from './metrics.ts';
import { DAMPED_PHI_RANGE, SES_ALPHA_RANGE } from './models.ts';
import { REVERSION_RIDGE, REVERSION_SHRINKAGE, REVERSION_YEARS } from './pooling.ts';
import {
  DATE_HALF_LIFE,
  DATE_LEVELS,
  DATE_POOLED_SHARE,
  ESTABLISHED_DRAWS,
  INTERVAL_DAYS,
  INVITATION_BOUND_FACTOR,
  LIKELY_STEP_DAYS,
  ONE_OFF_RATIO,
  RECENT_DAYS,
  SCALE_CHANGES,
  VOLATILITY_HALF_LIFE,
  VOLATILITY_PRIOR_CHANGES,
  WEIGHT_ERRORS,
  WEIGHT_PRIOR_ERRORS,
} from './walk-forward.ts';

export const CONFIDENCE_DEFINITION =
  `confidence_score (0–100) is the hit rate of the served CRS forecasts at that horizon in the walk-forward ` +
  `backtest (the category's own forecasts; for a young category every young category's), where a hit is a forecast ` +
  `within ${HIT_TOLERANCE} CRS points of the actual cut-off, smoothed with a uniform Beta(1,1) prior (Laplace's rule): ` +
  `(hits + 1) / (n + 2) × 100, rounded to one decimal. With no scored forecast it is 50. Each prediction gives n as ` +
  `confidence_forecasts_scored.`;

const BACKTEST_DEFINITION =
  `Walk-forward (rolling origin, expanding window): after every draw of every category, each model forecasts the ` +
  `category's next five draws from what was known that day only (its own draws, and pooled quantities estimated ` +
  `from every category's draws up to that day). Errors are actual − forecast. The tables report the forecasts whose ` +
  `targets fell in the ${RECENT_DAYS} days up to the as-of date, for established categories (${ESTABLISHED_DRAWS}+ draws ` +
  `when the forecast was made); pooled_young reports every young forecast ever scored. mase = mean |error| / the ` +
  `category's scale when the forecast was made (its mean absolute change over the last ${SCALE_CHANGES} draws). ` +
  `coverage_95 is the share of actuals inside the interval that was served at the time, sized from errors known then.`;

const COMBINATION_DEFINITION =
  `The served forecast of an established category is a weighted mean of naive, SES, damped trend and pooled ` +
  `reversion (the window mean is reported as a baseline only): ŷ = Σ_m w_m ŷ_m with w_m ∝ 1/S_m and ` +
  `S_m = (Σ_{last ${WEIGHT_ERRORS} own h = 1 errors} e² + ${WEIGHT_PRIOR_ERRORS} · s² · mean over every category of (e/s)²) / (n_own + ${WEIGHT_PRIOR_ERRORS}), ` +
  `using only errors whose targets were known (within ${RECENT_DAYS} days) when the forecast was made; s is the ` +
  `category's scale. The same weights apply at every horizon. Invitations are forecast the same way on log(invitations) ` +
  `and served as exp(ŷ), rounded.`;

const INTERVAL_DEFINITION =
  `uncertainty_range (CRS) and invitations_range (on the log scale) are split-conformal 95% intervals from recent ` +
  `out-of-sample errors: half-width = q_h × u. u is the category's volatility: the exponentially weighted mean ` +
  `|change| of its draws since its last pause (weights halving every ${VOLATILITY_HALF_LIFE} draws back), shrunk toward the ` +
  `established categories' median volatility with the weight of ${VOLATILITY_PRIOR_CHANGES} changes, so a category ` +
  `whose draws have steadied gets a narrow interval within a few draws. q_h is the k-th smallest |e|/u, ` +
  `k = ⌈(n + 1) × 0.95⌉, among the served h-step forecasts of every established category whose targets fell in the ` +
  `${INTERVAL_DAYS.crs} days (CRS; invitations: ${INTERVAL_DAYS.invitations} days) up to the as-of date (every such forecast if that is too few; ${FALLBACK_QUANTILE} if still ` +
  `too few), each error divided by the u of its own forecast. For the CRS the level 0.95 adapts online (adaptive ` +
  `conformal inference, Gibbs & Candès 2021): after each scored h-step forecast of an established category, ` +
  `α ← α + ${ADAPTIVE_STEP.crs} × (0.05 − miss), from α = 0.05, the level 1 − α kept within ${ADAPTIVE_LEVEL_RANGE[0]}–${ADAPTIVE_LEVEL_RANGE[1]}, and ` +
  `k = ⌈(n + 1)(1 − α)⌉, so the share of misses tracks 5% (invitations keep 0.95). The half-width at h is the largest of those at 1…h (a ` +
  `later draw is never more certain). Invitation ranges stay within what the category has plausibly drawn: its ` +
  `smallest and largest draws ×÷ ${INVITATION_BOUND_FACTOR.toFixed(2)}, the upper end from its 2nd-largest draw when its ` +
  `largest is a one-off, more than ${ONE_OFF_RATIO} times the 2nd-largest (a young category: every category's draws of ` +
  `the last ${RECENT_DAYS} days, the largest of them). A young category's half-width is the same quantile of the absolute errors ` +
  `of every young forecast ever scored, and never narrower than an established category's would be at the pooled ` +
  `scale. The CRS range is clipped to 0–1200 (margin_of_error is the half-width before clipping); invitations are at least 1.`;

const YOUNG_DEFINITION =
  `A category with 1–${ESTABLISHED_DRAWS - 1} draws is young: it is forecast by the pooled reversion model on its own ` +
  `draws (with one draw, that draw), with the pooled φ, and served with wider intervals (see interval); ` +
  `model_used is "pooled_young" and its status says so. Its dates borrow every category's recent gaps.`;

const SELECTION_DEFINITION = COMBINATION_DEFINITION;

export interface ModelDescription {
  name: ModelName;
  description: string;
  /** Fixed settings and how fitted parameters are found; fitted values per category are in each category's entry. */
  parameters: Record<string, string | number>;
  confidence_definition: string;
}

export const MODEL_CATALOGUE: readonly ModelDescription[] = [
  {
    name: 'naive',
    description: 'Random walk: ŷ_{T+h} = y_T, the last value. The baseline every model must beat.',
    parameters: {},
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'window_mean',
    description: `Mean of the last ${WINDOW} values: ŷ_{T+h} = (1/${WINDOW}) Σ_{i<${WINDOW}} y_{T−i}. A baseline, not combined (where the old method chose it, it lost to naive).`,
    parameters: { window: WINDOW },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'ses',
    description:
      'Simple exponential smoothing (ETS(A,N,N)): ℓ_t = ℓ_{t−1} + α(y_t − ℓ_{t−1}), ℓ_1 = y_1; ŷ_{T+h} = ℓ_T. ' +
      `α minimises the one-step squared error. With fewer than ${SES_MIN_OBSERVATIONS} values: the last value.`,
    parameters: { alpha: `fitted per series and origin over [${SES_ALPHA_RANGE[0]}, ${SES_ALPHA_RANGE[1]}]` },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'damped_trend',
    description:
      'Additive damped trend (ETS(A,Ad,N)): ŷ = ℓ + φb, e = y − ŷ, ℓ ← ŷ + αe, b ← φb + βe, started at ℓ = y_1, b = 0; ' +
      `ŷ_{T+h} = ℓ_T + (φ + … + φ^h) b_T. With fewer than ${DAMPED_MIN_OBSERVATIONS} values: SES.`,
    parameters: {
      alpha: 'fitted: [0.01, 1]',
      beta: 'fitted: [0, alpha]',
      phi: `fitted: [${DAMPED_PHI_RANGE[0]}, ${DAMPED_PHI_RANGE[1]}]`,
      fitting: 'minimises the one-step SSE: coarse grid, then Nelder–Mead',
    },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'pooled_reversion',
    description:
      `Cross-category pooling: ŷ_{T+h} = m_T + (y_T − m_T)(1 − φ_c)^h, m_T the median of the last ${REVERSION_WINDOW} values. ` +
      'φ is how far scores move back toward their recent level between draws, shared by the categories: least squares ' +
      'through the origin of z = (y_{t+1} − y_t)/s on x = (m_t − y_t)/s over every category\u2019s pairs of the last ' +
      `${REVERSION_YEARS} years (ridge ${REVERSION_RIDGE} toward 0), then shrunk per category: φ_c = (n_c φ̂_c + ${REVERSION_SHRINKAGE} φ)/(n_c + ${REVERSION_SHRINKAGE}), clipped to [0, 1].`,
    parameters: { window: REVERSION_WINDOW, years: REVERSION_YEARS, shrinkage_pairs: REVERSION_SHRINKAGE, ridge: REVERSION_RIDGE },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'combination',
    description: `The served forecast of established categories (${ESTABLISHED_DRAWS}+ draws). ${COMBINATION_DEFINITION}`,
    parameters: { own_errors: WEIGHT_ERRORS, prior_errors: WEIGHT_PRIOR_ERRORS, window_days: RECENT_DAYS },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'pooled_young',
    description: `The served forecast of young categories. ${YOUNG_DEFINITION}`,
    parameters: { draws: `1–${ESTABLISHED_DRAWS - 1}` },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
];

const DATE_CALIBRATION =
  `${DATE_METHOD} The gap distribution is the category's last ${DATE_LAW_GAPS} gaps, each spread over ±10% of its ` +
  `length (triangular) and weighted by recency (halving every ${DATE_HALF_LIFE} gaps back), mixed with every ` +
  `category's gaps of the last ${RECENT_DAYS} days (${DATE_POOLED_SHARE * 100}% of the weight; a category with fewer ` +
  `than three gaps borrows enough to count as three). The level is ` +
  `calibrated: the smallest of ${DATE_LEVELS.join(', ')} whose intervals, in the walk-forward, held at least ${DATE_INTERVAL_TARGET * 100}% of ` +
  `the actual draw dates of the last ${RECENT_DAYS} days (ranks 4–5 use rank 3's level). ${STALE_DATE_METHOD}`;

const LIKELY_WINDOW_METHOD =
  `likely_window (the next draw only): the ${LIKELY_WINDOW_DAYS} calendar days (first and last included) holding the most ` +
  `of the date law behind date_range, within date_range (or containing it when the range is shorter), with the ` +
  `probability that the draw falls in them: three weeks a person can plan with, where a range calibrated to hold ` +
  `${DATE_INTERVAL_TARGET * 100}% must also hold the program's long breaks. The probability is the law's mass in the ` +
  `window recalibrated by an isotonic regression of whether past windows held their draw on their mass: the windows ` +
  `served on every ${LIKELY_STEP_DAYS}th day of each gap of every category whose draw was known, over the last ` +
  `${RECENT_DAYS} days, fitted apart for windows asked for on a draw day, later within the category's typical gap, and ` +
  `past it; kept within 1/(n + 1) and n/(n + 1) by the end blocks' n windows; the law's own mass while fewer than ` +
  `${LIKELY_MIN_WINDOWS} windows are known. It is at most ${DATE_INTERVAL_TARGET} when the window lies inside ` +
  `date_range, and at least ${DATE_INTERVAL_TARGET} when it contains it or the range at the calibrated level that ` +
  `date_range widens to include predicted_date. For a stale feed (see dates) the probability is the law's own mass in ` +
  `the window, within the same bounds: no window of the residual law is among those the calibration learnt from.`;

/** Every rule a client may want explained, for /api/models/ and the documentation page. */
export const FORECAST_METHOD = {
  selection: SELECTION_DEFINITION,
  interval: INTERVAL_DEFINITION,
  confidence: CONFIDENCE_DEFINITION,
  dates: DATE_CALIBRATION,
  likely_window: LIKELY_WINDOW_METHOD,
  dormant: DORMANT_RULE,
  backtest: 'rolling-origin backtest',
  backtest_definition: BACKTEST_DEFINITION,
  young: YOUNG_DEFINITION,
} as const;

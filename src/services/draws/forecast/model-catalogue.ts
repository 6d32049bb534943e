// What /api/models/ says about each model and about the numbers the forecasts report. Kept next to the
// code that implements them so that the description and the behaviour change together.
import { CONFORMAL_MIN_ERRORS, HIT_TOLERANCE } from './backtest.ts';
import { DATE_METHOD, DORMANT_RULE } from './draw-dates.ts';
import { DAMPED_PHI_RANGE, SES_ALPHA_RANGE, type ModelName } from './models.ts';
import {
  BACKTEST_FIRST_ORIGIN,
  DAMPED_FIRST_ORIGIN,
  DAMPED_MIN_SERIES_LENGTH,
  DEFAULT_MAX_HORIZON,
  DEFAULT_WINDOW,
  SELECTION_TIE_TOLERANCE,
  THIN_DATA_MIN_ERRORS,
} from './series-forecast.ts';

export const CONFIDENCE_DEFINITION =
  `confidence_score (0–100) is the chosen CRS model's rolling-origin backtest hit rate at that horizon, where a ` +
  `hit is a forecast within ${HIT_TOLERANCE} CRS points of the actual cut-off, smoothed with a uniform Beta(1,1) ` +
  `prior (Laplace's rule): (hits + 1) / (n + 2) × 100, rounded to one decimal. With no backtest errors it is 50.`;

export const INTERVAL_DEFINITION =
  `uncertainty_range is a 95% prediction interval for the cut-off score. Where the chosen model has at least ` +
  `${CONFORMAL_MIN_ERRORS} backtest errors at that horizon, its half-width (margin_of_error) is their empirical ` +
  `95% quantile of absolute error (conformal: the k-th smallest with k = ⌈(n + 1) × 0.95⌉); otherwise it is the ` +
  `model's analytic interval, Student-t quantile with the residual degrees of freedom times the model's h-step ` +
  `forecast standard deviation. The range is clipped to the feasible scores 0–1200 (invitations: at least 1).`;

export const SELECTION_DEFINITION =
  `Per category and series (CRS cut-offs, invitations), every candidate model is backtested by rolling origin ` +
  `with an expanding window (first training length ${BACKTEST_FIRST_ORIGIN}; ${DAMPED_FIRST_ORIGIN} for the damped ` +
  `trend, which is a candidate only for series of at least ${DAMPED_MIN_SERIES_LENGTH} draws) at horizons ` +
  `1–${DEFAULT_MAX_HORIZON}. The chosen model has the lowest h = 1 mean absolute error on the targets common to ` +
  `all candidates; models within ${SELECTION_TIE_TOLERANCE * 100}% of that MAE count as tied and the simplest ` +
  `(naive < window mean < SES < damped trend) wins; with fewer than ${THIN_DATA_MIN_ERRORS} common errors the ` +
  `naive model is used.`;

export interface ModelDescription {
  name: ModelName;
  description: string;
  /** Fixed settings and how fitted parameters are found; fitted values per category are in each forecast. */
  parameters: Record<string, string | number>;
  confidence_definition: string;
}

export const MODEL_CATALOGUE: readonly ModelDescription[] = [
  {
    name: 'naive',
    description: 'Random walk: the next values equal the last one. Analytic h-step sd = σ̂·√h, σ̂ from one-step changes.',
    parameters: {},
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'window_mean',
    description:
      `Mean of the last ${DEFAULT_WINDOW} values, for a level with independent noise; analytic sd is the root ` +
      'mean squared one-step error of the rolling window mean, the same at every horizon.',
    parameters: { window: DEFAULT_WINDOW },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'ses',
    description:
      'Simple exponential smoothing (ETS(A,N,N)): level ℓ ← ℓ + α(y − ℓ), started at the first value; forecast ' +
      'ℓ at every horizon; analytic sd = σ̂·√(1 + (h − 1)α²).',
    parameters: { alpha: `fitted per series: minimises the one-step SSE over [${SES_ALPHA_RANGE[0]}, ${SES_ALPHA_RANGE[1]}]` },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
  {
    name: 'damped_trend',
    description:
      'Additive damped trend (ETS(A,Ad,N)), level started at the first value and trend at 0; forecast ' +
      'ℓ + (φ + … + φ^h)b; analytic sd = σ̂·√(1 + Σ_{j<h}(α + β(φ + … + φ^j))²). Only for series of at least ' +
      `${DAMPED_MIN_SERIES_LENGTH} draws.`,
    parameters: {
      alpha: 'fitted: [0.01, 1]',
      beta: 'fitted: [0, alpha]',
      phi: `fitted: [${DAMPED_PHI_RANGE[0]}, ${DAMPED_PHI_RANGE[1]}]`,
      fitting: 'minimises the one-step SSE: coarse grid, then Nelder–Mead',
    },
    confidence_definition: CONFIDENCE_DEFINITION,
  },
];

/** Every rule a client may want explained, for /api/models/ and the documentation page. */
export const FORECAST_METHOD = {
  selection: SELECTION_DEFINITION,
  interval: INTERVAL_DEFINITION,
  confidence: CONFIDENCE_DEFINITION,
  dates: DATE_METHOD,
  dormant: DORMANT_RULE,
  backtest: 'rolling-origin backtest',
} as const;

// Service D's TypeBox schemas shared by several endpoint groups: they validate requests, serialise responses
// and make the OpenAPI document. Response schemas are complete (the serialiser drops properties a schema
// does not name). Each group's own schemas, with its summaries and descriptions, are in schemas/<group>.ts.
import { Type } from 'typebox';
import { integerPathParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';

/** The API version every body that carries one reports (health). */
export const API_VERSION = '1.0';

export const isoDate = (description: string) => Type.String({ description: `${description} (YYYY-MM-DD).` });
export const timestamp = (description: string) => Type.String({ description: `${description} (ISO 8601 UTC).` });

/** Every error response of the service (errorBody in service.ts). */
export const ErrorBody = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'What went wrong, in words.' }),
    data: Type.Array(Type.Unknown(), { maxItems: 0, description: 'Always empty.' }),
  },
  { description: "The service's error body." },
);

// Category 1 is General, the category of most rounds.
export const CategoryIdParams = Type.Object({ category_id: integerPathParam('Category id (see /api/categories/).', '1') });
export const IdParams = Type.Object({ id: integerPathParam('Category id (see /api/categories/).', '1') });

export const DataSourceSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('ircc'), Type.Literal('demo'), Type.Literal('none')], {
      description: '"demo" marks generated data that is not real.',
    }),
    description: Type.String(),
    source: Nullable(Type.String({ description: "The feed's file name or URL (never a path on the server)." })),
    imported_at: Nullable(timestamp('When the draws were imported')),
    data_version: Nullable(Type.String()),
    as_of: isoDate('The date "recent" and the forecasts are measured from: PDI_DRAWS_AS_OF, else today in America/Toronto'),
    forecasts_as_of: Nullable(isoDate('The as-of date of the stored forecasts')),
    newest_draw_date: Nullable(isoDate('The newest draw held on or before as_of: how current the data is at its source')),
    days_since_newest_draw: Nullable(Type.Integer({ minimum: 0, description: 'Days from newest_draw_date to as_of.' })),
    stale_after_days: Nullable(
      Type.Integer({
        description: 'PDI_DRAWS_STALE_DAYS (default 30): more days than this without a draw is stale; null when turned off.',
      }),
    ),
    stale: Nullable(
      Type.Boolean({
        description:
          'True when the newest draw is more than stale_after_days before as_of: newer draws are probably missing, and forecasts are made from old data.',
      }),
    ),
  },
  { description: 'Where the data comes from; generated demo data says so here.' },
);

const NewestDrawSchema = Type.Object(
  {
    date: isoDate('Date of the draw'),
    round_number: Type.String({ description: 'Its round number as IRCC publishes it.' }),
  },
  { description: 'A draw, by date and round number.' },
);

/** What every forecast answer says about the data it was made from. */
export const ForecastBasisProperties = {
  forecast_origin: Nullable(
    isoDate('The date the forecasts were made for (their origin, the as-of date of the fit): ranks count the draws after it'),
  ),
  newest_draw_used: Nullable(
    Type.Object(NewestDrawSchema.properties, {
      description:
        'The newest draw the forecasts were made from (on or before forecast_origin). Far older than the origin means old data: see data_source.stale.',
    }),
  ),
};

export const DrawSchema = Type.Object({
  id: Type.Integer(),
  round_number: Type.String({ description: 'Round number as IRCC publishes it ("388", "91a").' }),
  date: isoDate('Date of the round'),
  category_id: Type.Integer(),
  category_name: Type.String({ description: 'Canonical category name.' }),
  draw_name: Type.String({ description: "The round's name exactly as IRCC publishes it." }),
  invitations_issued: Type.Integer(),
  lowest_crs_score: Type.Integer({ description: 'CRS score of the lowest-ranked candidate invited.' }),
  tie_break_at: Nullable(timestamp("The tie-breaking rule's profile submission cut-off")),
  days_since_last_draw: Nullable(
    Type.Integer({ minimum: 0, description: 'Days since the previous draw of the same category (0: same day); null for its first draw.' }),
  ),
  url: Nullable(Type.String({ description: "The round's page on canada.ca." })),
  category_name_fr: Type.Optional(Nullable(Type.String({ description: 'With lang=both: the French category name (null: none).' }))),
  draw_name_fr: Type.Optional(
    Nullable(Type.String({ description: "With lang=both: the round's name in IRCC's French feed (null until it is imported)." })),
  ),
});

export const PredictionSchema = Type.Object({
  rank: Type.Integer({ description: 'h: 1 is the next draw.' }),
  predicted_date: isoDate('Predicted draw date'),
  predicted_crs_score: Type.Number(),
  predicted_invitations: Type.Integer(),
  confidence_score: Type.Number({
    description:
      "Backtest hit rate (|error| ≤ 10 points) of the served forecasts at this horizon (the category's own; a young category's: every young forecast), smoothed; 0–100. See /api/models/.",
  }),
  confidence_forecasts_scored: Nullable(
    Type.Integer({
      minimum: 0,
      description:
        'n of confidence_score: how many of those forecasts have been scored against their draw, (hits + 1) / (n + 2) × 100; 0 when none has (the score is then 50). Null only in forecasts stored before it was kept.',
    }),
  ),
  model_used: Type.String({
    description:
      '"combination" (weighted by recent backtest errors) for an established category, "pooled_young" for one with 1–4 draws. See /api/models/.',
  }),
  uncertainty_range: Type.Object(
    {
      min: Type.Number(),
      max: Type.Number(),
      confidence_level: Type.Number({ description: 'Always 95.' }),
      margin_of_error: Type.Number({ description: 'Half-width before clipping to 0–1200.' }),
    },
    {
      description:
        '95% prediction interval of the cut-off score, sized from recent out-of-sample errors (conformal); wider for a young category. See /api/models/ methodology.interval.',
    },
  ),
  invitations_range: Nullable(
    Type.Object(
      { min: Type.Integer(), max: Type.Integer(), confidence_level: Type.Number({ description: 'Always 95.' }) },
      { description: '95% prediction interval of the invitations (conformal on the log scale).' },
    ),
  ),
  date_range: Type.Object(
    { earliest: isoDate('Earliest plausible date'), latest: isoDate('Latest plausible date') },
    {
      description:
        'Calibrated 90% range of the draw date: from the distribution of gaps between draws, conditioned on the days already elapsed, at the level whose backtested coverage reached 90%.',
    },
  ),
  likely_window: Nullable(
    Type.Object(
      {
        earliest: isoDate('First day of the window'),
        latest: isoDate('Last day of the window'),
        days: Type.Integer({ description: 'Calendar days in the window, first and last included: always 21 (three weeks).' }),
        probability: Type.Number({
          minimum: 0,
          maximum: 1,
          description:
            'Calibrated probability that the draw falls in the window: the date law’s share of it, mapped by isotonic regression on whether past windows (every category, last two years, known at the forecast’s date) held their draw; at most 0.9 when the window lies inside date_range, at least 0.9 when it contains it or the range at the calibrated level that date_range widens to include predicted_date.',
        }),
      },
      {
        description:
          'The next draw only (null for later ranks): the 21 calendar days holding the most of the date law behind date_range (within date_range, or containing it when the range is shorter), for a plan narrower than the 90% range.',
      },
    ),
  ),
});

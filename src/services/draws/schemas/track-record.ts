// GET /api/track-record/.
import { Type } from 'typebox';
import { limitParam, pageParam, withError } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { DataSourceSchema, isoDate, timestamp } from './common.ts';

export const TRACK_RECORD_DEFAULT_LIMIT = 50;
export const TRACK_RECORD_MAX_LIMIT = 500;

export const TrackRecordQuery = Type.Object({
  category: Type.Optional(
    withError(
      Type.String({ pattern: '^[0-9]{1,15}$', description: 'Only forecasts of this category id (see /api/categories/).' }),
      'must be a category id (a positive whole number)',
    ),
  ),
  page: Type.Optional(pageParam()),
  limit: Type.Optional(limitParam(TRACK_RECORD_DEFAULT_LIMIT, TRACK_RECORD_MAX_LIMIT, 'forecasts per page')),
});

const Range = (description: string) => Type.Object({ min: Type.Number(), max: Type.Number() }, { description });
const Interval = Nullable(
  Type.Object(
    { low: Type.Number(), high: Type.Number() },
    { description: 'Its 95% interval, clustered by the draw forecast; null below two draws.' },
  ),
);

const TrackRecordEntrySchema = Type.Object({
  id: Type.Integer(),
  category_id: Type.Integer(),
  category_name: Type.String(),
  horizon: Type.Integer({ description: 'h: the forecast of the category’s h-th draw after the origin (1 is the next).' }),
  origin: isoDate('The date the forecast was made for (its as-of date)'),
  newest_draw_date: isoDate('The newest draw, of any category, in the data the forecast was made from'),
  data_version: Type.String({ description: 'The data version it was served under (data_source.data_version then).' }),
  recorded_at: timestamp('When it was recorded'),
  recorded_by: Type.String({ description: '"import", "fit" (pdi fit draws) or "request" (first served after a daily refit).' }),
  model_used: Type.String(),
  base: Type.Object(
    {
      round_number: Type.String({ description: 'As IRCC publishes it.' }),
      date: isoDate('Its date'),
      crs_score: Type.Number(),
      invitations: Type.Integer(),
    },
    { description: 'The category’s newest draw the forecast used; its values are the naive forecast (repeat the last draw).' },
  ),
  forecast: Type.Object({
    date: isoDate('Most likely date'),
    date_range: Type.Object({ earliest: isoDate('Earliest'), latest: isoDate('Latest') }),
    crs_score: Type.Number(),
    crs_range: Range('95% interval of the lowest CRS score invited.'),
    invitations: Type.Integer(),
    invitations_range: Nullable(Range('95% interval of the invitations.')),
    likely_window: Nullable(
      Type.Object(
        {
          earliest: isoDate('First day'),
          latest: isoDate('Last day'),
          probability: Type.Number({ minimum: 0, maximum: 1, description: 'The probability stated for the draw to fall in it.' }),
        },
        { description: 'The next draw’s likely three weeks as served (see /api/predict/); null for later draws and older records.' },
      ),
    ),
  }),
  outcome: Nullable(
    Type.Object(
      {
        round_number: Type.String({ description: 'The draw that happened, as IRCC publishes it.' }),
        date: isoDate('Its date'),
        crs_score: Type.Number(),
        invitations: Type.Integer(),
        crs_error: Type.Number({ description: 'Forecast minus actual lowest CRS score.' }),
        naive_crs_error: Type.Number({ description: 'The naive forecast (base) minus actual.' }),
        crs_inside: Type.Boolean({ description: 'The actual score fell inside the 95% interval.' }),
        crs_interval_score: Type.Number({ description: 'Winkler interval score (α = 0.05) of the CRS interval: lower is better.' }),
        invitations_inside: Nullable(Type.Boolean()),
        date_inside: Type.Boolean({ description: 'The draw fell inside the date range.' }),
        likely_window_inside: Nullable(Type.Boolean({ description: 'The draw fell inside the likely window; null without one.' })),
        date_error_days: Type.Integer({ description: 'Actual minus forecast date, in days.' }),
        scored_at: timestamp('When the import that brought the draw scored it'),
      },
      { description: 'What happened; null until an import brings the draw forecast.' },
    ),
  ),
});

const SeriesRecordSchema = (what: string) =>
  Type.Object(
    {
      n: Type.Integer({ description: 'Scored forecasts counted (with an interval, for the interval figures).' }),
      mae: Nullable(Type.Number({ description: `Mean absolute error of the forecast ${what}.` })),
      mae_interval_95: Interval,
      naive_mae: Nullable(Type.Number({ description: `The same for the naive forecast: the category’s last ${what} before the origin.` })),
      relative_mae: Nullable(Type.Number({ description: 'mae / naive_mae: below 1 beats repeating the last draw.' })),
      interval_score: Nullable(
        Type.Number({ description: 'Mean Winkler interval score (α = 0.05) of the 95% intervals; lower is better.' }),
      ),
      coverage_95: Nullable(Type.Number({ description: 'Share of outcomes inside their 95% interval (0.95 is calibrated).' })),
      coverage_interval_95: Interval,
    },
    { description: `Running accuracy of the ${what} forecasts.` },
  );

const TrackRecordSummarySchema = Type.Object({
  category_id: Type.Integer(),
  category_name: Type.String(),
  forecasts: Type.Integer({ description: 'Forecasts recorded.' }),
  scored: Type.Integer({ description: 'Of those, scored against the draw that happened.' }),
  draws_judged: Type.Integer({ description: 'Distinct draws the scored forecasts were judged on.' }),
  crs: SeriesRecordSchema('lowest CRS score'),
  invitations: SeriesRecordSchema('number of invitations'),
  date_coverage: Nullable(Type.Number({ description: 'Share of scored forecasts whose draw fell inside the date range.' })),
  likely_window: Type.Object(
    {
      n: Type.Integer({ description: 'Scored forecasts that carried a likely window.' }),
      mean_probability: Nullable(Type.Number({ description: 'Mean probability stated for them.' })),
      hit_rate: Nullable(Type.Number({ description: 'Share whose draw fell inside the window: near mean_probability when calibrated.' })),
      brier_score: Nullable(
        Type.Number({ description: 'Mean of (stated probability − outcome)², the outcome 1 inside and 0 outside; lower is better.' }),
      ),
    },
    { description: 'How the next draws’ likely windows fared.' },
  ),
});

export const TrackRecordResponse = Type.Object({
  success: Type.Boolean(),
  count: Type.Integer({ description: 'Forecasts recorded (of the category, when filtered).' }),
  page: Type.Integer(),
  limit: Type.Integer(),
  data: Type.Array(TrackRecordEntrySchema, { description: 'This page of the recorded forecasts, newest first.' }),
  summary: Type.Array(TrackRecordSummarySchema, { description: 'The running record of each category, over every scored forecast.' }),
  data_source: DataSourceSchema,
});

export const trackRecordRoute = {
  summary: 'Track record of the forecasts',
  description:
    'Every forecast as it was served (recorded at import, at `pdi fit draws` and when first served), beside the draw that happened once ' +
    'an import brings it: the category’s h-th draw after the forecast’s newest draw, dated on or after its origin. Per category: the ' +
    'running MAE against the naive forecast (repeat the last draw), the Winkler interval score (α = 0.05) and the coverage of the 95% ' +
    'intervals. Forecasts made for a past as-of date whose outcome was already known (a replay) are not recorded.',
  querystring: TrackRecordQuery,
  response: { 200: TrackRecordResponse },
};

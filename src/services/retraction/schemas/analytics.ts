// The analytics endpoints (post-retraction analytics, analytics-data, analytics-realtime): queries, bodies and
// documentation.
import { Type } from 'typebox';
import { Nullable, producesFormats } from '../../../core/http/schema.ts';
import { ANALYTICS_TYPES } from '../aggregates.ts';
import { NATURES } from '../nature.ts';
import { TIME_FILTERS } from '../windows.ts';
import { ByNature, DataSource, NATURE_NOTE, Num, NullableInteger, NullableString, Timing, natureParam, oneOf } from './common.ts';

export const REALTIME_CACHE_SECONDS = 60;

export const PostRetractionQuery = Type.Object({
  time_filter: Type.Optional(oneOf(TIME_FILTERS, 'Citing-date window: all (default), or the last 1, 3 or 5 years up to as_of.')),
  journal: Type.Optional(Type.String({ maxLength: 200, description: 'Journal name contains this text (accents and case ignored).' })),
  subject: Type.Optional(
    Type.String({ maxLength: 200, description: 'A subject contains this text (accents and case ignored).', examples: ['Technology'] }),
  ),
  nature: natureParam('retraction', 'the figures count'),
});

const TopPaper = Type.Object({
  record_id: Type.String(),
  title: Type.String(),
  journal: NullableString,
  retraction_date: NullableString,
  post_retraction_citations: Type.Integer(),
  total_citations: Type.Integer(),
});

const PostRetractionBody = Type.Object({
  filters: Type.Object({
    time_filter: Type.String(),
    nature: Type.String({ description: 'The kind of notice the figures count (all: every record).' }),
    journal: NullableString,
    subject: NullableString,
    as_of: Nullable(Type.String({ description: 'Reference day of the windows: the latest citing date, capped at the import day.' })),
    citing_date_from: Nullable(Type.String({ description: 'Window start (exclusive).' })),
    citing_date_to: Nullable(Type.String({ description: 'Window end (inclusive).' })),
  }),
  totals: Type.Object({
    papers: Type.Integer({ description: 'Papers of the selected kind of notice matching journal and subject.' }),
    citations: Type.Integer({ description: 'Their citations within the window.' }),
    post_retraction_citations: Type.Integer(),
    post_retraction_rate: Type.Number({ description: 'post_retraction_citations / citations (0 when there are none), a fraction.' }),
  }),
  timing_distribution: Type.Array(Type.Object({ bucket: Type.String(), count: Type.Integer() }), {
    description: 'Post-retraction citations by days after the retraction: 1–30, 31–365, 366–730, over 730.',
  }),
  top_papers: Type.Array(TopPaper, { maxItems: 10 }),
  top_journals: Type.Array(Type.Object({ journal: Type.String(), papers: Type.Integer(), post_retraction_citations: Type.Integer() }), {
    maxItems: 10,
  }),
  top_subjects: Type.Array(Type.Object({ subject: Type.String(), papers: Type.Integer(), post_retraction_citations: Type.Integer() }), {
    maxItems: 10,
  }),
  monthly_trend: Type.Array(Type.Object({ month: Type.String(), count: Type.Integer() }), {
    description: 'Post-retraction citations per citing month, the 24 months ending with as_of (zeros included; year-only dates excluded).',
  }),
  by_nature: ByNature,
  computed_at: Type.String(),
  data_source: DataSource,
});

export const postRetractionSchema = {
  summary: 'How retracted papers go on being cited',
  description:
    '`time_filter` keeps citations whose citing date lies within the last 1, 3 or 5 years up to as_of (the latest citing date in the data, capped at the import day); ' +
    '`journal` and `subject` keep papers whose journal or one of whose subjects contains the text (accents and case ignored: "medecine" finds "Médecine"). ' +
    `${NATURE_NOTE} Results without journal and subject are computed at import; with them, from per-paper figures computed at import.`,
  querystring: PostRetractionQuery,
  response: { 200: PostRetractionBody },
};

const AnalyticsDataQuery = Type.Object({
  type: Type.Optional(oneOf(ANALYTICS_TYPES, 'Which table (default overview).')),
  chart: Type.Optional(oneOf(ANALYTICS_TYPES, 'Old name of `type`, still accepted.')),
  format: Type.Optional(oneOf(['json', 'csv'] as const, 'json (default) or a flat CSV.')),
  nature: natureParam('retraction', 'overview, citations, subjects and geographic count'),
});

const AnalyticsDataBody = Type.Object({
  type: Type.String(),
  nature: Type.String({ description: 'The kind of notice counted (all: every record); trends has a column per kind whatever it is.' }),
  columns: Type.Array(Type.String(), { description: 'The columns of the CSV form of this type.' }),
  data: Type.Any({ description: 'overview: an object of totals; the other types: an array of rows with the columns listed.' }),
  computed_at: Type.String(),
  data_version: Type.String(),
  data_source: DataSource,
});

export const analyticsDataSchema = {
  summary: 'Analytics tables for charts, as JSON or CSV',
  description:
    'type overview: totals, with by_nature (CSV: metric,value); trends: notices per year of the notice, one column per kind ' +
    '(year,retractions,expressions_of_concern,corrections,reinstatements,other_notices; retractions counts nature Retraction only); citations: citations per citing year ' +
    '(year,total,pre_retraction,same_day,post_retraction); subjects: per subject (subject,papers,total_citations,post_retraction_citations); geographic: per country ' +
    '(country,papers,total_citations,post_retraction_citations). A paper with several subjects or countries counts in each. `chart` is the old name of `type`. Computed at import. ' +
    NATURE_NOTE,
  querystring: AnalyticsDataQuery,
  produces: producesFormats('json', 'csv'),
  response: { 200: AnalyticsDataBody },
};

const RealtimeBody = Type.Object({
  totals: Type.Object(
    {
      papers: Type.Integer(),
      citations: Type.Integer(),
      post_retraction_citations: Type.Integer(),
      post_retraction_rate: Num,
      journals: Type.Integer(),
      countries: Type.Integer(),
    },
    { description: 'Retracted papers (nature Retraction) and their citations.' },
  ),
  by_nature: Type.Array(
    Type.Object({
      nature: oneOf(NATURES, 'The kind of notice.'),
      papers: Type.Integer(),
      total_citations: Type.Integer(),
      post_retraction_citations: Type.Integer(),
    }),
    { description: 'Every kind of notice: only retraction counts retracted papers.' },
  ),
  imports_last_24_hours: Type.Object({
    count: Type.Integer(),
    succeeded: Type.Integer(),
    failed: Type.Integer(),
    runs: Type.Array(
      Type.Object({
        importer: Type.String(),
        dataset: NullableString,
        source: NullableString,
        status: Type.String(),
        started_at: Type.String(),
        finished_at: NullableString,
        rows_read: NullableInteger,
        inserted: NullableInteger,
        updated: NullableInteger,
        deleted: NullableInteger,
        skipped: NullableInteger,
      }),
    ),
  }),
  citation_timing: Type.Object({
    pre_retraction: Type.Integer(),
    same_day: Type.Integer(),
    post_retraction: Type.Integer(),
    undated: Type.Integer(),
    post_retraction_by_delay: Timing,
  }),
  last_updated: NullableString,
  generated_at: Type.String(),
  data_source: DataSource,
});

export const realtimeSchema = {
  summary: 'Dashboard figures: totals, recent imports, citation timing',
  description:
    'Totals of retracted papers (nature Retraction) and the citation timing split of their citations (as of the last import), every kind of notice in by_nature, ' +
    'the import runs of the last 24 hours and when the data last changed. Cached for 60 seconds. (Before this version the totals counted every record.)',
  response: { 200: RealtimeBody },
};

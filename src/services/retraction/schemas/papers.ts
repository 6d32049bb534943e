// One paper's citations: path parameter, body and documentation.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { NATURES } from '../nature.ts';
import { limitParam, pageParam } from '../../../core/http/params.ts';
import { CITING_DEFAULT_LIMIT, CITING_MAX_LIMIT, CITING_ORDER, CITING_WHEN } from '../citing-works.ts';
import { NullableInteger, NullableString, Timing, YearCounts, oneOf } from './common.ts';

const PaperParams = Type.Object({
  record_id: Type.String({ minLength: 1, maxLength: 64, description: 'Retraction Watch Record ID (a string).', examples: ['970'] }),
});

export const PaperCitationsBody = Type.Object({
  record_id: Type.String(),
  total_citations: Type.Integer({ description: 'All citations of the paper: pre + same_day + post + undated.' }),
  post_retraction_count: Type.Integer({ description: 'Citing date after the retraction date.' }),
  pre_retraction_count: Type.Integer(),
  same_day_count: Type.Integer({ description: 'Citing date equal to the retraction date (not post-retraction).' }),
  undated_count: Type.Integer({ description: 'Citing date or retraction date unknown: counted in the total only.' }),
  citations_by_year: YearCounts,
  post_retraction_by_year: YearCounts,
  post_retraction_timing: Timing,
  paper: Type.Object({
    title: Type.String(),
    journal: NullableString,
    retraction_date: NullableString,
    original_paper_date: NullableString,
    doi: NullableString,
    retraction_nature: Nullable(Type.String({ description: "The notice's RetractionNature as Retraction Watch writes it." })),
    nature: oneOf(
      NATURES,
      'The kind of notice: only retraction is a retracted paper; for the other kinds "post-retraction" means after the notice.',
    ),
    is_demo: Type.Boolean(),
  }),
});

export const paperCitationsSchema = {
  summary: "A retracted paper's citations, before and after its retraction",
  description:
    "A citation is post-retraction when the citing work's date is after the retraction date; the same day is not post. Citing dates known only to the month or year " +
    'stand for the first day of that period, so post-retraction citations are never over-counted. Timing buckets (days after the retraction): within_30_days 1–30, ' +
    'within_1_year 31–365, within_2_years 366–730, after_2_years over 730. Unknown record → 404 PAPER_NOT_FOUND.',
  params: PaperParams,
  response: { 200: PaperCitationsBody },
};

const CitingWorksQuery = Type.Object({
  when: Type.Optional(
    oneOf(
      CITING_WHEN,
      'Which citing works: all (default), before the notice, on its day (same_day), after it, or undated (no citing date or no notice date).',
    ),
  ),
  page: pageParam(),
  limit: limitParam(CITING_DEFAULT_LIMIT, CITING_MAX_LIMIT, 'citing works per page'),
});

const Timing4 = oneOf(['before', 'same_day', 'after', 'undated'] as const, 'Where the citing date falls against the notice date.');

const CitingWork = Type.Object({
  citing_id: Type.String({
    description: 'The citing work as the citation source names it: doi:… or openalex:W…, or the OpenCitations citing id.',
  }),
  doi: Nullable(Type.String({ description: "The citing work's DOI, when the source gives one." })),
  date: Nullable(Type.String({ description: 'YYYY-MM-DD; a month- or year-only date stands for the first day of its period.' })),
  date_precision: Nullable(Type.String({ description: 'day, month or year: how much of the date the source gave.' })),
  year: NullableInteger,
  days_after_notice: Nullable(Type.Integer({ description: 'Citing date − notice date in days (> 0 after, 0 the same day, < 0 before).' })),
  timing: Timing4,
});

const CitingWorksBody = Type.Object({
  record_id: Type.String(),
  retraction_date: NullableString,
  when: oneOf(CITING_WHEN, 'The `when` filter applied.'),
  page: Type.Integer(),
  limit: Type.Integer(),
  total: Type.Integer({ description: 'Citing works under the `when` filter.' }),
  total_pages: Type.Integer({ description: 'At least 1.' }),
  counts: Type.Object(
    { before: Type.Integer(), same_day: Type.Integer(), after: Type.Integer(), undated: Type.Integer() },
    { description: "All the paper's citing works, by where they fall against the notice (whatever `when`)." },
  ),
  works: Type.Array(CitingWork),
});

export const citingWorksSchema = {
  summary: 'The works citing a retracted paper, before and after its notice',
  description:
    `One page of the works citing the paper, ${CITING_ORDER}. Each carries what the citation sources hold: its identifier, DOI and citing date ` +
    '(OpenCitations gives `citing, creation`; OpenAlex `id, doi, publication_date`); the sources as imported carry no title or journal of a citing work, ' +
    'so none is given. `when` keeps the works before, on the day of, or after the notice (the same split as /api/paper/{record_id}/citations/). ' +
    `limit: default ${CITING_DEFAULT_LIMIT}, values above ${CITING_MAX_LIMIT} are reduced to ${CITING_MAX_LIMIT}; a page past the last is empty. Unknown record → 404 PAPER_NOT_FOUND.`,
  params: PaperParams,
  querystring: CitingWorksQuery,
  response: { 200: CitingWorksBody },
};

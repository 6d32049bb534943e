// One paper's citations: path parameter, body and documentation.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { NATURES } from '../nature.ts';
import { NullableString, Timing, YearCounts, oneOf } from './common.ts';

export const PaperParams = Type.Object({
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

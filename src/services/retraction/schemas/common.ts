// Schema pieces shared by Service E's endpoint groups: the data-source label, nullable scalars, a string
// from a fixed list, the timing buckets and per-year counts.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { NATURES, NATURE_FILTERS } from '../nature.ts';
import type { NatureFilter } from '../nature.ts';

/** A string from a fixed list (a plain JSON-schema enum, so the 400 message lists the allowed values). */
export const oneOf = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
export const Num = Type.Number();
export const NullableNumber = Nullable(Type.Number());
export const NullableString = Nullable(Type.String());
export const NullableInteger = Nullable(Type.Integer());

export const DataSource = Type.Object(
  {
    kind: oneOf(
      ['generated', 'imported', 'mixed', 'none'] as const,
      'generated: every dataset is generated demo data (not real); imported: real imported data; mixed: some of each.',
    ),
    is_demo: Type.Boolean(),
    description: Type.String(),
    datasets: Type.Array(
      Type.Object({
        dataset: Type.String(),
        source: NullableString,
        is_demo: Type.Boolean(),
        imported_at: Type.String(),
        data_version: Type.String(),
      }),
    ),
  },
  { description: 'Where the data behind this response comes from; generated demo data is labelled as such.' },
);

export const Timing = Type.Object({
  within_30_days: Type.Integer(),
  within_1_year: Type.Integer(),
  within_2_years: Type.Integer(),
  after_2_years: Type.Integer(),
});
export const YearCounts = Type.Record(Type.String({ pattern: '^\\d{4}$' }), Type.Integer());

/** The `nature=` parameter of the analytics and the export. */
export function natureParam(defaultValue: NatureFilter, what: string) {
  return Type.Optional(
    oneOf(
      NATURE_FILTERS,
      `Which kind of notice ${what} (default ${defaultValue}): retraction (a retracted paper), expression_of_concern, correction, reinstatement, other (any other or no RetractionNature), or all.`,
    ),
  );
}

/** Every kind of notice with its papers and citations, beside figures that count one kind. */
export const ByNature = Type.Array(
  Type.Object({
    nature: oneOf(NATURES, 'The kind of notice.'),
    papers: Type.Integer(),
    citations: Type.Integer({ description: 'Citations within the time window.' }),
    post_retraction_citations: Type.Integer({ description: 'Citations after the notice (for a retraction: after the retraction).' }),
  }),
  { description: 'Every kind of notice under the same filters (the nature filter aside): only retraction counts retracted papers.' },
);

/** The sentence the analytics descriptions share about kinds of notice. */
export const NATURE_NOTE =
  'Retractions are retractions: figures count the notices of the kind `nature` selects (default retraction, i.e. retracted papers); ' +
  'expressions of concern, corrections and reinstatements are reported apart in by_nature. (Before this version every record counted, whatever its RetractionNature.)';

/** Every error response of Service E: `{"error": "…", "code": "MACHINE_CODE"}`. */
export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'What went wrong, in words.' }),
    code: Type.String({
      description: 'A machine code such as MISSING_PARAMETER, INVALID_PARAMETER, PAPER_NOT_FOUND, RATE_LIMITED, INTERNAL_ERROR.',
    }),
  },
  { description: 'The error body of every 4xx and 5xx response.' },
);

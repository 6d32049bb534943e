// Schema pieces shared by Service E's endpoint groups: the data-source label, nullable scalars, a string
// from a fixed list, the timing buckets and per-year counts.
import { Type } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';

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

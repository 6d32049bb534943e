// GET /api/stats/ and /api/comprehensive-stats/: totals and detailed statistics computed at import.
import { Type } from 'typebox';
import type { Static } from 'typebox';
import { Nullable } from '../../../core/http/schema.ts';
import { DataSourceSchema, countValue, money } from './common.ts';

/**
 * A program's name in English (in French with `lang=fr`, where the source gives one) and, stored and served with
 * `lang=both`, its French name ("" where the source gives none).
 */
const ProgramName = {
  program_name_en: Type.String({
    description: "The program's name; with `lang=fr` its French name where the source gives one (else the English one).",
  }),
  program_name_fr: Type.Optional(Type.String({ description: 'With `lang=both`: the French name ("" where the source gives none).' })),
};

export const STATS_DOCS = {
  summary: 'Totals by province, fiscal year and program',
  description: 'Totals over all agreements (each counted once, at its current amendment), computed when the data is imported.',
};

export const COMPREHENSIVE_STATS_DOCS = {
  summary: 'Detailed statistics',
  description:
    'Basic statistics (with the median), by fiscal year, province, NAICS sector and program (top 50), the value distribution over the half-open ranges ' +
    '[min, max) Under $10K … Over $10M, and the notable and major-funding breakdown by rule category. Computed when the data is imported.',
};

export const StatsBody = Type.Object({
  total_grants: Type.Integer(),
  total_value: money(),
  avg_value: money('Rounded half up to the cent.'),
  major_funding_count: Type.Integer(),
  notable_count: Type.Integer(),
  by_province: Type.Array(Type.Object({ recipient_province: Type.String(), ...countValue }), {
    description: 'By total value, descending.',
  }),
  by_year: Type.Array(Type.Object({ fiscal_year: Type.String(), ...countValue }), { description: 'By fiscal year, ascending.' }),
  top_programs: Type.Array(Type.Object({ ...ProgramName, ...countValue }), {
    description: 'The 20 programs with the largest total value.',
  }),
  data_source: DataSourceSchema,
});

export const ComprehensiveBody = Type.Object({
  basic_stats: Type.Object({
    total_grants: Type.Integer(),
    total_value: money(),
    average_value: money(),
    median_value: money('Median agreement value (the mean of the two middle values for an even count).'),
    minimum_value: money(),
    maximum_value: money(),
    major_funding_count: Type.Integer(),
    notable_count: Type.Integer(),
  }),
  yearly_analysis: Type.Array(
    Type.Object({
      fiscal_year: Type.String(),
      ...countValue,
      avg_value: money(),
      major_count: Type.Integer(),
      notable_count: Type.Integer(),
    }),
  ),
  provincial_analysis: Type.Array(
    Type.Object({
      recipient_province: Type.String(),
      ...countValue,
      avg_value: money(),
      unique_recipients: Type.Integer(),
      value_per_recipient: money(),
    }),
  ),
  sector_analysis: Type.Array(
    Type.Object({
      naics_sector_en: Type.String({ description: 'The sector as the source names it ("": the source gives no NAICS sector).' }),
      label: Type.Optional(
        Type.String({
          description:
            'What the entry counts, in the answer’s language (English with `lang=both`): the sector’s name, or for "" ' +
            '“Agreements with no NAICS sector” (“Ententes sans secteur SCIAN”). Always served.',
        }),
      ),
      ...countValue,
    }),
    { description: 'NAICS sectors by total value; the agreements whose source gives no sector are the entry "".' },
  ),
  program_analysis: Type.Array(Type.Object({ ...ProgramName, ...countValue }), {
    description: 'The 50 programs with the largest total value.',
  }),
  value_distribution: Type.Array(
    Type.Object({
      range: Type.String(),
      min: Nullable(Type.Number({ description: 'Inclusive lower bound in dollars; null: none.' })),
      max: Nullable(Type.Number({ description: 'Exclusive upper bound in dollars; null: none.' })),
      ...countValue,
      percentage: Type.Number({ description: 'Share of the agreements, per cent, two decimals.' }),
    }),
  ),
  notable_breakdown: Type.Object({
    notable: Type.Object(countValue),
    major_funding: Type.Object(countValue),
    by_reason: Type.Array(
      Type.Object({
        category: Type.String(),
        label: Type.String({ description: 'The rule category’s label; with `lang=fr` its French label.' }),
        ...countValue,
      }),
    ),
  }),
  data_source: DataSourceSchema,
});

export type GrantsStats = Static<typeof StatsBody>;
export type GrantsComprehensiveStats = Static<typeof ComprehensiveBody>;

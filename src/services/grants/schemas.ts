// Request and response schemas of Service C (they validate, serialise and document the API).
import { Type } from 'typebox';
import { Nullable } from '../../core/http/schema.ts';
import { booleanParam, integerPathParam, limitParam, offsetParam, textParam } from '../../core/http/params.ts';
import { MAX_AMOUNT_DOLLARS } from './calculator/index.ts';
import { PROVINCE_CODES, RECIPIENT_TYPES } from './source/index.ts';
import { SORT_FIELDS } from './repository.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

const RECIPIENT_TYPE_LIST = Object.entries(RECIPIENT_TYPES)
  .map(([code, label]) => `${code} (${label})`)
  .join(', ');

export const SearchQuery = Type.Object({
  search: Type.Optional(textParam('Substring searched in agreement title, recipient legal name, description and program name.')),
  q: Type.Optional(textParam('Alias of `search` (old clients); `search` wins when both are given.')),
  province: Type.Optional(
    Type.String({
      maxLength: 60,
      description: `Province or territory: ${PROVINCE_CODES.join(', ')} (any case; names such as "Ontario" are accepted too).`,
    }),
  ),
  fiscal_year: Type.Optional(
    Type.String({ maxLength: 20, description: 'Federal fiscal year (April 1 to March 31), e.g. `2018-19` (also `2018-2019` or `2018`).' }),
  ),
  year: Type.Optional(
    Type.String({ maxLength: 20, description: 'Alias of `fiscal_year` (old clients); `fiscal_year` wins when both are given.' }),
  ),
  min_value: Type.Optional(Type.Number({ description: 'Smallest agreement value in dollars (inclusive).' })),
  max_value: Type.Optional(Type.Number({ description: 'Largest agreement value in dollars (inclusive).' })),
  recipient_type: Type.Optional(
    Type.String({ maxLength: 40, description: `Recipient type code as published: ${RECIPIENT_TYPE_LIST}. Any case.` }),
  ),
  is_major: Type.Optional(booleanParam('Only agreements over $1,000,000 (true) or up to it (false).')),
  is_notable: Type.Optional(booleanParam('Only agreements flagged (true) or not flagged (false) by the notable keyword rules.')),
  sort: Type.Optional(
    Type.String({
      maxLength: 40,
      description: `Order: one of ${SORT_FIELDS.join(', ')}; a leading \`-\` means descending. Default \`-agreement_value\`. Ties are broken by id in the same direction; a missing end date sorts as the lowest value.`,
    }),
  ),
  limit: limitParam(DEFAULT_LIMIT, MAX_LIMIT),
  offset: offsetParam(),
});

export const GrantParams = Type.Object({ id: integerPathParam('Grant id (as in search results).') });

export const GrantRecord = Type.Object({
  id: Type.Integer(),
  reference_number: Type.String({ description: 'ref_number (pre-2025 files) or agreement_number (December 2025 schema).' }),
  owner_org: Type.String({ description: 'Publishing department code; with reference_number it identifies the agreement.' }),
  owner_org_title: Type.String(),
  amendment_number: Type.Integer({ description: 'The current (highest) amendment; its value is the agreement value.' }),
  amendment_date: Nullable(Type.String()),
  agreement_type: Type.String({ description: 'G grant, C contribution, O other transfer payment ("" when not given).' }),
  recipient_type: Type.String({ description: `Code as published: ${RECIPIENT_TYPE_LIST} ("" when not given).` }),
  recipient_legal_name: Type.String(),
  recipient_operating_name: Type.String(),
  recipient_country: Type.String(),
  recipient_province: Type.String({ description: 'Two-letter code; "" when not given or outside Canada.' }),
  recipient_city_en: Type.String(),
  recipient_postal_code: Type.String(),
  agreement_title_en: Type.String(),
  agreement_value: Type.Number({ description: 'Canadian dollars (exact to the cent).' }),
  description_en: Type.String(),
  agreement_start_date: Type.String({ description: 'YYYY-MM-DD' }),
  agreement_end_date: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  program_name_en: Type.String(),
  program_purpose_en: Type.String(),
  naics_identifier: Type.String(),
  naics_sector_en: Type.String({ description: 'NAICS Canada sector of the two-digit code; "" when unknown.' }),
  expected_results_en: Type.String(),
  fiscal_year: Type.String({ description: 'YYYY-YY, from the reference number pattern DDD-YYYY-YYYY-Qn, else from the start date.' }),
  is_major_funding: Type.Boolean({ description: 'agreement_value over $1,000,000.' }),
  is_notable: Type.Boolean(),
  notable_reason: Type.String({ description: 'Names the rule category and the keyword; "" when not notable.' }),
});

export const SearchBody = Type.Object({
  count: Type.Integer({ description: 'Number of all matches.' }),
  limit: Type.Integer({ description: 'Effective limit (after clamping to 1000).' }),
  offset: Type.Integer(),
  results: Type.Array(GrantRecord),
});

export const DataSourceSchema = Type.Object(
  {
    kind: Type.String({ description: '"demo" for generated data, "import" for an imported file.' }),
    is_demo: Type.Boolean(),
    description: Type.String(),
    source: Type.String(),
    schema: Type.String({ description: 'CSV schema of the file: pre2025 or 2025.' }),
    data_version: Type.String(),
    imported_at: Type.String(),
    notable_rules_version: Type.String(),
  },
  { description: 'Where the data comes from; generated demo data is labelled kind "demo".' },
);

const money = (description?: string) => Type.Number(description ? { description } : {});
const countValue = { count: Type.Integer(), total_value: money() };

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
  top_programs: Type.Array(Type.Object({ program_name_en: Type.String(), ...countValue }), {
    description: 'The 20 programs with the largest total value.',
  }),
  data_source: DataSourceSchema,
});

export const RecipientsBody = Type.Object({
  top_recipients: Type.Array(
    Type.Object({ recipient_legal_name: Type.String(), total_value: money(), grant_count: Type.Integer(), avg_value: money() }),
    { description: 'The 50 recipients (by legal name as published) with the largest total value.' },
  ),
  by_type: Type.Array(Type.Object({ recipient_type: Type.String(), label: Type.String(), ...countValue, avg_value: money() }), {
    description: 'By total value, descending.',
  }),
  by_province: Type.Array(Type.Object({ recipient_province: Type.String(), ...countValue, unique_recipients: Type.Integer() }), {
    description: 'By total value, descending.',
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
  sector_analysis: Type.Array(Type.Object({ naics_sector_en: Type.String(), ...countValue }), {
    description: 'NAICS sectors by total value ("" = not given).',
  }),
  program_analysis: Type.Array(Type.Object({ program_name_en: Type.String(), ...countValue }), {
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
    by_reason: Type.Array(Type.Object({ category: Type.String(), label: Type.String(), ...countValue })),
  }),
  data_source: DataSourceSchema,
});

export const CalculateRequest = Type.Object({
  annual_income: Type.Number({
    minimum: 0,
    maximum: MAX_AMOUNT_DOLLARS,
    description: 'Dollars per year (per month with input_mode "monthly"). Required.',
  }),
  gst_eligible_spending: Type.Optional(
    Type.Number({ minimum: 0, maximum: MAX_AMOUNT_DOLLARS, description: 'Spending subject to GST, dollars (default 0).' }),
  ),
  input_mode: Type.Optional(
    Type.String({
      enum: ['annual', 'monthly'],
      description: '"annual" (default) or "monthly": amounts are per month and multiplied by 12.',
    }),
  ),
  taxpayer_since_year: Type.Optional(
    Type.Integer({ description: 'First fiscal year (start year) counted; default 2018, within the years of the data.' }),
  ),
});

const ShareEntry = {
  year: Type.Integer({ description: 'Fiscal year by its start year.' }),
  fiscal_year: Type.String(),
  user_share: money(),
  user_share_formatted: Type.String(),
  grant_count: Type.Integer(),
};

export const CalculateBody = Type.Object({
  success: Type.Boolean(),
  calculation: Type.Object({
    annual_income: money(),
    gst_eligible_spending: money(),
    input_mode: Type.String(),
    taxpayer_since_year: Type.Integer(),
    tax_year: Type.Integer(),
    current_year: Type.Integer(),
    current_fiscal_year: Type.String(),
    federal_income_tax: money(),
    federal_income_tax_formatted: Type.String(),
    gst_paid: money(),
    gst_paid_formatted: Type.String(),
    total_tax_contribution: money(),
    total_tax_contribution_formatted: Type.String(),
    federal_revenue: money(),
    grants_portion_of_taxes: money(),
    grants_portion_of_taxes_formatted: Type.String(),
    revenue_share_percentage: Type.Number(),
  }),
  grant_shares: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title: Type.String(),
      total_value: money(),
      user_share: money(),
      user_share_formatted: Type.String(),
      recipient: Type.String(),
    }),
  ),
  yearly_breakdown: Type.Array(
    Type.Object({
      ...ShareEntry,
      federal_revenue: money(),
      top_projects: Type.Array(
        Type.Object({
          id: Type.Integer(),
          title: Type.String(),
          recipient: Type.String(),
          annual_value: money(),
          user_share: money(),
          user_share_formatted: Type.String(),
        }),
      ),
    }),
  ),
  future_projections: Type.Object({
    continuing_only: Type.Array(Type.Object({ ...ShareEntry, federal_revenue: money(), revenue_is_projected: Type.Boolean() })),
    with_new_projects: Type.Array(Type.Object({ ...ShareEntry, expected_new_grants: Type.Number() })),
    historical_average: money(),
    historical_average_formatted: Type.String(),
  }),
  total_grants_share: money(),
  total_grants_share_formatted: Type.String(),
  data_source: DataSourceSchema,
});

export const ErrorBody = Type.Object({ error: Type.String() });

// POST /api/calculate/: a taxpayer's share of federal grants (the formulas: calculator/formulas.ts).
import { Type } from 'typebox';
import { CALCULATOR_FORMULAS_MARKDOWN, MAX_AMOUNT_DOLLARS } from '../calculator/index.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { langParam } from '../language.ts';
import { DataSourceSchema, money } from './common.ts';

export const CALCULATE_DOCS = { summary: "A taxpayer's share of federal grants", description: CALCULATOR_FORMULAS_MARKDOWN };

export const CalculateRequest = Type.Object(
  {
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
  },
  { examples: [{ annual_income: 65000, gst_eligible_spending: 20000, input_mode: 'annual', taxpayer_since_year: 2018 }] },
);

/** `lang` of the calculator: the language of the agreements' titles and recipients it names. */
export const CalculateQuery = Type.Object({ lang: Type.Optional(langParam()) });

/** An agreement the answer names: its title and recipient in the language asked for, and both with `lang=both`. */
const title = Type.String({
  description: 'The agreement’s title; with `lang=fr` its French title where the source gives one (else the English one).',
});
const recipient = Type.String({
  description: 'The recipient’s legal name; with `lang=fr` its French name where the source gives one (else the English one).',
});
const FRENCH_NAMES = {
  title_fr: Type.Optional(Type.String({ description: 'With `lang=both`: the French title ("" where the source gives none).' })),
  recipient_fr: Type.Optional(Type.String({ description: 'With `lang=both`: the French legal name ("" where the source gives none).' })),
};

const ShareEntry = {
  year: Type.Integer({ description: 'Fiscal year by its start year.' }),
  fiscal_year: Type.String(),
  user_share: money(),
  user_share_formatted: Type.String(),
  grant_count: Type.Integer(),
};

/** The inputs and the taxpayer's contribution, as the calculator and a grant's share both report them. */
const CONTRIBUTION_FIELDS = {
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
};

export const CalculateBody = Type.Object({
  success: Type.Boolean(),
  calculation: Type.Object({
    ...CONTRIBUTION_FIELDS,
    federal_revenue: money(),
    grants_portion_of_taxes: money(),
    grants_portion_of_taxes_formatted: Type.String(),
    revenue_share_percentage: Type.Number(),
  }),
  grant_shares: Type.Array(
    Type.Object({
      id: Type.Integer(),
      title,
      total_value: money(),
      user_share: money(),
      user_share_formatted: Type.String(),
      recipient,
      ...FRENCH_NAMES,
    }),
  ),
  yearly_breakdown: Type.Array(
    Type.Object({
      ...ShareEntry,
      federal_revenue: money(),
      top_projects: Type.Array(
        Type.Object({
          id: Type.Integer(),
          title,
          recipient,
          annual_value: money(),
          user_share: money(),
          user_share_formatted: Type.String(),
          ...FRENCH_NAMES,
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

export const GRANT_SHARE_DOCS = {
  summary: "A taxpayer's share of one grant",
  description:
    "The calculator's per-grant formula for one agreement and one caller, year by year: `user_share(g) = Σ_{y = since..current} rate(y) × annual_value_g(y)`, " +
    'with `rate(y) = C / federal_revenue(y)` and C the federal income tax plus GST of the inputs (the same inputs, validation, ' +
    'constants and spreading of the value over fiscal years as `POST /api/calculate/`, whose description gives every formula). ' +
    'Years of the grant after the current year are listed and summed apart in `future_share` (revenue of a year without a published figure: the latest published one). ' +
    'The inputs are query parameters here, so that a page or a client can link to the answer; nothing is stored.',
};

export const GrantShareQuery = Type.Object({
  annual_income: Type.Number({
    minimum: 0,
    maximum: MAX_AMOUNT_DOLLARS,
    description: 'Dollars per year (per month with input_mode "monthly"). Required.',
    examples: [65000],
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
  lang: Type.Optional(langParam()),
});

export const GrantShareBody = Type.Object({
  grant: Type.Object({
    id: Type.Integer(),
    title,
    recipient,
    ...FRENCH_NAMES,
    total_value: money(),
    agreement_start_date: Type.String(),
    agreement_end_date: Nullable(Type.String()),
  }),
  calculation: Type.Object({
    ...CONTRIBUTION_FIELDS,
  }),
  years: Type.Array(
    Type.Object({
      year: Type.Integer({ description: 'Fiscal year by its start year.' }),
      fiscal_year: Type.String(),
      annual_value: money('The part of the agreement value spread to this year.'),
      federal_revenue: money('Federal revenue of the year (0 before the first published figure).'),
      revenue_is_projected: Type.Boolean({ description: 'The year has no published figure: the latest one is used.' }),
      counted: Type.Boolean({ description: 'The year lies in taxpayer_since_year..current year and is summed in user_share.' }),
      user_share: money(),
      user_share_formatted: Type.String(),
    }),
  ),
  user_share: money("The calculator's user_share for this grant."),
  user_share_formatted: Type.String(),
  future_share: money('The share of the years after the current year.'),
  future_share_formatted: Type.String(),
  data_source: DataSourceSchema,
});

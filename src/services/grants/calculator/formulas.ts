// The calculator's formulas in prose, for the OpenAPI description of POST /api/calculate/ (one place: the
// code in tax.ts, aggregates.ts and calculate.ts implements exactly this).
import { FEDERAL_REVENUES, FEDERAL_TAX_YEARS, GST_RATE_PER_MILLE } from './constants.ts';
import { MAX_SPAN_YEARS, TOP_GRANTS, TOP_PROJECTS_PER_YEAR } from './aggregates.ts';

const firstRevenue = FEDERAL_REVENUES[0].label;
const lastRevenue = FEDERAL_REVENUES[FEDERAL_REVENUES.length - 1].label;
const firstTax = FEDERAL_TAX_YEARS[0].year;
const lastTax = FEDERAL_TAX_YEARS[FEDERAL_TAX_YEARS.length - 1].year;

export const CALCULATOR_FORMULAS_MARKDOWN = `
**How the taxpayer's share is calculated**

*Inputs.* \`annual_income\` (required, ≥ 0) and \`gst_eligible_spending\` (default 0, ≥ 0) are dollars; with
\`input_mode: "monthly"\` both are per month and are multiplied by 12. Amounts are converted to whole cents
(half up) and all money arithmetic is exact.

*Years.* A year \`y\` is the federal fiscal year that starts on April 1 of \`y\` (2018 = 2018-19). The
**current year** is the last fiscal year in the data that has a published federal revenue figure (sourced
figures cover ${firstRevenue} to ${lastRevenue}), unless the service is configured otherwise; it never
depends on the date of the request. \`taxpayer_since_year\` (default 2018) must lie between the first fiscal
year in the data (but not before ${firstRevenue}) and the current year.

*Federal income tax* (tax year = the calendar year in which the current fiscal year starts, within the CRA
tables ${firstTax}–${lastTax}):
\`federal_income_tax = max(0, Σ_brackets rate_b × portion of income in bracket b − lowest_rate × BPA)\`.
From 2020, \`BPA = BPA_max − (BPA_max − BPA_min) × (income − t₂₉) / (t₃₃ − t₂₉)\`, clamped to
[BPA_min, BPA_max], where t₂₉ and t₃₃ are the lower bounds of the 29% and 33% brackets. The result is rounded
half up to the cent once, at the end. No provincial tax, deductions or other credits.

*GST:* \`gst_paid = ${GST_RATE_PER_MILLE / 10}% × gst_eligible_spending\` (half up to the cent).

*Contribution:* \`C = total_tax_contribution = federal_income_tax + gst_paid\`.

*Share of a federal dollar in year y:* \`rate(y) = C / federal_revenue(y)\` (Public Accounts of Canada
total revenues). \`revenue_share_percentage = rate(current) × 100\`.

*Annual value of a grant:* its current value (the highest amendment) spread evenly, in whole cents, over the
fiscal years from its start date to its end date (one year when the end date is missing or earlier than the
start; at most ${MAX_SPAN_YEARS} years); leftover cents go to the earliest years.

*Per year:* \`share(y) = rate(y) × Σ annual values of grants running in y\`.
\`yearly_breakdown\` lists \`share(y)\` for every y from \`taxpayer_since_year\` to the current year, with the
number of grants running and the top ${TOP_PROJECTS_PER_YEAR} projects by annual value (each with
\`user_share = rate(y) × annual_value\`). \`grants_portion_of_taxes = share(current)\`.
\`total_grants_share = Σ_y share(y)\` over the breakdown.

*Per grant:* \`user_share(g) = Σ_{y = since..current} rate(y) × annual_value_g(y)\`; \`grant_shares\` are the
${TOP_GRANTS} grants with the largest \`user_share\` (ties: lower id first).

*Projections* (the 5 fiscal years after the current year; revenue of a year without a published figure =
the latest published figure): \`continuing_only(y) = rate(y) × Σ annual values in y of grants already
agreed\`. \`historical_average = mean over y = since..current of rate(y) × (annual value in y of grants that
start in y)\`. \`with_new_projects(y) = continuing_only(y) + historical_average\`.

*Display:* every \`*_formatted\` field is \`$1,234.56\` (negative \`-$1,234.56\`), rounded half away from zero
to the cent from the amount's shortest decimal representation.
`.trim();

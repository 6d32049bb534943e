// Public surface of the grants calculator domain.
export {
  calculateTaxpayerShare,
  grantTaxpayerShare,
  validateCalculatorRequest,
  CalculatorInputError,
  INPUT_MODES,
  DEFAULT_TAXPAYER_SINCE_YEAR,
  MAX_AMOUNT_DOLLARS,
} from './calculate.ts';
export type {
  CalculatorRequest,
  CalculatorResponse,
  ValidatedRequest,
  GrantShare,
  YearlyBreakdownEntry,
  ProjectShare,
  ShareEntry,
  InputMode,
  CalculateOptions,
  GrantShareYear,
  GrantTaxpayerShare,
} from './calculate.ts';
export {
  CalculatorAggregateBuilder,
  AggregateBuildError,
  toCalculatorInput,
  servedGrantInput,
  splitCents,
  grantYears,
  TOP_GRANTS,
  TOP_PROJECTS_PER_YEAR,
  MAX_SPAN_YEARS,
} from './aggregates.ts';
export type {
  CalculatorAggregates,
  CalculatorGrantInput,
  YearAggregate,
  RankedGrant,
  ProjectRef,
  AggregateBuilderOptions,
} from './aggregates.ts';
export { federalIncomeTax, gstCents } from './tax.ts';
export type { FederalTaxBreakdown } from './tax.ts';
export {
  FEDERAL_TAX_YEARS,
  FEDERAL_REVENUES,
  FEDERAL_REVENUE_TABLE_VERSION,
  GST_RATE_PER_MILLE,
  FIRST_REVENUE_YEAR,
  LAST_REVENUE_YEAR,
  FIRST_TAX_YEAR,
  LAST_TAX_YEAR,
  publishedRevenue,
  taxYearTable,
} from './constants.ts';
export type { TaxYear, TaxBracket, BasicPersonalAmount, FederalRevenue, Source } from './constants.ts';
export { CALCULATOR_FORMULAS_MARKDOWN } from './formulas.ts';

// Public surface of the grants calculator domain.
export {
  calculateTaxpayerShare,
  calculationIn,
  namedIn,
  grantTaxpayerShare,
  CalculatorInputError,
  DEFAULT_TAXPAYER_SINCE_YEAR,
  MAX_AMOUNT_DOLLARS,
} from './calculate.ts';
export type { CalculatorResponse, FrenchTexts, GrantTaxpayerShare } from './calculate.ts';
export { CalculatorAggregateBuilder, AggregateBuildError, servedGrantInput } from './aggregates.ts';
export type { CalculatorAggregates } from './aggregates.ts';
export { GST_RATE_PER_MILLE, LAST_REVENUE_YEAR, publishedRevenue, taxYearTable } from './constants.ts';
export type { Source } from './constants.ts';
export { CALCULATOR_FORMULAS_MARKDOWN, CALCULATOR_FORMULAS_MARKDOWN_FR } from './formulas.ts';

// Published figures the calculator uses, each with its source. Update by adding an entry (never by editing
// a past one unless the source is corrected), and bump the table version: precomputed aggregates record the
// revenue table version they were built with.

export interface Source {
  publication: string;
  url: string;
  note?: string;
  /**
   * The publisher's French edition of the same publication (Government of Canada publications are bilingual), given
   * only where its French title and address were checked against the French page itself (the comment beside each
   * says which); without it a French page cites the English one, marked as English.
   */
  french?: { publication: string; url: string };
  /** `note` in French (the calculator's own words about the figure). */
  noteFr?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Federal income tax (CRA): brackets and the basic personal amount (BPA), per tax (calendar) year.
// Rates are in tenths of a per cent (per mille) so that 20.5% and 14.5% stay exact integers.
// ---------------------------------------------------------------------------------------------------------

interface TaxBracket {
  /** Taxable income above this many dollars is taxed at `ratePerMille` (up to the next bracket's lower bound). */
  lowerDollars: number;
  ratePerMille: number;
}

interface BasicPersonalAmount {
  /** The BPA (the maximum, for years with the enhanced BPA), in dollars. */
  maxDollars: number;
  /**
   * From 2020 the enhancement (max − min) phases out linearly for net income between the lower bounds of the
   * 29% and 33% brackets (Income Tax Act s. 118(1), "B", added by the December 2019 Ways and Means Motion):
   *   BPA = max − (max − min) × (income − t29) / (t33 − t29), clamped to [min, max].
   */
  minDollars?: number;
}

export interface TaxYear {
  year: number;
  brackets: TaxBracket[];
  bpa: BasicPersonalAmount;
  source: Source;
}

const CRA_RATES_PAGE =
  'https://www.canada.ca/en/revenue-agency/services/tax/individuals/frequently-asked-questions-individuals/canadian-income-tax-rates-individuals-current-previous-years.html';

const brackets = (rates: number[], lowers: number[]): TaxBracket[] =>
  rates.map((ratePerMille, i) => ({ lowerDollars: lowers[i], ratePerMille }));
const fivebrackets = (lowest: number, t1: number, t2: number, t3: number, t4: number): TaxBracket[] =>
  brackets([lowest, 205, 260, 290, 330], [0, t1, t2, t3, t4]);
// The French edition of CRA_RATES_PAGE: its title, « Les taux d'imposition canadiens pour les particuliers – année
// courante et années passées », and address as the French page gives them (it sends to the federal rates of Schedule 1,
// « annexe 1 », up to 2018 and of the Income Tax and Benefit Return, « Déclaration de revenus et de prestations », from 2019).
const CRA_RATES_PAGE_FR =
  'https://www.canada.ca/fr/agence-revenu/services/impot/particuliers/foire-questions-particuliers/taux-imposition-canadiens-particuliers-annee-courante-annees-passees.html';

const craSource = (year: number, note?: { en: string; fr: string }): Source => ({
  publication: `Canada Revenue Agency, federal tax rates and Schedule 1 (Federal Tax) of the ${year} T1 General income tax package; BPA from line 30000 of the ${year} return`,
  url: CRA_RATES_PAGE,
  french: {
    publication: `Agence du revenu du Canada, « Les taux d’imposition canadiens pour les particuliers – année courante et années passées » : taux fédéraux de la trousse d’impôt ${year} (${year <= 2018 ? 'annexe 1' : 'Déclaration de revenus et de prestations'}); montant personnel de base de la ligne 30000 de la déclaration ${year}`,
    url: CRA_RATES_PAGE_FR,
  },
  ...(note ? { note: note.en, noteFr: note.fr } : {}),
});

export const FEDERAL_TAX_YEARS: readonly TaxYear[] = [
  {
    year: 2015,
    brackets: brackets([150, 220, 260, 290], [0, 44_701, 89_401, 138_586]),
    bpa: { maxDollars: 11_327 },
    source: craSource(2015),
  },
  {
    year: 2016,
    brackets: fivebrackets(150, 45_282, 90_563, 140_388, 200_000),
    bpa: { maxDollars: 11_474 },
    source: craSource(2016, {
      en: 'The 33% bracket and the 20.5% second rate start in 2016.',
      fr: 'La tranche à 33 % et le deuxième taux de 20,5 % datent de 2016.',
    }),
  },
  { year: 2017, brackets: fivebrackets(150, 45_916, 91_831, 142_353, 202_800), bpa: { maxDollars: 11_635 }, source: craSource(2017) },
  { year: 2018, brackets: fivebrackets(150, 46_605, 93_208, 144_489, 205_842), bpa: { maxDollars: 11_809 }, source: craSource(2018) },
  { year: 2019, brackets: fivebrackets(150, 47_630, 95_259, 147_667, 210_371), bpa: { maxDollars: 12_069 }, source: craSource(2019) },
  {
    year: 2020,
    brackets: fivebrackets(150, 48_535, 97_069, 150_473, 214_368),
    bpa: { maxDollars: 13_229, minDollars: 12_298 },
    source: craSource(2020, {
      en: 'First year of the enhanced BPA (Notice of Ways and Means Motion, Department of Finance, December 9, 2019).',
      fr: 'Première année du montant personnel de base bonifié (avis de motion de voies et moyens du ministère des Finances, 9 décembre 2019).',
    }),
  },
  {
    year: 2021,
    brackets: fivebrackets(150, 49_020, 98_040, 151_978, 216_511),
    bpa: { maxDollars: 13_808, minDollars: 12_421 },
    source: craSource(2021),
  },
  {
    year: 2022,
    brackets: fivebrackets(150, 50_197, 100_392, 155_625, 221_708),
    bpa: { maxDollars: 14_398, minDollars: 12_719 },
    source: craSource(2022),
  },
  {
    year: 2023,
    brackets: fivebrackets(150, 53_359, 106_717, 165_430, 235_675),
    bpa: { maxDollars: 15_000, minDollars: 13_521 },
    source: craSource(2023),
  },
  {
    year: 2024,
    brackets: fivebrackets(150, 55_867, 111_733, 173_205, 246_752),
    bpa: { maxDollars: 15_705, minDollars: 14_156 },
    source: craSource(2024),
  },
  {
    year: 2025,
    brackets: fivebrackets(145, 57_375, 114_750, 177_882, 253_414),
    bpa: { maxDollars: 16_129, minDollars: 14_538 },
    source: craSource(2025, {
      en: 'The lowest rate fell from 15% to 14% on July 1, 2025 (Bill C-4, Making Life More Affordable for Canadians Act); the rate for the whole 2025 tax year, also used for the BPA credit, is 14.5%.',
      fr: 'Le taux le plus bas est passé de 15 % à 14 % le 1er juillet 2025 (projet de loi C-4); le taux de l’année d’imposition 2025 entière, qui s’applique aussi au crédit pour montant personnel de base, est de 14,5 %.',
    }),
  },
];

/** GST: 5% federal goods and services tax (Excise Tax Act, Part IX), as a fraction p / 1000. */
export const GST_RATE_PER_MILLE = 50;

// ---------------------------------------------------------------------------------------------------------
// Federal budgetary revenues per fiscal year (total revenues of the consolidated statement of operations).
// Fiscal year 2018 = April 1, 2018 to March 31, 2019. Each figure is the one printed in the cited document
// (later Public Accounts sometimes restate a prior year slightly; the note says where we know of one).
// Years before 2014-15 are not in the table: the calculator starts where sourced figures start.
// ---------------------------------------------------------------------------------------------------------

export interface FederalRevenue {
  fiscalYear: number;
  label: string;
  /** Total revenues, in dollars. */
  dollars: number;
  source: Source;
}

export const FEDERAL_REVENUE_TABLE_VERSION = '2025-11.1';

export const FEDERAL_REVENUES: readonly FederalRevenue[] = [
  {
    fiscalYear: 2014,
    label: '2014-15',
    dollars: 282_300_000_000,
    source: {
      publication:
        'Department of Finance Canada, Annual Financial Report of the Government of Canada, Fiscal Year 2014–2015 (revenues $282.3 billion)',
      url: 'https://www.fin.gc.ca/afr-rfa/2015/report-rapport-eng.asp',
      note: 'Figure as reported from that report (rounded to $0.1 billion); the same report gives +3.9% over 2013-14.',
      noteFr:
        'Chiffre tel que ce rapport le donne (arrondi au dixième de milliard); le même rapport indique +3,9 % par rapport à 2013-2014.',
    },
  },
  {
    fiscalYear: 2015,
    label: '2015-16',
    dollars: 295_452_700_000,
    source: {
      publication:
        'Public Accounts of Canada 2016, Volume II, Section 1, Table 1 "Consolidated statement of revenues and expenses": total revenues $295,452,700 thousand',
      url: 'http://www.tpsgc-pwgsc.gc.ca/recgen/cpc-pac/2016/vol2/s1/ecrc-csre-eng.html',
    },
  },
  {
    fiscalYear: 2016,
    label: '2016-17',
    dollars: 293_500_000_000,
    source: {
      publication:
        'Department of Finance Canada, Annual Financial Report of the Government of Canada, Fiscal Year 2016–2017, Table 1 "Financial Highlights": revenues $293.5 billion',
      url: 'https://www.canada.ca/en/department-finance/services/publications/annual-financial-report/2017/report.html',
      // The French edition: title « Rapport financier annuel du gouvernement du Canada 2016-2017 », its tableau 1
      // « Aperçu financier » with revenues of 293,5 billion, as its French page gives them.
      french: {
        publication:
          'Ministère des Finances Canada, Rapport financier annuel du gouvernement du Canada 2016-2017, tableau 1 « Aperçu financier » : revenus de 293,5 milliards de dollars',
        url: 'https://www.canada.ca/fr/ministere-finances/services/publications/rapport-financier-annuel/2017/rapport.html',
      },
    },
  },
  {
    fiscalYear: 2017,
    label: '2017-18',
    dollars: 313_606_243_000,
    source: {
      publication:
        'Public Accounts of Canada 2018, Volume II, Section 1, Table 1 "Consolidated statement of revenues and expenses": total revenues $313,606,243 thousand',
      url: 'https://www.tpsgc-pwgsc.gc.ca/recgen/cpc-pac/2018/vol2/s1/ecrc-csre-eng.html',
      note: 'The Annual Financial Report 2018–2019 restates 2017-18 revenues as $311.2 billion.',
      noteFr: 'Le Rapport financier annuel 2018-2019 ramène les revenus de 2017-2018 à 311,2 milliards de dollars.',
    },
  },
  {
    fiscalYear: 2018,
    label: '2018-19',
    dollars: 332_200_000_000,
    source: {
      publication:
        'Department of Finance Canada, Annual Financial Report of the Government of Canada, Fiscal Year 2019–2020, Table 1 "Financial Highlights": 2018-19 revenues $332.2 billion',
      url: 'https://www.canada.ca/en/department-finance/services/publications/annual-financial-report/2020/report.html',
    },
  },
  {
    fiscalYear: 2019,
    label: '2019-20',
    dollars: 334_100_000_000,
    source: {
      publication:
        'Department of Finance Canada, Annual Financial Report of the Government of Canada, Fiscal Year 2019–2020, Table 1 "Financial Highlights": revenues $334.1 billion',
      url: 'https://www.canada.ca/en/department-finance/services/publications/annual-financial-report/2020/report.html',
    },
  },
  {
    fiscalYear: 2020,
    label: '2020-21',
    dollars: 316_400_000_000,
    source: {
      publication:
        'Department of Finance Canada, Annual Financial Report of the Government of Canada, Fiscal Year 2021–2022, Table 1 "Financial Highlights": 2020-21 revenues $316.4 billion',
      url: 'https://www.canada.ca/en/department-finance/services/publications/annual-financial-report/2022/report.html',
      // The French edition: title « Rapport financier annuel du gouvernement du Canada Exercice 2021-2022 », its tableau 1
      // « Aperçu financier » with revenues of 413,3 (2021-2022) and 316,4 (2020-2021) billion, as its French page gives them.
      french: {
        publication:
          'Ministère des Finances Canada, Rapport financier annuel du gouvernement du Canada Exercice 2021-2022, tableau 1 « Aperçu financier » : revenus de 2020-2021 de 316,4 milliards de dollars',
        url: 'https://www.canada.ca/fr/ministere-finances/services/publications/rapport-financier-annuel/2022/rapport.html',
      },
    },
  },
  {
    fiscalYear: 2021,
    label: '2021-22',
    dollars: 413_300_000_000,
    source: {
      publication:
        'Department of Finance Canada, Annual Financial Report of the Government of Canada, Fiscal Year 2021–2022, Table 1 "Financial Highlights": revenues $413.3 billion',
      url: 'https://www.canada.ca/en/department-finance/services/publications/annual-financial-report/2022/report.html',
      // The French edition: title « Rapport financier annuel du gouvernement du Canada Exercice 2021-2022 », its tableau 1
      // « Aperçu financier » with revenues of 413,3 (2021-2022) and 316,4 (2020-2021) billion, as its French page gives them.
      french: {
        publication:
          'Ministère des Finances Canada, Rapport financier annuel du gouvernement du Canada Exercice 2021-2022, tableau 1 « Aperçu financier » : revenus de 413,3 milliards de dollars',
        url: 'https://www.canada.ca/fr/ministere-finances/services/publications/rapport-financier-annuel/2022/rapport.html',
      },
    },
  },
  {
    fiscalYear: 2022,
    label: '2022-23',
    dollars: 447_815_000_000,
    source: {
      publication:
        'Public Accounts of Canada 2024, Volume I, Section 2, Table 1 "Consolidated Statement of Operations and Accumulated Operating Deficit": 2023 actual total revenues $447,815 million',
      url: 'https://tpsgc-pwgsc.gc.ca/recgen/cpc-pac/2024/vol1/s2/efc-cfs-eng.html',
    },
  },
  {
    fiscalYear: 2023,
    label: '2023-24',
    dollars: 459_549_000_000,
    source: {
      publication:
        'Public Accounts of Canada 2024, Volume I, Section 2, Table 1 "Consolidated Statement of Operations and Accumulated Operating Deficit": 2024 actual total revenues $459,549 million',
      url: 'https://tpsgc-pwgsc.gc.ca/recgen/cpc-pac/2024/vol1/s2/efc-cfs-eng.html',
    },
  },
  {
    fiscalYear: 2024,
    label: '2024-25',
    dollars: 511_000_000_000,
    source: {
      publication:
        'Treasury Board of Canada Secretariat, backgrounder "Public Accounts of Canada 2025" (November 2025): revenues totalled $511.0 billion in 2025',
      url: 'https://www.canada.ca/en/treasury-board-secretariat/news/2025/11/public-accounts-of-canada-2025.html',
    },
  },
];

export const FIRST_REVENUE_YEAR = FEDERAL_REVENUES[0].fiscalYear;
export const LAST_REVENUE_YEAR = FEDERAL_REVENUES[FEDERAL_REVENUES.length - 1].fiscalYear;

const REVENUE_BY_YEAR = new Map(FEDERAL_REVENUES.map((r) => [r.fiscalYear, r]));

/** The published revenue of a fiscal year, or null when the table has none. */
export function publishedRevenue(fiscalYear: number): FederalRevenue | null {
  return REVENUE_BY_YEAR.get(fiscalYear) ?? null;
}

export function taxYearTable(year: number): TaxYear | null {
  return FEDERAL_TAX_YEARS.find((t) => t.year === year) ?? null;
}

export const FIRST_TAX_YEAR = FEDERAL_TAX_YEARS[0].year;
export const LAST_TAX_YEAR = FEDERAL_TAX_YEARS[FEDERAL_TAX_YEARS.length - 1].year;

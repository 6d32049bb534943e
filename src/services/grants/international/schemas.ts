// The international projects' API: the search, one project, the statistics (TypeBox schemas with their descriptions).
import { Type } from 'typebox';
import { choiceParam, dateParam, limitParam, offsetParam, textParam } from '../../../core/http/params.ts';
import { Nullable } from '../../../core/http/schema.ts';
import { money } from '../schemas/common.ts';
import { DEFAULT_SORT, SORT_FIELDS } from './repository.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

export const PROJECTS_DOCS = {
  summary: 'Search Global Affairs Canada’s international assistance projects',
  description:
    '`q` is a substring match, case and accents aside ("cote d\'ivoire" finds "Côte d\'Ivoire"), over the project number, the title, the description and the executing agency in English and French. ' +
    "`country` (ISO 3166-1 alpha-2 as the source writes it, or the country’s English or French name as the projects write it, case, accents and apostrophe aside: `Haiti`, `haïti`, `cote d'ivoire`; a name no project’s country has is a 400) and `sector` (OECD DAC purpose code) keep the projects that name them; all filters combine with AND. " +
    `\`count\` is the number of all matches; \`limit\` (default ${DEFAULT_LIMIT}) above ${MAX_LIMIT} is reduced to ${MAX_LIMIT}. ` +
    `Sort fields: ${SORT_FIELDS.join(', ')} (prefix \`-\` for descending; default \`${DEFAULT_SORT}\`; a missing value sorts lowest); ties are broken by id.`,
};

export const ProjectsQuery = Type.Object({
  q: Type.Optional(
    textParam('Substring of the project number, title, description or executing agency (English or French; accents aside).', 200, 'health'),
  ),
  country: Type.Optional(
    Type.String({
      minLength: 2,
      maxLength: 100,
      description:
        'ISO 3166-1 alpha-2 code (any case), e.g. `ET`, or the country’s English or French name (case, accents and apostrophe aside), e.g. `Ethiopia`, `Éthiopie`.',
      examples: ['ET'],
    }),
  ),
  sector: Type.Optional(Type.String({ pattern: '^\\d{5}$', description: 'OECD DAC purpose code, e.g. `12220` (basic health care).' })),
  status: Type.Optional(choiceParam(['operational', 'terminating', 'closed'], 'Project status (any case).', { blank: true })),
  start_from: Type.Optional(dateParam('Projects starting on or after this date.')),
  start_to: Type.Optional(dateParam('Projects starting on or before this date.')),
  min_value: Type.Optional(Type.Number({ minimum: 0, description: 'Smallest maximum contribution in dollars (inclusive).' })),
  max_value: Type.Optional(Type.Number({ minimum: 0, description: 'Largest maximum contribution in dollars (inclusive).' })),
  sort: Type.Optional(
    choiceParam(SORT_FIELDS, `Order: one of ${SORT_FIELDS.join(', ')}; a leading \`-\` means descending. Default \`${DEFAULT_SORT}\`.`, {
      blank: true,
      descending: true,
      exactCase: true,
      error: `must be one of ${SORT_FIELDS.join(', ')}, each optionally prefixed with - for descending`,
    }),
  ),
  limit: Type.Optional(limitParam(DEFAULT_LIMIT, MAX_LIMIT, 'projects per page')),
  offset: Type.Optional(offsetParam()),
});

const Allocation = Type.Object({
  code: Type.String({ description: 'ISO 3166-1 alpha-2 (countries) or OECD DAC purpose code (sectors), as the source writes it.' }),
  name_en: Type.String(),
  name_fr: Type.String(),
  percentage: Type.Number({ description: 'The share of the project the source gives it (two decimals).' }),
  maximum_contribution: money('The maximum contribution × the share (half up to the cent).'),
  disbursements: Nullable(money('Disbursements × the share; null when the project gives none.')),
});

export const ProjectRecord = Type.Object({
  id: Type.Integer(),
  project_number: Type.String({ description: 'As the source writes it, e.g. D000123001 (letter, project, sub-project).' }),
  date_modified: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  title_en: Type.String(),
  title_fr: Type.String({ description: '"" where the source gives no French.' }),
  description_en: Type.String(),
  description_fr: Type.String(),
  status: Type.String({ description: 'English status, lower case: operational, terminating, closed.' }),
  status_fr: Type.String(),
  start_date: Type.String({ description: 'YYYY-MM-DD' }),
  end_date: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  fiscal_year: Type.String({ description: 'Federal fiscal year (April to March) of the start date.' }),
  executing_agency_en: Type.String(),
  executing_agency_fr: Type.String(),
  maximum_contribution: money('Global Affairs Canada’s maximum contribution, Canadian dollars.'),
  disbursements: Nullable(money('Disbursed so far, Canadian dollars; null when the source gives none.')),
  expected_results_en: Type.String(),
  expected_results_fr: Type.String(),
  aid_type_en: Type.String(),
  aid_type_fr: Type.String(),
  program_name_en: Type.String(),
  program_name_fr: Type.String(),
  countries: Type.Array(Allocation),
  sectors: Type.Array(Allocation),
});

const DataSource = Type.Object({
  kind: Type.String({ description: '"demo" for generated data, "import" for an imported file.' }),
  is_demo: Type.Boolean(),
  source: Type.String(),
  data_version: Type.String(),
  imported_at: Type.String(),
});

export const ProjectsBody = Type.Object({
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
  results: Type.Array(ProjectRecord),
});

export const PROJECT_DOCS = { summary: 'One international assistance project' };
export const ProjectParams = Type.Object({
  project_number: Type.String({
    pattern: '^[A-Za-z0-9-]{1,40}$',
    description: 'The project number as the source writes it.',
    examples: ['D001000001'],
  }),
});

const Totals = {
  projects: Type.Integer(),
  maximum_contribution: money(),
  disbursements: money(),
};
const AllocationTotal = Type.Object({ code: Type.String(), name_en: Type.String(), name_fr: Type.String(), ...Totals });

export const STATS_DOCS = {
  summary: 'Statistics of the international assistance projects',
  description:
    'Computed at import. A country’s or sector’s amounts are each project’s maximum contribution and disbursements × the share the source gives it ' +
    '(half up to the cent), so a project in two countries counts in each for its part and `projects` counts it in each; ' +
    '`unallocated_to_countries` is what no country was given: the totals less the countries’ amounts, so it also holds the cents ' +
    'that rounding each share adds or drops (a few cents, either way: below zero where the rounding gave the countries more). `by_year` is by the fiscal year (April to March) of the start date. ' +
    'A project that gives no disbursements counts as none in the disbursement totals.',
};

export const StatsBody = Type.Object({
  totals: Type.Object({
    ...Totals,
    projects_with_disbursements: Type.Integer(),
    countries: Type.Integer(),
    sectors: Type.Integer(),
    unallocated_to_countries: Type.Object({ maximum_contribution: money(), disbursements: money() }),
  }),
  by_status: Type.Array(Type.Object({ status: Type.String(), status_fr: Type.String(), ...Totals })),
  by_country: Type.Array(AllocationTotal, { description: 'Disbursements descending.' }),
  by_sector: Type.Array(AllocationTotal, { description: 'Disbursements descending.' }),
  by_year: Type.Array(Type.Object({ year: Type.Integer(), fiscal_year: Type.String(), ...Totals })),
  data_source: DataSource,
});

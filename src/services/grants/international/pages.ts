// Global Affairs Canada's international assistance projects as pages, in English and French: the search at
// /international, one project, the statistics with their charts and data tables, and a world map shaded by
// disbursements by country with its table. Built on the same repository functions as the API.
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { HttpError, notFound } from '../../../core/http/errors.ts';
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ParameterRefusal } from '../../../core/pages/page.ts';
import { numericColumn, recordTable } from '../../../core/pages/table.ts';
import { alpha3Of, choroplethMap, worldMapCodes } from '../../../core/pages/world-map.ts';
import type { ServiceApp } from '../../../core/service.ts';
import {
  bigDollars,
  count,
  dollars,
  fiscalYearIn,
  horizontalBars,
  millions,
  option,
  pageRefusal,
  pager,
  wordsOf,
} from '../pages/shared.ts';
import type { Words } from '../pages/shared.ts';
import type { GrantsDatabase } from '../tables.ts';
import { projectQuery } from './query.ts';
import { getProject, readInternationalStats, searchProjects, withCountryCode } from './repository.ts';
import type { Project, ProjectAllocation, ProjectQuery } from './repository.ts';
import { ProjectParams, ProjectsQuery } from './schemas.ts';
import type { AllocationTotal, InternationalStats } from './stats.ts';

const PER_PAGE = 25;
/** The last page the search offers (far past the projects there are). */
const MAX_PAGE = 40_000;
const CHARTED = 15;
const STATUSES = ['operational', 'terminating', 'closed'] as const;

const inLanguage = (w: Words, en: string, fr: string) => (w.loc.language === 'fr' && fr ? fr : en);
const allocationName = (a: { name_en: string; name_fr: string; code: string }, w: Words) => inLanguage(w, a.name_en, a.name_fr) || a.code;

async function statsOf(db: Kysely<GrantsDatabase>, w: Words) {
  const stored = await readInternationalStats(db);
  if (!stored) throw new HttpError(503, w.t('intl.noData'));
  return stored;
}

function statusLabel(status: string, w: Words): string {
  return (STATUSES as readonly string[]).includes(status) ? w.t(`intl.status.${status as (typeof STATUSES)[number]}`) : status;
}

function allocationList(list: ProjectAllocation[], w: Words, kind: 'country' | 'sector'): SafeHtml | string {
  if (list.length === 0) return w.t('common.notGiven');
  return html`<ul class="plain">
    ${list.map(
      (a) =>
        html`<li>
          <a href="/international${queryString({ [kind]: a.code })}">${allocationName(a, w)}</a> (${a.code}) ·
          ${w.loc.percent(a.percentage / 100)}
        </li>`,
    )}
  </ul>`;
}

/** The query of `/international`: the API's filters the form offers, and the page. */
const ProjectsPageQuery = Type.Object({
  ...Type.Pick(ProjectsQuery, ['q', 'country', 'sector', 'status', 'start_from', 'start_to']).properties,
  page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1.' }),
});

/** The page's words, in its language, for a filter (or page) the schema refused. */
function searchRefusal(refusal: ParameterRefusal, w: Words): string | undefined {
  const value = refusal.value ?? '';
  if (refusal.name === 'country') return w.t('intl.badCountry', { value });
  if (refusal.name === 'sector') return w.t('intl.badSector', { value });
  if (refusal.name === 'status') return w.t('intl.badStatus', { value });
  if (refusal.name === 'start_from' || refusal.name === 'start_to') return w.t('intl.badDate', { name: refusal.name, value });
  if (refusal.name === 'q') return w.t('intl.longQuery');
  return pageRefusal(refusal, w, MAX_PAGE);
}

function internationalNav(w: Words): SafeHtml {
  return html`<p class="breadcrumbs">
    <a href="/international">${w.t('intl.nav.search')}</a> · <a href="/international/statistics">${w.t('intl.nav.statistics')}</a> ·
    <a href="/international/map">${w.t('intl.nav.map')}</a>
  </p>`;
}

function statisticsCharts(stats: InternationalStats, w: Words) {
  const { t } = w;
  const language = w.loc.language;
  const top = (list: AllocationTotal[]) => list.slice(0, CHARTED);
  return [
    horizontalBars({
      id: 'intl-by-country',
      title: t('intl.chart.countries', { count: Math.min(CHARTED, stats.by_country.length) }),
      description: t('intl.chart.allocatedText'),
      categories: top(stats.by_country).map((c) => allocationName(c, w)),
      series: t('intl.disbursedMillions'),
      values: top(stats.by_country).map((c) => millions(c.disbursements)),
      language,
    }),
    horizontalBars({
      id: 'intl-by-sector',
      title: t('intl.chart.sectors', { count: Math.min(CHARTED, stats.by_sector.length) }),
      description: t('intl.chart.allocatedText'),
      categories: top(stats.by_sector).map((c) => allocationName(c, w)),
      series: t('intl.disbursedMillions'),
      values: top(stats.by_sector).map((c) => millions(c.disbursements)),
      language,
    }),
    barChart({
      id: 'intl-by-year',
      title: t('intl.chart.years'),
      description: t('intl.chart.yearsText'),
      categories: stats.by_year.map((y) => fiscalYearIn(y.fiscal_year, w)),
      series: [
        { name: t('intl.contributionMillions'), values: stats.by_year.map((y) => millions(y.maximum_contribution)) },
        { name: t('intl.disbursedMillions'), values: stats.by_year.map((y) => millions(y.disbursements)) },
      ],
      valueName: t('intl.millionsAxis'),
      language,
    }),
    barChart({
      id: 'intl-by-status',
      title: t('intl.chart.status'),
      description: t('intl.chart.statusText'),
      categories: stats.by_status.map((s) => statusLabel(s.status, w)),
      series: [{ name: t('intl.projects'), values: stats.by_status.map((s) => s.projects) }],
      valueName: t('intl.projects'),
      language,
    }),
  ];
}

/** The map: disbursements by country; the table lists every country, drawn or not. */
function mapChart(stats: InternationalStats, w: Words) {
  const { t } = w;
  const drawn = worldMapCodes();
  const values = stats.by_country
    .map((c) => ({ c, alpha3: alpha3Of(c.code) }))
    .filter((v): v is { c: AllocationTotal; alpha3: string } => v.alpha3 !== undefined && drawn.has(v.alpha3));
  const missing = stats.by_country.filter((c) => !values.some((v) => v.c === c)).map((c) => allocationName(c, w));
  return choroplethMap({
    id: 'intl-world-map',
    title: t('intl.map.title'),
    description: t('intl.map.description') + (missing.length ? ` ${t('intl.map.missing', { names: missing.join(', ') })}` : ''),
    values: values.map((v) => ({ alpha3: v.alpha3, value: millions(v.c.disbursements) })),
    legend: [t('intl.map.more'), t('intl.map.less')],
    language: w.loc.language,
    table: {
      columns: [t('intl.country'), t('intl.code'), t('intl.projects'), t('intl.contributionMillions'), t('intl.disbursedMillions')],
      rows: stats.by_country.map((c) => [
        allocationName(c, w),
        c.code,
        c.projects,
        millions(c.maximum_contribution),
        millions(c.disbursements),
      ]),
    },
  });
}

/** The search form, filled with the filters read. */
function searchFormOf(filters: ProjectQuery, stats: InternationalStats, w: Words): SafeHtml {
  const { t } = w;
  const status = filters.status?.toLowerCase();
  return html`<form class="filters" method="get" action="/international" aria-label="${t('intl.search.formLabel')}">
    <label>${t('intl.search.q')} <input type="search" name="q" value="${filters.q ?? ''}" maxlength="200" /></label>
    <label
      >${t('intl.country')}
      <select name="country">
        ${option('', t('intl.any'), filters.country)}
        ${[...stats.by_country]
          .sort((a, b) => allocationName(a, w).localeCompare(allocationName(b, w), w.loc.language))
          .map((c) => option(c.code, allocationName(c, w), filters.country))}
      </select>
    </label>
    <label
      >${t('intl.sector')}
      <select name="sector">
        ${option('', t('intl.any'), filters.sector)} ${stats.by_sector.map((s) => option(s.code, allocationName(s, w), filters.sector))}
      </select>
    </label>
    <label
      >${t('intl.status')}
      <select name="status">
        ${option('', t('intl.any'), status)} ${STATUSES.map((s) => option(s, statusLabel(s, w), status))}
      </select>
    </label>
    <label>${t('intl.search.from')} <input type="date" name="start_from" value="${filters.start_from ?? ''}" /></label>
    <label>${t('intl.search.to')} <input type="date" name="start_to" value="${filters.start_to ?? ''}" /></label>
    <button type="submit">${t('intl.search.submit')}</button>
  </form>`;
}

/** The projects found, a table of one page of them (each titled in the page's language). */
function resultsTable(results: Project[], w: Words): SafeHtml | string {
  const { t } = w;
  if (results.length === 0) return '';
  return recordTable({
    caption: t('intl.search.caption'),
    hiddenCaption: true,
    columns: [
      t('intl.title'),
      t('intl.number'),
      t('intl.countries'),
      t('intl.status'),
      t('intl.start'),
      numericColumn(t('intl.contribution')),
    ],
    rows: results,
    cells: (p) => [
      html`<a href="/international/projects/${encodeURIComponent(p.project_number)}">${inLanguage(w, p.title_en, p.title_fr)}</a>`,
      p.project_number,
      p.countries.map((c) => allocationName(c, w)).join(', ') || '–',
      statusLabel(p.status, w),
      w.loc.date(p.start_date),
      dollars(p.maximum_contribution, w),
    ],
  });
}

/** One project: every field labelled, its countries and sectors linked to their searches. */
function projectBody(p: Project, w: Words): SafeHtml {
  const { t, loc } = w;
  const description = inLanguage(w, p.description_en, p.description_fr);
  const results = inLanguage(w, p.expected_results_en, p.expected_results_fr);
  return html`${internationalNav(w)}
    <h1>${inLanguage(w, p.title_en, p.title_fr)}</h1>
    <p class="stat">${dollars(p.maximum_contribution, w)}</p>
    <dl class="facts">
      <dt>${t('intl.number')}</dt>
      <dd>${p.project_number}</dd>
      <dt>${t('intl.status')}</dt>
      <dd>${statusLabel(p.status, w)}</dd>
      <dt>${t('intl.period')}</dt>
      <dd>
        ${loc.date(p.start_date)} – ${p.end_date ? loc.date(p.end_date) : t('common.notGiven')}
        (${t('intl.startYear', { year: fiscalYearIn(p.fiscal_year, w) })})
      </dd>
      <dt>${t('intl.agency')}</dt>
      <dd>${inLanguage(w, p.executing_agency_en, p.executing_agency_fr) || t('common.notGiven')}</dd>
      <dt>${t('intl.contribution')}</dt>
      <dd>${dollars(p.maximum_contribution, w)}</dd>
      <dt>${t('intl.disbursed')}</dt>
      <dd>${p.disbursements === null ? t('common.notGiven') : dollars(p.disbursements, w)}</dd>
      <dt>${t('intl.countries')}</dt>
      <dd>${allocationList(p.countries, w, 'country')}</dd>
      <dt>${t('intl.sectors')}</dt>
      <dd>${allocationList(p.sectors, w, 'sector')}</dd>
      <dt>${t('intl.program')}</dt>
      <dd>${inLanguage(w, p.program_name_en, p.program_name_fr) || t('common.notGiven')}</dd>
      <dt>${t('intl.aidType')}</dt>
      <dd>${inLanguage(w, p.aid_type_en, p.aid_type_fr) || t('common.notGiven')}</dd>
    </dl>
    ${
      description
        ? html`<h2>${t('intl.descriptionHeading')}</h2>
            <p>${description}</p>`
        : ''
    }
    ${
      results
        ? html`<h2>${t('intl.expectedResults')}</h2>
            <p>${results}</p>`
        : ''
    }
    <p class="muted">
      ${t('intl.project.note')}
      <a href="/api/api/international/projects/${encodeURIComponent(p.project_number)}/">${t('grant.json')}</a>.
    </p>`;
}

/** The statistics page around its charts (drawn, in the order of statisticsCharts). */
function statisticsBody(stats: InternationalStats, version: string, figures: SafeHtml[], w: Words): SafeHtml {
  const { t } = w;
  const totals = stats.totals;
  return html`<h1>${t('intl.stats.heading')}</h1>
    ${internationalNav(w)}
    <div class="stats-row">
      <p><span class="stat">${count(totals.projects, w)}</span> ${t('intl.stats.projects', { count: totals.projects })}</p>
      <p><span class="stat">${bigDollars(totals.maximum_contribution, w)}</span> ${t('intl.stats.contribution')}</p>
      <p><span class="stat">${bigDollars(totals.disbursements, w)}</span> ${t('intl.stats.disbursed')}</p>
      <p><span class="stat">${count(totals.countries, w)}</span> ${t('intl.stats.countries', { count: totals.countries })}</p>
    </div>
    <p class="muted">
      ${t('intl.stats.note', {
        unallocated: bigDollars(totals.unallocated_to_countries.disbursements, w),
        reported: totals.projects_with_disbursements,
        version,
      })}
    </p>
    <div class="grid-2">${figures.slice(0, 2)}</div>
    <div class="grid-2">${figures.slice(2, 4)}</div>`;
}

/** The search: the form, the count and a page of projects. */
function searchPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  definePage(app, kit, {
    url: '/international',
    query: ProjectsPageQuery,
    async read({ query, locale }) {
      const { stats } = await statsOf(db, wordsOf(locale));
      const { page, ...filters } = query;
      // the country as its code, whether the URL names it by code (any case) or by name, so the form selects it
      const search = await withCountryCode(db, projectQuery(filters, { limit: PER_PAGE, offset: (page - 1) * PER_PAGE }));
      return { stats, search, page, ...(await searchProjects(db, search)) };
    },
    render({ stats, search, page, count: total, results }, { locale }) {
      const w = wordsOf(locale);
      const { t } = w;
      const { q, country, sector, status, start_from, start_to } = search;
      return {
        title: t('intl.search.title'),
        description: t('intl.search.description'),
        section: '/international',
        body: html`<h1>${t('intl.search.heading')}</h1>
          ${internationalNav(w)}
          <p class="lead">${t('intl.search.lead', { projects: stats.totals.projects })}</p>
          ${searchFormOf(search, stats, w)}
          <p role="status">${t('intl.search.count', { count: total })}</p>
          ${resultsTable(results, w)}
          ${pager('/international', { q, country, sector, status: status?.toLowerCase(), start_from, start_to }, page, Math.max(1, Math.ceil(total / PER_PAGE)), w)}`,
      };
    },
    explain: (refusal, locale) => searchRefusal(refusal, wordsOf(locale)),
  });
}

export function internationalPages(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  searchPage(app, db, kit);

  definePage(app, kit, {
    url: '/international/projects/:number',
    params: Type.Object({ number: ProjectParams.properties.project_number }),
    async read({ params, locale }) {
      const p = await getProject(db, params.number);
      if (!p) throw notFound(wordsOf(locale).t('intl.notFound', { number: params.number }));
      return p;
    },
    render(p, { locale }) {
      const w = wordsOf(locale);
      return {
        title: inLanguage(w, p.title_en, p.title_fr),
        description: w.t('intl.project.description', { number: p.project_number, value: dollars(p.maximum_contribution, w) }),
        section: '/international',
        body: projectBody(p, w),
      };
    },
    explain: (refusal, locale) =>
      refusal.name === 'number' ? wordsOf(locale).t('intl.badNumber', { value: refusal.value ?? '' }) : undefined,
  });

  definePage(app, kit, {
    url: '/international/statistics',
    read: async ({ locale }) => statsOf(db, wordsOf(locale)),
    render({ stats, data_source }, { locale, chart }) {
      const w = wordsOf(locale);
      // each chart cached under its id, the language and the data version (the page has no parameters)
      const figures = statisticsCharts(stats, w).map((spec) => chart(spec.id, () => spec));
      return {
        title: w.t('intl.stats.title'),
        description: w.t('intl.stats.description'),
        section: '/international',
        body: statisticsBody(stats, data_source.data_version, figures, w),
      };
    },
  });

  definePage(app, kit, {
    url: '/international/map',
    read: async ({ locale }) => statsOf(db, wordsOf(locale)),
    render({ stats }, { locale, chart }) {
      const w = wordsOf(locale);
      const { t } = w;
      return {
        title: t('intl.map.pageTitle'),
        description: t('intl.map.pageDescription'),
        section: '/international',
        body: html`<h1>${t('intl.map.heading')}</h1>
          ${internationalNav(w)}
          <p class="lead">${t('intl.map.lead')}</p>
          ${chart('intl-world-map', () => mapChart(stats, w))}`,
      };
    },
  });
}

// Global Affairs Canada's international assistance projects as pages, in English and French: the search at
// /international, one project, the statistics with their charts and data tables, and a world map shaded by
// disbursements by country with its table. Built on the same repository functions as the API.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { HttpError, badRequest, notFound } from '../../../core/http/errors.ts';
import { barChart, html, queryString } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { alpha3Of, choroplethMap, worldMapCodes } from '../../../core/pages/world-map.ts';
import type { ServiceApp } from '../../../core/service.ts';
import {
  bigDollars,
  count,
  dollars,
  horizontalBars,
  millions,
  option,
  pager,
  param,
  parsePageNumber,
  sendPage,
  wordsOf,
} from '../pages/shared.ts';
import type { Words } from '../pages/shared.ts';
import type { GrantsDatabase } from '../tables.ts';
import { DEFAULT_SORT, getProject, readInternationalStats, searchProjects } from './repository.ts';
import type { Project, ProjectAllocation } from './repository.ts';
import type { AllocationTotal, InternationalStats } from './stats.ts';

const PER_PAGE = 25;
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

/** The search form's values, checked (a bad one is a 400 page naming it). */
function searchForm(request: FastifyRequest, w: Words) {
  const q = request.query;
  const text = (name: string) => param(q, name)?.trim() || undefined;
  const country = text('country')?.toUpperCase();
  if (country && !/^[A-Z]{2}$/.test(country)) throw badRequest(w.t('intl.badCountry', { value: country }));
  const sector = text('sector');
  if (sector && !/^\d{5}$/.test(sector)) throw badRequest(w.t('intl.badSector', { value: sector }));
  const status = text('status')?.toLowerCase();
  if (status && !(STATUSES as readonly string[]).includes(status)) throw badRequest(w.t('intl.badStatus', { value: status }));
  const date = (name: string) => {
    const value = text(name);
    if (value === undefined) return undefined;
    const d = new Date(`${value}T00:00:00Z`);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
      throw badRequest(w.t('intl.badDate', { name, value }));
    return value;
  };
  const q2 = text('q');
  if (q2 && q2.length > 200) throw badRequest(w.t('intl.longQuery'));
  return { q: q2, country, sector, status, start_from: date('start_from'), start_to: date('start_to') };
}

function projectRow(p: Project, w: Words): SafeHtml {
  return html`<tr>
    <td><a href="/international/projects/${encodeURIComponent(p.project_number)}">${inLanguage(w, p.title_en, p.title_fr)}</a></td>
    <td>${p.project_number}</td>
    <td>${p.countries.map((c) => allocationName(c, w)).join(', ') || '–'}</td>
    <td>${statusLabel(p.status, w)}</td>
    <td>${w.loc.date(p.start_date)}</td>
    <td class="num">${dollars(p.maximum_contribution, w)}</td>
  </tr>`;
}

function internationalNav(w: Words): SafeHtml {
  return html`<p class="breadcrumbs">
    <a href="/international">${w.t('intl.nav.search')}</a> · <a href="/international/statistics">${w.t('intl.nav.statistics')}</a> ·
    <a href="/international/map">${w.t('intl.nav.map')}</a>
  </p>`;
}

export function statisticsCharts(stats: InternationalStats, w: Words) {
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
      categories: stats.by_year.map((y) => y.fiscal_year),
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
export function mapChart(stats: InternationalStats, w: Words) {
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

export function internationalPages(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit): void {
  app.get('/international', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const w = wordsOf(kit, request);
      const { t } = w;
      const { stats } = await statsOf(db, w);
      const form = searchForm(request, w);
      const page = parsePageNumber(param(request.query, 'page'), w, 40_000);
      const { count: total, results } = await searchProjects(db, {
        ...form,
        sort: DEFAULT_SORT,
        limit: PER_PAGE,
        offset: (page - 1) * PER_PAGE,
      });
      const pages = Math.max(1, Math.ceil(total / PER_PAGE));
      return {
        title: t('intl.search.title'),
        description: t('intl.search.description'),
        section: '/international',
        body: html`<h1>${t('intl.search.heading')}</h1>
          ${internationalNav(w)}
          <p class="lead">${t('intl.search.lead', { projects: stats.totals.projects })}</p>
          <form class="filters" method="get" action="/international" aria-label="${t('intl.search.formLabel')}">
            <label>${t('intl.search.q')} <input type="search" name="q" value="${form.q ?? ''}" maxlength="200" /></label>
            <label
              >${t('intl.country')}
              <select name="country">
                ${option('', t('intl.any'), form.country)}
                ${[...stats.by_country]
                  .sort((a, b) => allocationName(a, w).localeCompare(allocationName(b, w), w.loc.language))
                  .map((c) => option(c.code, allocationName(c, w), form.country))}
              </select>
            </label>
            <label
              >${t('intl.sector')}
              <select name="sector">
                ${option('', t('intl.any'), form.sector)} ${stats.by_sector.map((s) => option(s.code, allocationName(s, w), form.sector))}
              </select>
            </label>
            <label
              >${t('intl.status')}
              <select name="status">
                ${option('', t('intl.any'), form.status)} ${STATUSES.map((s) => option(s, statusLabel(s, w), form.status))}
              </select>
            </label>
            <label>${t('intl.search.from')} <input type="date" name="start_from" value="${form.start_from ?? ''}" /></label>
            <label>${t('intl.search.to')} <input type="date" name="start_to" value="${form.start_to ?? ''}" /></label>
            <button type="submit">${t('intl.search.submit')}</button>
          </form>
          <p role="status">${t('intl.search.count', { count: total })}</p>
          ${
            results.length
              ? html`<div class="table-scroll">
                  <table class="data">
                    <caption class="visually-hidden">
                      ${t('intl.search.caption')}
                    </caption>
                    <thead>
                      <tr>
                        <th scope="col">${t('intl.title')}</th>
                        <th scope="col">${t('intl.number')}</th>
                        <th scope="col">${t('intl.countries')}</th>
                        <th scope="col">${t('intl.status')}</th>
                        <th scope="col">${t('intl.start')}</th>
                        <th scope="col" class="num">${t('intl.contribution')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${results.map((p) => projectRow(p, w))}
                    </tbody>
                  </table>
                </div>`
              : ''
          }
          ${pager('/international', { ...form }, page, pages, w)}`,
      };
    }),
  );

  app.get('/international/projects/:number', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const w = wordsOf(kit, request);
      const { t, loc } = w;
      const number = (request.params as { number: string }).number;
      if (!/^[A-Za-z0-9-]{1,40}$/.test(number)) throw badRequest(t('intl.badNumber', { value: number }));
      const p = await getProject(db, number);
      if (!p) throw notFound(t('intl.notFound', { number }));
      const title = inLanguage(w, p.title_en, p.title_fr);
      const description = inLanguage(w, p.description_en, p.description_fr);
      const results = inLanguage(w, p.expected_results_en, p.expected_results_fr);
      return {
        title,
        description: t('intl.project.description', { number: p.project_number, value: dollars(p.maximum_contribution, w) }),
        section: '/international',
        body: html`${internationalNav(w)}
          <h1>${title}</h1>
          <p class="stat">${dollars(p.maximum_contribution, w)}</p>
          <dl class="facts">
            <dt>${t('intl.number')}</dt>
            <dd>${p.project_number}</dd>
            <dt>${t('intl.status')}</dt>
            <dd>${statusLabel(p.status, w)}</dd>
            <dt>${t('intl.period')}</dt>
            <dd>${loc.date(p.start_date)} – ${p.end_date ? loc.date(p.end_date) : t('common.notGiven')} (${p.fiscal_year})</dd>
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
          </p>`,
      };
    }),
  );

  app.get('/international/statistics', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const w = wordsOf(kit, request);
      const { t } = w;
      const { stats, data_source } = await statsOf(db, w);
      const key = `grants:intl:${data_source.data_version}:${w.loc.language}`;
      const figures = statisticsCharts(stats, w).map((spec) => kit.charts.figure(`${key}:${spec.id}`, () => spec));
      const totals = stats.totals;
      return {
        title: t('intl.stats.title'),
        description: t('intl.stats.description'),
        section: '/international',
        body: html`<h1>${t('intl.stats.heading')}</h1>
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
              version: data_source.data_version,
            })}
          </p>
          <div class="grid-2">${figures.slice(0, 2)}</div>
          <div class="grid-2">${figures.slice(2, 4)}</div>`,
      };
    }),
  );

  app.get('/international/map', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const w = wordsOf(kit, request);
      const { t } = w;
      const { stats, data_source } = await statsOf(db, w);
      const figure = kit.charts.figure(`grants:intl:${data_source.data_version}:${w.loc.language}:map`, () => mapChart(stats, w));
      return {
        title: t('intl.map.pageTitle'),
        description: t('intl.map.pageDescription'),
        section: '/international',
        body: html`<h1>${t('intl.map.heading')}</h1>
          ${internationalNav(w)}
          <p class="lead">${t('intl.map.lead')}</p>
          ${figure}`,
      };
    }),
  );
}

// `/statistics`: the dashboard. By fiscal year, province, recipient type, NAICS sector, value range and largest recipients
// from the aggregates stored at import (what GET /api/stats/, /api/recipients/ and
// /api/comprehensive-stats/ serve); by department from C's search index (search/memory-search.ts: no
// stored aggregate has it). Every chart has its numbers in a table beside it.
import type { Kysely } from 'kysely';
import { HttpError } from '../../../core/http/errors.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { ChartSpec, PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { GrantsComprehensiveStats, GrantsRecipients, GrantsStats } from '../aggregates.ts';
import { readAggregate } from '../repository.ts';
import type { GrantsDatabase } from '../tables.ts';
import type { GrantsSearch } from '../search/grants-search.ts';
import type { DepartmentTotal } from '../search/memory-search.ts';
import { comprehensiveIn, recipientsIn } from '../aggregate-labels.ts';
import { bigDollars, codeLabel, count, dollars, fiscalYearIn, horizontalBars, millions, provinceName, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

export const TOP_DEPARTMENTS = 15;
const TOP_RECIPIENTS_CHARTED = 15;

/** The dashboard's charts, from the stored aggregates and the department totals (the test counts their bars). */
function dashboardCharts(
  stats: GrantsStats,
  recipients: GrantsRecipients,
  comprehensive: GrantsComprehensiveStats,
  departments: DepartmentTotal[],
  w: Words,
): ChartSpec[] {
  const { t } = w;
  const language = w.loc.language;
  const totalMillions = t('money.totalMillions');
  const years = stats.by_year;
  const topDepartments = departments.slice(0, TOP_DEPARTMENTS);
  // named as GET /api/recipients/ names them in this language
  const topRecipients = recipientsIn(recipients, language).top_recipients.slice(0, TOP_RECIPIENTS_CHARTED);
  return [
    barChart({
      id: 'value-by-year',
      title: t('chart.valueByYear'),
      description: t('chart.valueByYearText'),
      categories: years.map((y) => fiscalYearIn(y.fiscal_year, w)),
      series: [{ name: totalMillions, values: years.map((y) => millions(y.total_value)) }],
      valueName: t('money.millionsAxis'),
      language,
    }),
    barChart({
      id: 'count-by-year',
      title: t('chart.countByYear'),
      description: t('chart.countByYearText'),
      categories: years.map((y) => fiscalYearIn(y.fiscal_year, w)),
      series: [{ name: t('common.agreements'), values: years.map((y) => y.count) }],
      valueName: t('common.agreementsAxis'),
      language,
    }),
    horizontalBars({
      id: 'value-by-province',
      title: t('chart.valueByProvince'),
      description: t('chart.largestFirst'),
      categories: stats.by_province.map((p) => provinceName(p.recipient_province, w)),
      series: totalMillions,
      values: stats.by_province.map((p) => millions(p.total_value)),
      language,
    }),
    horizontalBars({
      id: 'value-by-recipient-type',
      title: t('chart.valueByType'),
      description: t('chart.largestFirst'),
      categories: recipients.by_type.map((r) => codeLabel('recipientType', r.recipient_type, w) ?? r.label),
      series: totalMillions,
      values: recipients.by_type.map((r) => millions(r.total_value)),
      language,
    }),
    horizontalBars({
      id: 'value-by-department',
      title: t('chart.departments', { count: topDepartments.length }),
      description: t('chart.departmentsText', { all: departments.length }),
      categories: topDepartments.map((d) => (language === 'fr' && d.title_fr) || d.title),
      series: totalMillions,
      values: topDepartments.map((d) => millions(d.total_value_cents / 100)),
      language,
    }),
    horizontalBars({
      id: 'largest-recipients',
      title: t('chart.largestRecipients', { count: topRecipients.length }),
      description: t('chart.largestRecipientsText'),
      categories: topRecipients.map((r) => r.recipient_legal_name),
      series: totalMillions,
      values: topRecipients.map((r) => millions(r.total_value)),
      language,
    }),
    horizontalBars({
      id: 'value-by-sector',
      title: t('chart.valueBySector'),
      description: t('chart.largestFirst'),
      // labelled as GET /api/comprehensive-stats/ labels them (the agreements with no sector included)
      categories: comprehensiveIn(comprehensive, language).sector_analysis.map((s) => s.label ?? s.naics_sector_en),
      series: totalMillions,
      values: comprehensive.sector_analysis.map((s) => millions(s.total_value)),
      language,
    }),
    barChart({
      id: 'count-by-value-range',
      title: t('chart.byValue'),
      description: t('chart.byValueText'),
      categories: comprehensiveIn(comprehensive, language).value_distribution.map((r) => r.range),
      series: [{ name: t('common.agreements'), values: comprehensive.value_distribution.map((r) => r.count) }],
      valueName: t('common.agreementsAxis'),
      language,
    }),
  ];
}

/** The dashboard around its charts (drawn, in the order of dashboardCharts). */
function dashboard(
  basic: GrantsComprehensiveStats['basic_stats'],
  recipients: number,
  version: string,
  figures: SafeHtml[],
  w: Words,
): SafeHtml {
  const { t } = w;
  return html`<h1>${t('stats.heading')}</h1>
    <div class="stats-row">
      <p><span class="stat">${count(basic.total_grants, w)}</span> ${t('stats.agreements', { count: basic.total_grants })}</p>
      <p><span class="stat">${bigDollars(basic.total_value, w)}</span> ${t('stats.inAll')}</p>
      <p><span class="stat">${dollars(basic.median_value, w)}</span> ${t('stats.median')}</p>
      <p><span class="stat">${dollars(basic.average_value, w)}</span> ${t('stats.average')}</p>
      <p><span class="stat">${count(basic.major_funding_count, w)}</span> ${t('stats.overMillion')}</p>
      <p><span class="stat">${count(basic.notable_count, w)}</span> ${t('stats.notable')}</p>
    </div>
    <p class="muted">${t('stats.note', { version })}</p>
    <h2>${t('stats.byYear')}</h2>
    <div class="grid-2">${figures.slice(0, 2)}</div>
    <h2>${t('stats.where')}</h2>
    <div class="grid-2">${figures.slice(2, 4)}</div>
    <h2>${t('stats.who')}</h2>
    <div class="grid-2">${figures.slice(4, 6)}</div>
    ${figures[6]}
    <p><a href="/recipients">${t('stats.recipientsLink', { count: recipients })}</a></p>
    <h2>${t('stats.size')}</h2>
    ${figures[7]}`;
}

export function statisticsPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit, search: GrantsSearch): void {
  definePage(app, kit, {
    url: '/statistics',
    async read({ locale }) {
      const [stats, recipients, comprehensive] = await Promise.all([
        readAggregate(db, 'stats'),
        readAggregate(db, 'recipients'),
        readAggregate(db, 'comprehensive'),
      ]);
      if (!stats || !recipients || !comprehensive) throw new HttpError(503, wordsOf(locale).t('error.noData'));
      return { stats, recipients: recipients.value, comprehensive: comprehensive.value, departments: await search.departments() };
    },
    render({ stats, recipients, comprehensive, departments }, { locale, chart }) {
      const w = wordsOf(locale);
      // each chart cached under its id, the language and the data version (the page has no parameters)
      const figures = dashboardCharts(stats.value, recipients, comprehensive, departments, w).map((spec) => chart(spec.id, () => spec));
      return {
        title: w.t('stats.title'),
        description: w.t('stats.description'),
        section: '/statistics',
        body: dashboard(comprehensive.basic_stats, recipients.top_recipients.length, stats.data_version, figures, w),
      };
    },
  });
}

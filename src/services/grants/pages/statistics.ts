// `/statistics`: the dashboard. By fiscal year, province, recipient type, value range and largest recipients
// from the aggregates stored at import (what GET /api/stats/, /api/recipients/ and
// /api/comprehensive-stats/ serve); by department from the pages' agreement index (agreement-index.ts: no
// stored aggregate has it). Every chart has its numbers in a table beside it.
import type { Kysely } from 'kysely';
import { HttpError } from '../../../core/http/errors.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { ChartSpec, PageKit } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { GrantsComprehensiveStats, GrantsRecipients, GrantsStats } from '../aggregates.ts';
import { readAggregate } from '../repository.ts';
import { PROVINCE_NAMES_EN } from '../source/index.ts';
import type { GrantsDatabase } from '../tables.ts';
import type { AgreementIndex, DepartmentTotal } from './agreement-index.ts';
import { bigDollars, count, dollars, horizontalBars, millions, sendPage } from './shared.ts';

export const TOP_DEPARTMENTS = 15;
export const TOP_RECIPIENTS_CHARTED = 15;

const NO_DATA = 'no grants data has been imported yet; run `pdi import grants <csv>` (or start the server with demo data)';

const provinceName = (code: string): string =>
  code === '' ? 'Not given or outside Canada' : (PROVINCE_NAMES_EN[code as keyof typeof PROVINCE_NAMES_EN] ?? code);

/** The dashboard's charts, from the stored aggregates and the department totals (the test counts their bars). */
export function dashboardCharts(
  stats: GrantsStats,
  recipients: GrantsRecipients,
  comprehensive: GrantsComprehensiveStats,
  departments: DepartmentTotal[],
): ChartSpec[] {
  const years = stats.by_year;
  const topDepartments = departments.slice(0, TOP_DEPARTMENTS);
  const topRecipients = recipients.top_recipients.slice(0, TOP_RECIPIENTS_CHARTED);
  return [
    barChart({
      id: 'value-by-year',
      title: 'Value of agreements by fiscal year',
      description: 'Total value of the agreements of each fiscal year (April to March), in millions of dollars.',
      categories: years.map((y) => y.fiscal_year),
      series: [{ name: 'Total value ($ millions)', values: years.map((y) => millions(y.total_value)) }],
      valueName: '$ millions',
    }),
    barChart({
      id: 'count-by-year',
      title: 'Number of agreements by fiscal year',
      description: 'Agreements of each fiscal year, each counted once at its latest amendment.',
      categories: years.map((y) => y.fiscal_year),
      series: [{ name: 'Agreements', values: years.map((y) => y.count) }],
      valueName: 'agreements',
    }),
    horizontalBars({
      id: 'value-by-province',
      title: 'Value by province or territory of the recipient',
      description: 'Total value in millions of dollars, largest first.',
      categories: stats.by_province.map((p) => provinceName(p.recipient_province)),
      series: 'Total value ($ millions)',
      values: stats.by_province.map((p) => millions(p.total_value)),
    }),
    horizontalBars({
      id: 'value-by-recipient-type',
      title: 'Value by type of recipient',
      description: 'Total value in millions of dollars, largest first.',
      categories: recipients.by_type.map((t) => t.label),
      series: 'Total value ($ millions)',
      values: recipients.by_type.map((t) => millions(t.total_value)),
    }),
    horizontalBars({
      id: 'value-by-department',
      title: `The ${topDepartments.length} departments that agreed the most`,
      description: `Total value of the agreements each department published, in millions of dollars (${departments.length} departments in all).`,
      categories: topDepartments.map((d) => d.title),
      series: 'Total value ($ millions)',
      values: topDepartments.map((d) => millions(d.total_value_cents / 100)),
    }),
    horizontalBars({
      id: 'largest-recipients',
      title: `The ${topRecipients.length} largest recipients`,
      description: 'Total value of all agreements of each recipient (by legal name as published), in millions of dollars.',
      categories: topRecipients.map((r) => r.recipient_legal_name),
      series: 'Total value ($ millions)',
      values: topRecipients.map((r) => millions(r.total_value)),
    }),
    barChart({
      id: 'count-by-value-range',
      title: 'Agreements by value',
      description: 'Number of agreements in each value range (the lower bound included, the upper one not).',
      categories: comprehensive.value_distribution.map((r) => r.range),
      series: [{ name: 'Agreements', values: comprehensive.value_distribution.map((r) => r.count) }],
      valueName: 'agreements',
    }),
  ];
}

export function statisticsPage(app: ServiceApp, db: Kysely<GrantsDatabase>, kit: PageKit, index: AgreementIndex): void {
  app.get('/statistics', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const [stats, recipients, comprehensive] = await Promise.all([
        readAggregate(db, 'stats'),
        readAggregate(db, 'recipients'),
        readAggregate(db, 'comprehensive'),
      ]);
      if (!stats || !recipients || !comprehensive) throw new HttpError(503, NO_DATA);
      const departments = await index.departments();
      const version = stats.data_version;
      const figures = dashboardCharts(stats.value, recipients.value, comprehensive.value, departments).map((spec) =>
        kit.charts.figure(`grants:stats:${version}:${spec.id}`, () => spec),
      );
      const basic = comprehensive.value.basic_stats;
      return {
        title: 'Statistics',
        description: 'Federal grants and contributions by fiscal year, province, recipient type, department and largest recipients.',
        section: '/statistics',
        body: html`<h1>Federal grants in numbers</h1>
          <div class="stats-row">
            <p><span class="stat">${count(basic.total_grants)}</span> agreements</p>
            <p><span class="stat">${bigDollars(basic.total_value)}</span> in all</p>
            <p><span class="stat">${dollars(basic.median_value)}</span> median agreement</p>
            <p><span class="stat">${dollars(basic.average_value)}</span> average agreement</p>
            <p><span class="stat">${count(basic.major_funding_count)}</span> over $1 million</p>
            <p><span class="stat">${count(basic.notable_count)}</span> flagged as notable</p>
          </div>
          <p class="muted">
            Each agreement is counted once, at its latest amendment. Computed when the data was imported (data version
            <code>${version}</code>).
          </p>
          <h2>By fiscal year</h2>
          <div class="grid-2">${figures.slice(0, 2)}</div>
          <h2>Where the money goes</h2>
          <div class="grid-2">${figures.slice(2, 4)}</div>
          <h2>Who gives and who receives</h2>
          <div class="grid-2">${figures.slice(4, 6)}</div>
          <p><a href="/recipients">The ${recipients.value.top_recipients.length} largest recipients, with links to each</a></p>
          <h2>Size of the agreements</h2>
          ${figures[6]}`,
      };
    }),
  );
}

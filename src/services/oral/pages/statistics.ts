// `/statistics`: the statistics of GET /api/stats/ (computed at import) as charts, each with its numbers in a
// table beside it.
import type { Kysely } from 'kysely';
import { notFound } from '../../../core/http/errors.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { readStats } from '../aggregates.ts';
import type { OralStats } from '../schemas/index.ts';
import type { OralDatabase } from '../tables.ts';
import { certaintyOf, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

/** The charts of the page, built from the stored statistics (the test counts their bars against these). */
function statisticsCharts(s: OralStats, w: Words) {
  const { t } = w;
  const r = s.recommendations;
  const recommendations = t('chart.recommendations');
  return [
    barChart({
      id: 'recommendations-by-country',
      title: t('chart.byCountry.title'),
      description: t('chart.byCountry.description'),
      categories: r.by_country.map((c) => c.name),
      series: [{ name: recommendations, values: r.by_country.map((c) => c.count) }],
      valueName: t('chart.recommendationsValue'),
    }),
    barChart({
      id: 'recommendations-by-topic',
      title: t('chart.byTopic.title'),
      description: t('chart.byTopic.description'),
      categories: r.by_topic.map((x) => x.name),
      series: [{ name: recommendations, values: r.by_topic.map((x) => x.count) }],
      horizontal: true,
    }),
    barChart({
      id: 'recommendations-by-strength',
      title: t('chart.byStrength.title'),
      description: t('chart.byStrength.description'),
      categories: [...r.by_strength.map((x) => x.name), t('guideline.notStated')],
      series: [{ name: recommendations, values: [...r.by_strength.map((x) => x.count), r.without_strength] }],
      valueName: t('chart.recommendationsValue'),
    }),
    barChart({
      id: 'recommendations-by-evidence',
      title: t('chart.byEvidence.title'),
      description: t('chart.byEvidence.description'),
      categories: [...r.by_evidence_quality.map((x) => x.name), t('guideline.notGraded')],
      series: [{ name: recommendations, values: [...r.by_evidence_quality.map((x) => x.count), r.without_evidence_quality] }],
      valueName: t('chart.recommendationsValue'),
    }),
    barChart({
      id: 'guidelines-by-country',
      title: t('chart.guidelinesByCountry.title'),
      description: t('chart.guidelinesByCountry.description'),
      categories: s.guidelines.by_country.map((c) => c.name),
      series: [{ name: t('chart.guidelines'), values: s.guidelines.by_country.map((c) => c.count) }],
      valueName: t('chart.guidelinesValue'),
    }),
    barChart({
      id: 'outcomes-by-certainty',
      title: t('chart.byCertainty.title'),
      description: t('chart.byCertainty.description'),
      categories: s.reviews.by_certainty.map((c) => certaintyOf(c.certainty === 'not_rated' ? null : c.certainty, w).label),
      series: [{ name: t('chart.outcomes'), values: s.reviews.by_certainty.map((c) => c.count) }],
      valueName: t('chart.outcomesValue'),
    }),
  ];
}

export function statisticsPage(app: ServiceApp, db: Kysely<OralDatabase>, kit: PageKit): void {
  definePage(app, kit, {
    url: '/statistics',
    async read() {
      const stored = await readStats(db);
      if (!stored) throw notFound('no data has been imported yet, so there are no statistics');
      return stored.value;
    },
    render(s, { locale, chart }) {
      const w = wordsOf(locale);
      const { t } = w;
      const charts = statisticsCharts(s, w).map((spec) => chart(spec.id, () => spec));
      const stat = (n: number, label: string) => html`<p><span class="stat">${locale.number(n)}</span> ${label}</p>`;
      return {
        title: t('stats.title'),
        description: t('stats.description'),
        section: '/statistics',
        body: html`<h1>${t('stats.heading')}</h1>
          <div class="stats-row">
            ${stat(s.recommendations.total, t('stats.recommendations'))} ${stat(s.guidelines.total, t('stats.guidelines'))}
            ${stat(s.reviews.total, t('stats.reviews'))} ${stat(s.reviews.total_outcomes, t('stats.outcomes'))}
          </div>
          <p class="muted">${t('stats.computed', { date: s.generated_at.slice(0, 10) })} <code>${s.data_version}</code>.</p>
          <h2>${t('stats.recommendationsHeading')}</h2>
          <div class="grid-2">${charts.slice(0, 2)}</div>
          <div class="grid-2">${charts.slice(2, 4)}</div>
          <h2>${t('stats.guidelinesHeading')}</h2>
          <div class="grid-2">${charts.slice(4)}</div>`,
      };
    },
  });
}

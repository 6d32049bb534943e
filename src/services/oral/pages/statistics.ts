// `/statistics`: the statistics of GET /api/stats/ (computed at import) as charts, each with its numbers in a
// table beside it.
import type { Kysely } from 'kysely';
import { notFound } from '../../../core/http/errors.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { PageKit } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { readStats } from '../aggregates.ts';
import type { OralStats } from '../schemas/index.ts';
import type { OralDatabase } from '../tables.ts';
import { certaintyOf, formatCount, sendPage } from './shared.ts';

/** The charts of the page, built from the stored statistics (the test counts their bars against these). */
function statisticsCharts(s: OralStats) {
  const r = s.recommendations;
  return [
    barChart({
      id: 'recommendations-by-country',
      title: 'Recommendations by country',
      description: 'Number of recommendations of the guidelines of each country (UK includes its nations).',
      categories: r.by_country.map((c) => c.name),
      series: [{ name: 'Recommendations', values: r.by_country.map((c) => c.count) }],
      valueName: 'recommendations',
    }),
    barChart({
      id: 'recommendations-by-topic',
      title: 'Recommendations by topic',
      description: 'Number of recommendations on each topic, most frequent first; a recommendation may have several topics.',
      categories: r.by_topic.map((t) => t.name),
      series: [{ name: 'Recommendations', values: r.by_topic.map((t) => t.count) }],
      horizontal: true,
    }),
    barChart({
      id: 'recommendations-by-strength',
      title: 'Strength of the recommendations',
      description: 'How strongly the guidelines recommend, as they grade it; "Not stated" where the source gives no strength.',
      categories: [...r.by_strength.map((x) => x.name), 'Not stated'],
      series: [{ name: 'Recommendations', values: [...r.by_strength.map((x) => x.count), r.without_strength] }],
      valueName: 'recommendations',
    }),
    barChart({
      id: 'recommendations-by-evidence',
      title: 'Quality of the evidence behind the recommendations',
      description: 'GRADE quality of evidence as the guidelines give it; "Not graded" where the source gives none.',
      categories: [...r.by_evidence_quality.map((x) => x.name), 'Not graded'],
      series: [{ name: 'Recommendations', values: [...r.by_evidence_quality.map((x) => x.count), r.without_evidence_quality] }],
      valueName: 'recommendations',
    }),
    barChart({
      id: 'guidelines-by-country',
      title: 'Guidelines by country',
      description: 'Number of clinical practice guidelines of each country.',
      categories: s.guidelines.by_country.map((c) => c.name),
      series: [{ name: 'Guidelines', values: s.guidelines.by_country.map((c) => c.count) }],
      valueName: 'guidelines',
    }),
    barChart({
      id: 'outcomes-by-certainty',
      title: 'Certainty of the evidence in the systematic reviews',
      description: 'Summary-of-findings outcomes of all reviews by GRADE certainty; "Not rated" where the review gives none.',
      categories: s.reviews.by_certainty.map((c) => certaintyOf(c.certainty === 'not_rated' ? null : c.certainty).label),
      series: [{ name: 'Outcomes', values: s.reviews.by_certainty.map((c) => c.count) }],
      valueName: 'outcomes',
    }),
  ];
}

export function statisticsPage(app: ServiceApp, db: Kysely<OralDatabase>, kit: PageKit): void {
  app.get('/statistics', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const stored = await readStats(db);
      if (!stored) throw notFound('no data has been imported yet, so there are no statistics');
      const s = stored.value;
      const charts = statisticsCharts(s).map((spec) => kit.charts.figure(`oral:stats:${stored.data_version}:${spec.id}`, () => spec));
      return {
        title: 'Statistics',
        description:
          'Oral health recommendations, guidelines and systematic reviews in numbers, by country, topic, strength and certainty.',
        section: '/statistics',
        body: html`<h1>The evidence in numbers</h1>
          <div class="stats-row">
            <p><span class="stat">${formatCount(s.recommendations.total)}</span> recommendations</p>
            <p><span class="stat">${formatCount(s.guidelines.total)}</span> guidelines</p>
            <p><span class="stat">${formatCount(s.reviews.total)}</span> systematic reviews</p>
            <p><span class="stat">${formatCount(s.reviews.total_outcomes)}</span> review outcomes</p>
          </div>
          <p class="muted">
            Computed when the data was imported (${s.generated_at.slice(0, 10)}), data version <code>${s.data_version}</code>.
          </p>
          <h2>Recommendations</h2>
          <div class="grid-2">${charts.slice(0, 2)}</div>
          <div class="grid-2">${charts.slice(2, 4)}</div>
          <h2>Guidelines and reviews</h2>
          <div class="grid-2">${charts.slice(4)}</div>`,
      };
    }),
  );
}

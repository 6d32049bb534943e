// `/papers/{record_id}`: one Retraction Watch record with its citations per citing year split at the notice
// (stacked bars: before or on the day of the notice, and after it), the timing of the citations after it, the
// record's descriptive fields and its citing works, paged. Validated by the schemas of the API's citing works
// (path and query); the figures are GET /api/paper/{record_id}/citations/'s (paperCitations), the list is
// GET /api/papers/{record_id}/citing-works/'s (citingWorks).
import { notFound } from '../../../core/http/errors.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { paperCitations } from '../repository.ts';
import type { PaperCitations } from '../repository.ts';
import { citingWorksSchema } from '../schemas/papers.ts';
import { TIMING_BUCKETS } from '../windows.ts';
import type { RetractionDb } from '../tables.ts';
import { recordDetails } from './reads.ts';
import type { RecordDetails } from './reads.ts';
import { citingWorks } from '../citing-works.ts';
import type { CitingWorksPage } from '../citing-works.ts';
import { citingList } from './citing-list.ts';
import { natureBadge, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

/** Citing works listed per page on the paper's page. */
export const CITING_PAGE_SIZE = 50;

/** Every year from the first to the last citing year (years without citations are zeros, not gaps). */
export function yearSpan(years: readonly string[]): string[] {
  const numbers = years.map(Number).filter(Number.isFinite);
  if (numbers.length === 0) return [];
  const out: string[] = [];
  for (let y = Math.min(...numbers); y <= Math.max(...numbers); y++) out.push(String(y));
  return out;
}

/** The per-year split of a paper's citations: before or on the notice day, and after it (null without a notice date). */
function citationSplit(c: PaperCitations): { years: string[]; before: number[]; after: number[] } | null {
  if (!c.paper.retraction_date) return null;
  const years = yearSpan(Object.keys(c.citations_by_year));
  return {
    years,
    before: years.map((y) => (c.citations_by_year[y] ?? 0) - (c.post_retraction_by_year[y] ?? 0)),
    after: years.map((y) => c.post_retraction_by_year[y] ?? 0),
  };
}

function field(label: string, value: string | null | undefined): SafeHtml {
  return value
    ? html`<dt>${label}</dt>
        <dd>${value}</dd>`
    : html``;
}

type Chart = (id: string, build: () => ReturnType<typeof barChart>) => SafeHtml;

/** The citations per citing year: split at the notice when it has a date, else whole. */
function perYearChart(c: PaperCitations, after: string, chart: Chart, { t }: Words): SafeHtml {
  if (Object.keys(c.citations_by_year).length === 0) return html`<p class="note">${t('paper.noYear')}</p>`;
  const split = citationSplit(c);
  if (split)
    return chart('citations-per-year', () =>
      barChart({
        id: 'citations-per-year',
        title: t('paper.chart.split.title'),
        description: t('paper.chart.split.description', { date: c.paper.retraction_date, after }),
        categories: split.years,
        series: [
          { name: t('paper.chart.upTo'), values: split.before },
          { name: t('paper.chart.after'), values: split.after },
        ],
        stacked: true,
        valueName: t('paper.chart.citations'),
      }),
    );
  const years = yearSpan(Object.keys(c.citations_by_year));
  return html`<p class="note">${t('paper.noNoticeDate')}</p>
    ${chart('citations-per-year-unsplit', () =>
      barChart({
        id: 'citations-per-year',
        title: t('paper.chart.unsplit.title'),
        description: t('paper.chart.unsplit.description'),
        categories: years,
        series: [{ name: t('paper.chart.unsplit.series'), values: years.map((y) => c.citations_by_year[y] ?? 0) }],
        valueName: t('paper.chart.citations'),
      }),
    )}`;
}

function timingChart(c: PaperCitations, after: string, chart: Chart, { t }: Words): SafeHtml {
  if (c.post_retraction_count === 0) return html`<p>${t('paper.noAfter', { after })}</p>`;
  return chart('citation-timing', () =>
    barChart({
      id: 'citation-timing',
      title: t('paper.chart.timing.title', { after }),
      description: t('paper.chart.timing.description', { after }),
      categories: TIMING_BUCKETS.map((b) => t(`timing.${b}`)),
      series: [{ name: t('paper.chart.timing.series', { after }), values: TIMING_BUCKETS.map((b) => c.post_retraction_timing[b]) }],
      valueName: t('paper.chart.citations'),
      height: 260,
    }),
  );
}

function facts(c: PaperCitations, details: RecordDetails, { t }: Words): SafeHtml {
  const retracted = c.paper.nature === 'retraction';
  const doiLink = (label: string, doi: string | null) =>
    doi
      ? html`<dt>${label}</dt>
          <dd><a href="https://doi.org/${doi}">${doi}</a></dd>`
      : '';
  return html`<dl class="facts">
    ${field(t('paper.authors'), details.author.split('; ').join(', '))} ${field(t('paper.journal'), c.paper.journal)}
    ${field(t('paper.publisher'), details.publisher)} ${field(t('paper.published'), c.paper.original_paper_date)}
    ${field(retracted ? t('paper.retracted') : t('paper.notice'), c.paper.retraction_date ?? t('paper.dateUnknown'))}
    ${doiLink(t('paper.doi'), c.paper.doi)} ${doiLink(t('paper.noticeDoi'), details.retraction_doi)}
    ${field(t('paper.subjects'), details.subject.split('; ').join(', '))}
    ${field(t('paper.countries'), details.country.split('; ').join(', '))} ${field(t('paper.articleType'), details.article_type)}
    ${field(t('paper.reasons'), details.reason?.split('; ').join(', '))}
  </dl>`;
}

function paperBody(c: PaperCitations, details: RecordDetails, citing: CitingWorksPage, chart: Chart, w: Words): SafeHtml {
  const { t, loc } = w;
  const nature = c.paper.nature;
  const after = nature === 'retraction' ? t('after.retraction') : t('after.notice');
  const recordId = c.record_id;
  return html`<article>
    <p class="muted"><a href="/">${t('paper.back')}</a></p>
    <h1>${c.paper.title}</h1>
    <ul class="badges">
      <li>${natureBadge(nature, w)}</li>
      ${c.paper.is_demo ? html`<li><span class="badge warn">${t('paper.demo')}</span></li>` : ''}
    </ul>
    ${nature !== 'retraction' ? html`<p class="note">${t('paper.notRetraction', { kind: c.paper.retraction_nature || 'none' })}</p>` : ''}
    ${facts(c, details, w)}
    <h2>${t('paper.citations')}</h2>
    <div class="stats-row">
      <p><span class="stat">${loc.number(c.total_citations)}</span>${t('paper.inAll')}</p>
      <p><span class="stat">${loc.number(c.post_retraction_count)}</span>${after}</p>
      <p><span class="stat">${loc.number(c.pre_retraction_count)}</span>${t('paper.before')}</p>
      <p><span class="stat">${loc.number(c.same_day_count)}</span>${t('paper.sameDay')}</p>
    </div>
    ${c.undated_count > 0 ? html`<p class="muted">${t('paper.undated', { n: c.undated_count })}</p>` : ''}
    ${perYearChart(c, after, chart, w)} ${timingChart(c, after, chart, w)} ${citingList(recordId, citing, w)}
    <p class="muted">
      ${t('common.asJson')} <a href="/api/paper/${encodeURIComponent(recordId)}/citations/">/api/paper/${recordId}/citations/</a>
    </p>
  </article>`;
}

export function paperPage(app: ServiceApp, db: RetractionDb, kit: PageKit): void {
  definePage(app, kit, {
    url: '/papers/:record_id',
    params: citingWorksSchema.params,
    query: citingWorksSchema.querystring,
    async read({ params, query }) {
      const recordId = params.record_id.trim();
      const c = await paperCitations(db, recordId);
      const details = await recordDetails(db, recordId);
      const citing = await citingWorks(db, recordId, { when: query.when ?? 'all', page: query.page, limit: CITING_PAGE_SIZE });
      if (!c || !details || !citing) throw notFound(`paper ${recordId} not found`);
      return { c, details, citing };
    },
    render({ c, details, citing }, { locale, chart }) {
      const w = wordsOf(locale);
      return {
        title: c.paper.title,
        description: w.t('paper.description', { title: c.paper.title, nature: c.paper.nature }),
        section: '/',
        body: paperBody(c, details, citing, chart, w),
      };
    },
  });
}

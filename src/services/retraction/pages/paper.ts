// `/papers/{record_id}`: one Retraction Watch record with its citations per citing year split at the notice
// (stacked bars: before or on the day of the notice, and after it), the timing of the citations after it, the
// record's descriptive fields and its citing works, paged. The figures are GET /api/paper/{record_id}/citations/'s
// (paperCitations); the list is GET /api/papers/{record_id}/citing-works/'s (citingWorks).
import { badRequest, notFound } from '../../../core/http/errors.ts';
import { barChart, html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { paperCitations } from '../repository.ts';
import type { PaperCitations } from '../repository.ts';
import { TIMING_BUCKETS } from '../windows.ts';
import type { RetractionDb } from '../tables.ts';
import { recordDetails } from './reads.ts';
import { CITING_WHEN, citingWorks } from '../citing-works.ts';
import type { CitingWhen, CitingWorksPage } from '../citing-works.ts';
import { afterWords, formatCount, natureBadge, oneOfParam, pageNumber, param, sendPage } from './shared.ts';

/** Citing works listed per page on the paper's page. */
export const CITING_PAGE_SIZE = 50;

const WHEN_LABELS: Record<CitingWhen, string> = {
  all: 'All',
  before: 'Before the notice',
  same_day: 'On the notice day',
  after: 'After the notice',
  undated: 'Undated',
};

function citingList(recordId: string, list: CitingWorksPage): SafeHtml {
  const base = `/papers/${encodeURIComponent(recordId)}`;
  const href = (when: CitingWhen, page: number) => {
    const q = new URLSearchParams();
    if (when !== 'all') q.set('when', when);
    if (page > 1) q.set('page', String(page));
    const s = q.toString();
    return `${base}${s ? `?${s}` : ''}#citing-works`;
  };
  const count = (w: CitingWhen) =>
    w === 'all' ? list.counts.before + list.counts.same_day + list.counts.after + list.counts.undated : list.counts[w];
  const words: Record<CitingWorksPage['works'][number]['timing'], string> = {
    before: 'before',
    same_day: 'same day',
    after: 'after',
    undated: 'undated',
  };
  return html`<section aria-labelledby="citing-works">
    <h2 id="citing-works">Citing works</h2>
    <nav aria-label="Citing works by timing">
      <ul class="badges">
        ${CITING_WHEN.map(
          (w) =>
            html`<li>
              ${
                w === list.when
                  ? html`<strong aria-current="page">${WHEN_LABELS[w]} (${formatCount(count(w))})</strong>`
                  : html`<a href="${href(w, 1)}">${WHEN_LABELS[w]} (${formatCount(count(w))})</a>`
              }
            </li>`,
        )}
      </ul>
    </nav>
    ${
      list.works.length === 0
        ? html`<p role="status">No citing work ${list.page > 1 ? 'on this page' : 'here'}.</p>`
        : html`<div class="table-scroll">
            <table class="data">
              <caption>
                Works citing this paper, ${WHEN_LABELS[list.when].toLowerCase()}, oldest first: page ${list.page} of ${list.total_pages}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Citing work</th>
                  <th scope="col">Date</th>
                  <th scope="col">Days after the notice</th>
                  <th scope="col">Timing</th>
                </tr>
              </thead>
              <tbody>
                ${list.works.map(
                  (w) =>
                    html`<tr>
                      <td>${w.doi ? html`<a href="https://doi.org/${w.doi}">${w.doi}</a>` : w.citing_id}</td>
                      <td>
                        ${w.date ? (w.date_precision === 'year' ? String(w.year) : w.date_precision === 'month' ? w.date.slice(0, 7) : w.date) : '—'}
                      </td>
                      <td>${w.days_after_notice === null ? '—' : formatCount(w.days_after_notice)}</td>
                      <td>${words[w.timing]}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }
    ${
      list.total_pages > 1
        ? html`<nav class="pager" aria-label="Pages of citing works">
            ${list.page > 1 ? html`<a rel="prev" href="${href(list.when, list.page - 1)}">← Previous</a>` : ''}
            <span>Page ${list.page} of ${list.total_pages}</span>
            ${list.page < list.total_pages ? html`<a rel="next" href="${href(list.when, list.page + 1)}">Next →</a>` : ''}
          </nav>`
        : ''
    }
    <p class="muted">
      The citation sources give a citing work's identifier, DOI and date, not its title or journal. As JSON:
      <a href="/api/papers/${encodeURIComponent(recordId)}/citing-works/">/api/papers/${recordId}/citing-works/</a>
    </p>
  </section>`;
}

export const TIMING_LABELS: Record<(typeof TIMING_BUCKETS)[number], string> = {
  within_30_days: '1–30 days',
  within_1_year: '31–365 days',
  within_2_years: '366–730 days',
  after_2_years: 'over 2 years',
};

/** Every year from the first to the last citing year (years without citations are zeros, not gaps). */
export function yearSpan(years: readonly string[]): string[] {
  const numbers = years.map(Number).filter(Number.isFinite);
  if (numbers.length === 0) return [];
  const out: string[] = [];
  for (let y = Math.min(...numbers); y <= Math.max(...numbers); y++) out.push(String(y));
  return out;
}

/** The per-year split of a paper's citations: before or on the notice day, and after it (null without a notice date). */
export function citationSplit(c: PaperCitations): { years: string[]; before: number[]; after: number[] } | null {
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

export function paperPage(app: ServiceApp, db: RetractionDb, kit: PageKit): void {
  app.get('/papers/:record_id', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const recordId = (request.params as { record_id: string }).record_id.trim();
      if (!recordId || recordId.length > 64) throw badRequest('a record id is the Retraction Watch Record ID: 1 to 64 characters');
      const when = oneOfParam('when', param(request.query, 'when'), CITING_WHEN, 'all');
      const page = pageNumber(param(request.query, 'page'));
      const c = await paperCitations(db, recordId);
      const details = await recordDetails(db, recordId);
      const citing = await citingWorks(db, recordId, { when, page, limit: CITING_PAGE_SIZE });
      if (!c || !details || !citing) throw notFound(`paper ${recordId} not found`);
      const version = await kit.dataVersion();
      const nature = c.paper.nature;
      const after = afterWords(nature);
      const split = citationSplit(c);
      let perYear: SafeHtml;
      if (Object.keys(c.citations_by_year).length === 0) {
        perYear = html`<p class="note">No citation of this paper has a known citing year.</p>`;
      } else if (split) {
        perYear = kit.charts.figure(`${version}:paper:${recordId}:per-year`, () =>
          barChart({
            id: 'citations-per-year',
            title: 'Citations per year, before and after the notice',
            description: `Citations of this paper per citing year, stacked: up to and including the day of the notice (${c.paper.retraction_date}), and ${after}. Citations dated only to a month or year count from its first day.`,
            categories: split.years,
            series: [
              { name: 'Up to the notice day', values: split.before },
              { name: 'After the notice', values: split.after },
            ],
            stacked: true,
            valueName: 'citations',
          }),
        );
      } else {
        const years = yearSpan(Object.keys(c.citations_by_year));
        perYear = html`<p class="note">The record has no notice date, so its citations cannot be split at the notice.</p>
          ${kit.charts.figure(`${version}:paper:${recordId}:per-year-unsplit`, () =>
            barChart({
              id: 'citations-per-year',
              title: 'Citations per year',
              description: 'Citations of this paper per citing year (the notice date is unknown, so they are not split).',
              categories: years,
              series: [{ name: 'Citations', values: years.map((y) => c.citations_by_year[y] ?? 0) }],
              valueName: 'citations',
            }),
          )}`;
      }
      const timing =
        c.post_retraction_count > 0
          ? kit.charts.figure(`${version}:paper:${recordId}:timing`, () =>
              barChart({
                id: 'citation-timing',
                title: `How long ${after} the citations came`,
                description: `Citations ${after}, by days between the notice and the citing work.`,
                categories: TIMING_BUCKETS.map((b) => TIMING_LABELS[b]),
                series: [{ name: `Citations ${after}`, values: TIMING_BUCKETS.map((b) => c.post_retraction_timing[b]) }],
                valueName: 'citations',
                height: 260,
              }),
            )
          : html`<p>No citation came ${after}.</p>`;
      return {
        title: c.paper.title,
        description: `Citations of “${c.paper.title}” before and after its ${nature === 'retraction' ? 'retraction' : 'notice'}.`,
        section: '/',
        body: html`<article>
          <p class="muted"><a href="/">← Search</a></p>
          <h1>${c.paper.title}</h1>
          <ul class="badges">
            <li>${natureBadge(nature)}</li>
            ${c.paper.is_demo ? html`<li><span class="badge warn">generated demo record</span></li>` : ''}
          </ul>
          ${
            nature !== 'retraction'
              ? html`<p class="note">
                  This notice is ${c.paper.retraction_nature ? html`an “${c.paper.retraction_nature}”` : 'not a retraction'}, not a
                  retraction: the paper was not retracted, and “after” below means after this notice.
                </p>`
              : ''
          }
          <dl class="facts">
            ${field('Authors', details.author.split('; ').join(', '))} ${field('Journal', c.paper.journal)}
            ${field('Publisher', details.publisher)} ${field('Published', c.paper.original_paper_date)}
            ${field(nature === 'retraction' ? 'Retracted' : 'Notice', c.paper.retraction_date ?? 'date unknown')}
            ${
              c.paper.doi
                ? html`<dt>DOI</dt>
                    <dd><a href="https://doi.org/${c.paper.doi}">${c.paper.doi}</a></dd>`
                : ''
            }
            ${
              details.retraction_doi
                ? html`<dt>Notice DOI</dt>
                    <dd><a href="https://doi.org/${details.retraction_doi}">${details.retraction_doi}</a></dd>`
                : ''
            }
            ${field('Subjects', details.subject.split('; ').join(', '))} ${field('Countries', details.country.split('; ').join(', '))}
            ${field('Article type', details.article_type)} ${field('Reasons', details.reason?.split('; ').join(', '))}
          </dl>
          <h2>Citations</h2>
          <div class="stats-row">
            <p><span class="stat">${formatCount(c.total_citations)}</span>citations in all</p>
            <p><span class="stat">${formatCount(c.post_retraction_count)}</span>${after}</p>
            <p><span class="stat">${formatCount(c.pre_retraction_count)}</span>before the notice</p>
            <p><span class="stat">${formatCount(c.same_day_count)}</span>on the day of the notice</p>
          </div>
          ${
            c.undated_count > 0
              ? html`<p class="muted">
                  ${formatCount(c.undated_count)} citations have no date to compare with the notice; they count in the total only.
                </p>`
              : ''
          }
          ${perYear} ${timing} ${citingList(recordId, citing)}
          <p class="muted">
            As JSON: <a href="/api/paper/${encodeURIComponent(recordId)}/citations/">/api/paper/${recordId}/citations/</a>
          </p>
        </article>`,
      };
    }),
  );
}

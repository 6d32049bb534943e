// The citing works of a paper on its page: links by timing against the notice with their counts, one page of works
// (oldest first) and the pager; what GET /api/papers/{record_id}/citing-works/ answers.
import { html } from '../../../core/pages/index.ts';
import type { SafeHtml } from '../../../core/pages/index.ts';
import { CITING_WHEN } from '../citing-works.ts';
import type { CitingWhen, CitingWorksPage } from '../citing-works.ts';
import { pager } from './shared.ts';
import type { Words } from './shared.ts';

type Work = CitingWorksPage['works'][number];

/** A citing date as precise as the source gives it (a year, a month, a day). */
function dateText(w: Work, none: string): string {
  if (!w.date) return none;
  return w.date_precision === 'year' ? String(w.year) : w.date_precision === 'month' ? w.date.slice(0, 7) : w.date;
}

function worksTable(list: CitingWorksPage, w: Words): SafeHtml {
  const { t, loc } = w;
  const none = t('common.none');
  return html`<div class="table-scroll">
    <table class="data">
      <caption>
        ${t('citing.caption', { when: list.when, page: list.page, pages: list.total_pages })}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('citing.col.work')}</th>
          <th scope="col">${t('citing.col.date')}</th>
          <th scope="col">${t('citing.col.days')}</th>
          <th scope="col">${t('citing.col.timing')}</th>
        </tr>
      </thead>
      <tbody>
        ${list.works.map(
          (work) =>
            html`<tr>
              <td>${work.doi ? html`<a href="https://doi.org/${work.doi}">${work.doi}</a>` : work.citing_id}</td>
              <td>${dateText(work, none)}</td>
              <td>${work.days_after_notice === null ? none : loc.number(work.days_after_notice)}</td>
              <td>${t(`citing.timing.${work.timing}`)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function citingList(recordId: string, list: CitingWorksPage, w: Words): SafeHtml {
  const { t } = w;
  const base = `/papers/${encodeURIComponent(recordId)}`;
  const href = (when: CitingWhen, page: number) => {
    const q = new URLSearchParams();
    if (when !== 'all') q.set('when', when);
    if (page > 1) q.set('page', String(page));
    const s = q.toString();
    return `${base}${s ? `?${s}` : ''}#citing-works`;
  };
  const count = (when: CitingWhen) =>
    when === 'all' ? list.counts.before + list.counts.same_day + list.counts.after + list.counts.undated : list.counts[when];
  return html`<section aria-labelledby="citing-works">
    <h2 id="citing-works">${t('citing.heading')}</h2>
    <nav aria-label="${t('citing.byTiming')}">
      <ul class="badges">
        ${CITING_WHEN.map((when) => {
          const label = t('citing.whenCount', { label: t(`citing.when.${when}`), n: count(when) });
          return html`<li>
            ${when === list.when ? html`<strong aria-current="page">${label}</strong>` : html`<a href="${href(when, 1)}">${label}</a>`}
          </li>`;
        })}
      </ul>
    </nav>
    ${
      list.works.length === 0
        ? html`<p role="status">${t('citing.none', { paged: list.page > 1 ? 'yes' : 'no' })}</p>`
        : worksTable(list, w)
    }
    ${pager(list.page, list.total_pages, (p) => href(list.when, p), t('citing.pages'), w)}
    <p class="muted">
      ${t('citing.note')} ${t('common.asJson')}
      <a href="/api/papers/${encodeURIComponent(recordId)}/citing-works/">/api/papers/${recordId}/citing-works/</a>
    </p>
  </section>`;
}

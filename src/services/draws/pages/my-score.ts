// `/my-score?crs=&category=`: the chance that a CRS score clears the cut-off of the category's next draw (and of
// the draws after it), from the stored forecast and its 95% interval (clearance.ts), with the method and what it
// cannot know written beside it. A GET form, so an answer has an address and works without JavaScript.
import { Type } from 'typebox';
import { badRequest } from '../../../core/http/errors.ts';
import { withError } from '../../../core/http/params.ts';
import { html } from '../../../core/pages/index.ts';
import type { HtmlValue, PageKit, PageLocale, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import type { CategoryRecord } from '../repository.ts';
import { DrawsQuery } from '../schemas/draws.ts';
import type { DrawsState } from '../state.ts';
import { drawOrdinal } from './category.ts';
import { CRS_RANGE, CUTOFF_LAW, centralRange, clearance, lawCdf, lawScales } from './clearance.ts';
import { dataAgeNotice, forecastOf, formCategories, readForecastView } from './forecast-view.ts';
import type { ForecastView } from './forecast-view.ts';
import {
  CATEGORY_WORDS,
  categoryNames,
  chosenCategory,
  dateRange,
  errorNote,
  parameterMessage,
  percent,
  range,
  score,
  scoreForm,
  statusNote,
  wordsOf,
} from './shared.ts';
import type { Words } from './shared.ts';

/**
 * The form's parameters: a CRS score and a category (as GET /api/draws/ takes it). The score is digits checked against
 * its maximum by `read`, so that every refusal of it is worded by the page (an integer parameter's "abc" is refused
 * by the kernel before the page's words are reached).
 */
const MyScoreQuery = Type.Object({
  crs: Type.Optional(withError(Type.String({ pattern: '^[0-9]{1,4}$', description: 'A CRS score.' }), 'must be a whole number')),
  category: DrawsQuery.properties.category,
});

function forecastOfDraw(p: Prediction) {
  return { point: p.predicted_crs_score, margin: p.uncertainty_range.margin_of_error };
}

function answer(crs: number, category: CategoryRecord, view: ForecastView, w: Words): SafeHtml {
  const { t, loc } = w;
  const predictions = view.predictions.get(category.id) ?? [];
  const forecast = forecastOf(view, category.id);
  const heading = html`<h2 id="result-heading">${t('myScore.resultHeading', { crs, name: category.name })}</h2>`;
  if (predictions.length === 0) {
    const last = view.statistics?.categories[String(category.id)];
    return html`<section class="card" id="result" aria-labelledby="result-heading">
      ${heading} ${statusNote(forecast, category, view.forecastsAsOf ?? view.asOf, w)}
      <p>
        ${t('myScore.noForecast')}${last?.latest_draw_date ? html` ${t('myScore.lastDraw', { date: loc.date(last.latest_draw_date) })}` : ''}
        <a href="/categories/${category.id}">${t('myScore.itsDraws')}</a>.
      </p>
    </section>`;
  }
  const [next, ...later] = predictions;
  const p = clearance(crs, forecastOfDraw(next));
  const half = centralRange(forecastOfDraw(next), 0.5);
  return html`<section class="card" id="result" aria-labelledby="result-heading">
    ${heading}
    <p><span class="stat" id="chance">${percent(p.atOrBelow, w)}</span> ${t('myScore.chance', { crs })}</p>
    <ul>
      <li>${t('myScore.below', { crs })} <strong id="chance-below">${percent(p.below, w)}</strong>.</li>
      <li>${t('myScore.equal', { crs })} <strong id="chance-equal">${percent(p.equal, w)}</strong>; ${t('myScore.tieBreak')}</li>
    </ul>
    <p>
      ${t('myScore.next', {
        name: category.name,
        earliest: loc.date(next.date_range.earliest),
        latest: loc.date(next.date_range.latest),
        date: loc.date(next.predicted_date),
        point: score(next.predicted_crs_score, w),
        range: range(next.uncertainty_range.min, next.uncertainty_range.max, w),
        lower: score(Math.round(half.lower * 10) / 10, w),
        upper: score(Math.round(half.upper * 10) / 10, w),
      })}
      ${
        next.likely_window
          ? t('myScore.likely', {
              earliest: loc.date(next.likely_window.earliest),
              latest: loc.date(next.likely_window.latest),
              probability: percent(next.likely_window.probability, w),
            })
          : ''
      }
      ${next.likely_window && view.source.stale === true ? t('common.likelyStale') : ''}
    </p>
    ${forecast?.status === 'young' ? statusNote(forecast, category, view.forecastsAsOf ?? view.asOf, w) : ''}
    ${
      later.length > 0
        ? html`<div class="table-scroll">
              <table class="data" id="later-draws">
                <caption>
                  ${t('myScore.laterCaption', { name: category.name })}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">${t('common.draw')}</th>
                    <th scope="col">${t('common.dateRange90')}</th>
                    <th scope="col" class="num">${t('myScore.forecastCutoff')}</th>
                    <th scope="col" class="num">${t('common.interval95')}</th>
                    <th scope="col" class="num">${t('myScore.atOrBelow', { crs })}</th>
                  </tr>
                </thead>
                <tbody>
                  ${predictions.map(
                    (d) =>
                      html`<tr>
                        <td>${drawOrdinal(d.rank, w)}</td>
                        <td class="range">${dateRange(d.date_range.earliest, d.date_range.latest, w)}</td>
                        <td class="num">${score(d.predicted_crs_score, w)}</td>
                        <td class="num range">${range(d.uncertainty_range.min, d.uncertainty_range.max, w)}</td>
                        <td class="num">${percent(clearance(crs, forecastOfDraw(d)).atOrBelow, w)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            <p class="muted">${t('myScore.notIndependent')}</p>`
        : ''
    }
  </section>`;
}

/**
 * What the law puts outside the 95% interval it is scaled by (the same for every forecast: the law is in units of m),
 * so that a chance beside the interval's ends is not read as contradicting it.
 */
function lawBeyondInterval(w: Words): SafeHtml {
  const { t, loc } = w;
  const above = 1 - lawCdf(1, 0, 1);
  const below = lawCdf(-1, 0, 1);
  return html`<p id="law-and-interval">
    ${t('myScore.lawAndInterval', {
      outside: loc.percent(above + below, 1),
      above: loc.percent(above, 1),
      below: loc.percent(below, 1),
      top: loc.percent(1 - above, 1),
    })}
  </p>`;
}

/** The formulas of the method (myScore.method says them in words), one a line. */
const FORMULA = ['myScore.formulaScale', 'myScore.formulaBelow', 'myScore.formulaAbove', 'myScore.formulaCutoff'] as const;

function method(view: ForecastView, crs: number | undefined, category: CategoryRecord | undefined, w: Words): SafeHtml {
  const { t, loc } = w;
  const next = category ? view.predictions.get(category.id)?.[0] : undefined;
  const worked =
    next && crs !== undefined
      ? html`<p>
          ${t('myScore.worked', {
            point: score(next.predicted_crs_score, w),
            margin: score(next.uncertainty_range.margin_of_error, w),
            lower: loc.fixed(lawScales(next.uncertainty_range.margin_of_error).lower, 2),
            upper: loc.fixed(lawScales(next.uncertainty_range.margin_of_error).upper, 2),
            crs,
          })}
        </p>`
      : '';
  return html`<h2>${t('myScore.how')}</h2>
    <p>${t('myScore.method')}</p>
    <pre class="formula">
${FORMULA.map((key) => t(key, { p: loc.fixed(CUTOFF_LAW.belowShare, 3), lower: loc.fixed(CUTOFF_LAW.lowerScale, 3), upper: loc.fixed(CUTOFF_LAW.upperScale, 3) })).join('\n')}</pre>
    ${worked}
    <p>
      ${t('myScore.interval')} <a href="/models">${t('myScore.models')}</a>${t('myScore.shape', {
        script: 'src/services/draws/pages/score-calibration.ts',
      })}
    </p>
    ${lawBeyondInterval(w)}
    <h2>${t('myScore.cannot')}</h2>
    <ul id="caveats">
      <li>${t('myScore.caveat1')}</li>
      <li>${t('myScore.caveat2')}</li>
      <li>${t('myScore.caveat3')}</li>
      <li>${t('myScore.caveat4')}</li>
    </ul>`;
}

/** The page around its answer (or the message of a bad query): the form keeps what the client wrote. */
function frame(
  view: ForecastView,
  form: Readonly<Record<string, string>>,
  category: CategoryRecord | undefined,
  result: HtmlValue,
  w: Words,
) {
  const crs = category !== undefined && form.crs !== undefined ? Number(form.crs) : undefined;
  return {
    title: w.t('myScore.title'),
    description: w.t('myScore.description'),
    section: '/my-score',
    body: html`<h1>${w.t('myScore.heading')}</h1>
      <p class="lead">${w.t('myScore.lead')}</p>
      ${dataAgeNotice(view, w)} ${scoreForm(formCategories(view), { crs: form.crs, category: category?.id }, w)} ${result}
      ${method(view, crs, category, w)}`,
  };
}

const readView = (state: DrawsState, locale: PageLocale) => readForecastView(state, locale.language);

export function myScorePage(app: ServiceApp, state: DrawsState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/my-score',
    query: MyScoreQuery,
    async read({ query, locale }) {
      const w = wordsOf(locale);
      if ((query.crs === undefined) !== (query.category === undefined)) {
        throw badRequest(w.t(query.crs === undefined ? 'myScore.needScore' : 'myScore.needCategory'));
      }
      const crs = query.crs === undefined ? undefined : Number(query.crs);
      if (crs !== undefined && crs > CRS_RANGE.max) throw badRequest(w.t('myScore.crsMax', { max: CRS_RANGE.max, value: crs }));
      const category = await chosenCategory(state, query.category, await categoryNames(state, locale.language), w);
      return { view: await readView(state, locale), crs, category };
    },
    render({ view, crs, category }, { form, locale }) {
      const w = wordsOf(locale);
      const result = crs !== undefined && category !== undefined ? answer(crs, category, view, w) : html``;
      return frame(view, form, category, result, w);
    },
    refused: async (problem, { form, locale }) =>
      frame(await readView(state, locale), form, undefined, errorNote(problem.message, locale), wordsOf(locale)),
    explain: parameterMessage({
      ...CATEGORY_WORDS,
      crs: (value, w) => w.t('myScore.crsWhole', { min: CRS_RANGE.min, max: CRS_RANGE.max, value }),
    }),
  });
}

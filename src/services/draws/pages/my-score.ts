// `/my-score?crs=&category=`: the chance that a CRS score clears the cut-off of the category's next draw (and of
// the draws after it), from the stored forecast and its 95% interval (clearance.ts), with the method and what it
// cannot know written beside it. A GET form, so an answer has an address and works without JavaScript.
import { badRequest } from '../../../core/http/errors.ts';
import { html } from '../../../core/pages/index.ts';
import type { PageKit, PageRequest, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { Prediction } from '../forecast/forecast-panel.ts';
import type { CategoryRecord } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
import { drawOrdinal } from './category.ts';
import { CLEARANCE_FORMULA, CLEARANCE_METHOD, CRS_RANGE, centralRange, clearance, laplaceScaleFor95 } from './clearance.ts';
import { dataAgeNotice, forecastOf, formCategories, readForecastView } from './forecast-view.ts';
import type { ForecastView } from './forecast-view.ts';
import { categoryParam, dateRange, errorNote, param, percent, range, score, scoreForm, sendPage, statusNote } from './shared.ts';

/** A CRS score typed in the form: a whole number from 0 to 1200 (400 otherwise). */
export function parseScore(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,4}$/.test(value)) throw badRequest(`crs must be a whole number from ${CRS_RANGE.min} to ${CRS_RANGE.max}, got "${value}"`);
  const crs = Number(value);
  if (crs > CRS_RANGE.max) throw badRequest(`crs must be at most ${CRS_RANGE.max} (the highest CRS score), got ${crs}`);
  return crs;
}

function forecastOfDraw(p: Prediction) {
  return { point: p.predicted_crs_score, margin: p.uncertainty_range.margin_of_error };
}

function answer(crs: number, category: CategoryRecord, view: ForecastView): SafeHtml {
  const predictions = view.predictions.get(category.id) ?? [];
  const forecast = forecastOf(view, category.id);
  const heading = html`<h2 id="result-heading">A score of ${crs} in ${category.name}</h2>`;
  if (predictions.length === 0) {
    const last = view.statistics?.categories[String(category.id)];
    return html`<section class="card" id="result" aria-labelledby="result-heading">
      ${heading} ${statusNote(forecast, category, view.forecastsAsOf ?? view.asOf)}
      <p>
        No next draw of this category is forecast, so no chance can be
        given.${last?.latest_draw_date ? html` Its last draw was on ${last.latest_draw_date}.` : ''}
        <a href="/categories/${category.id}">Its draws</a>.
      </p>
    </section>`;
  }
  const [next, ...later] = predictions;
  const p = clearance(crs, forecastOfDraw(next));
  const half = centralRange(forecastOfDraw(next), 0.5);
  return html`<section class="card" id="result" aria-labelledby="result-heading">
    ${heading}
    <p><span class="stat" id="chance">${percent(p.atOrBelow)}</span> chance that the next draw’s lowest CRS score is at or below ${crs}.</p>
    <ul>
      <li>Cut-off below ${crs}: <strong id="chance-below">${percent(p.below)}</strong>.</li>
      <li>
        Cut-off exactly ${crs}: <strong id="chance-equal">${percent(p.equal)}</strong>; then the tie-breaking rule decides (candidates with
        the cut-off score are invited only if they submitted their profile before the time IRCC sets for that draw).
      </li>
    </ul>
    <p>
      The next draw of ${category.name} should come between ${next.date_range.earliest} and ${next.date_range.latest} (95% range; most
      likely ${next.predicted_date}). Its cut-off is forecast at ${score(next.predicted_crs_score)}, with a 95% interval of
      ${range(next.uncertainty_range.min, next.uncertainty_range.max)}; half the time it should fall between
      ${score(Math.round(half.lower * 10) / 10)} and ${score(Math.round(half.upper * 10) / 10)}.
    </p>
    ${forecast?.status === 'young' ? statusNote(forecast, category, view.forecastsAsOf ?? view.asOf) : ''}
    ${
      later.length > 0
        ? html`<div class="table-scroll">
              <table class="data" id="later-draws">
                <caption>
                  The chance for each forecast draw of ${category.name}, taken one at a time
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Draw</th>
                    <th scope="col">Date range (95%)</th>
                    <th scope="col" class="num">Forecast cut-off</th>
                    <th scope="col" class="num">95% interval</th>
                    <th scope="col" class="num">Cut-off at or below ${crs}</th>
                  </tr>
                </thead>
                <tbody>
                  ${predictions.map(
                    (d) =>
                      html`<tr>
                        <td>${drawOrdinal(d.rank)}</td>
                        <td class="range">${dateRange(d.date_range.earliest, d.date_range.latest)}</td>
                        <td class="num">${score(d.predicted_crs_score)}</td>
                        <td class="num range">${range(d.uncertainty_range.min, d.uncertainty_range.max)}</td>
                        <td class="num">${percent(clearance(crs, forecastOfDraw(d)).atOrBelow)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>
            <p class="muted">
              Each draw on its own. They are not independent chances (a low cut-off is usually followed by another), so they cannot be
              multiplied or added into a chance of “at least one”.
            </p>`
        : ''
    }
  </section>`;
}

function method(view: ForecastView, crs: number | undefined, category: CategoryRecord | undefined): SafeHtml {
  const next = category ? view.predictions.get(category.id)?.[0] : undefined;
  const worked =
    next && crs !== undefined
      ? html`<p>
          Here: ŷ = ${score(next.predicted_crs_score)}, m = ${score(next.uncertainty_range.margin_of_error)}, so b =
          ${laplaceScaleFor95(next.uncertainty_range.margin_of_error).toFixed(2)} and P(cut-off ≤ ${crs}) = F(${crs}.5).
        </p>`
      : '';
  return html`<h2>How the chance is computed</h2>
    <p>${CLEARANCE_METHOD}</p>
    <pre class="formula">${CLEARANCE_FORMULA.join('\n')}</pre>
    ${worked}
    <p>
      The 95% interval is the service’s own (split-conformal: its half-width is the 95% quantile of how far past forecasts of every
      established category missed, in units of this category’s recent error; see <a href="/models">the models</a>). The shape inside it is
      an assumption: checked against the forecasts the service would have made after every past draw of IRCC’s real rounds of 2023–2025,
      this law stated chances that came true about as often as stated, and closer than a normal law with the same interval (the script
      <code>src/services/draws/pages/score-calibration.ts</code> repeats the check on any feed).
    </p>
    <h2>What it cannot tell you</h2>
    <ul id="caveats">
      <li>
        It is a probability from past forecast errors, not a promise. IRCC decides each draw’s category, size and timing by policy; a change
        of policy breaks any pattern the past shows.
      </li>
      <li>The size of a draw is not known in advance, and the cut-off mostly moves with it: a large draw reaches further down the pool.</li>
      <li>
        Tie-breaks: when your score equals the cut-off, you are invited only if your profile was submitted before the draw’s tie-break time,
        which is known only when the draw is published.
      </li>
      <li>
        It assumes you are eligible for the category’s draws and your score stays as it is; a score changes with age, a new test result or a
        job offer. A draw of the category may also not come in the date range (that range is a 95% range too).
      </li>
    </ul>`;
}

export function myScorePage(app: ServiceApp, routes: DrawsRouteContext, kit: PageKit): void {
  const page = async (view: ForecastView, values: { crs?: string; category?: CategoryRecord }, result: SafeHtml): Promise<PageRequest> => ({
    title: 'My score',
    description: 'The chance that a CRS score clears the cut-off of a category’s next Express Entry draw, from the forecast.',
    section: '/my-score',
    body: html`<h1>Would my score clear the next draw?</h1>
      <p class="lead">
        Give your Comprehensive Ranking System (CRS) score and the category of draws you are eligible for. The answer is the chance that the
        next draw’s lowest invited score is at or below yours, from the forecast and how far past forecasts missed.
      </p>
      ${dataAgeNotice(view)} ${scoreForm(formCategories(view), { crs: values.crs, category: values.category?.id })} ${result}
      ${method(view, values.crs === undefined ? undefined : Number(values.crs), values.category)}`,
  });

  app.get('/my-score', { config: { responseCache: true } }, async (request, reply) => {
    const view = await readForecastView(routes);
    const raw = { crs: param(request.query, 'crs'), category: param(request.query, 'category') };
    return sendPage(
      kit,
      request,
      reply,
      async () => {
        const crs = parseScore(raw.crs);
        const category = await categoryParam(routes, raw.category);
        if ((crs === undefined) !== (category === undefined)) {
          throw badRequest(crs === undefined ? 'give a CRS score (crs) as well as the category' : 'choose a category as well as the score');
        }
        const result = crs !== undefined && category !== undefined ? answer(crs, category, view) : html``;
        return page(view, { crs: raw.crs, category }, result);
      },
      async (message) => page(view, { crs: raw.crs }, errorNote(message)),
    );
  });
}

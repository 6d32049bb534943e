// Service D's pages on SQLite and PostgreSQL: on the demo data (every page, its numbers against the API's, every
// chart's drawn marks against the rows behind it, the "my score" answer against clearance(), 400/404 as pages),
// and on the real snapshot (a young category says its forecast is pooled and wider; dormant ones say since when).
import { count, dateRange, likelyWindowText, range, score, wordsIn } from './shared.ts';
import { MAX_PAGE } from '../../../core/http/params.ts';
import { layoutMessages } from '../../../core/i18n/messages/index.ts';
import { ChartCache } from '../../../core/pages/charts.ts';
import type { ServiceContext } from '../../../core/service.ts';
import { formatDate } from '../../../core/i18n/format.ts';
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { describeWithSnapshot, drawsContext, importSnapshot, SNAPSHOT_AS_OF } from '../../../../test/support/draws/context.ts';
import { pageTour } from '../../../../test/support/draws/page-tour.ts';
import { figures, plotted, seriesDrawn, tableRows, textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { AS_OF_VARIABLE } from '../as-of.ts';
import { dayNumber, isoFromDayNumber } from '../feed/ircc-dates.ts';
import { MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { drawsService } from '../service.ts';
import { HISTORY_MIN_DRAWS, HISTORY_YEARS } from './category.ts';
import { clearance } from './clearance.ts';
import { DRAWS_PER_PAGE } from './draws-list.ts';
import { CANONICAL_CATEGORIES, CATEGORY_NAMES_FR } from '../feed/categories.ts';
import { CHART_HORIZONS, MODELS_CHART } from './models.ts';
import { NEXT_DRAWS_CHART } from './overview.ts';
import { percent } from './shared.ts';

const EN = wordsIn('en');
const FR = wordsIn('fr');
/** A text with its runs of spaces (no-break ones included) as one space, as textOf writes a page. */
const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();

interface ApiPrediction {
  rank: number;
  predicted_date: string;
  predicted_crs_score: number;
  predicted_invitations: number;
  confidence_score: number;
  confidence_forecasts_scored: number | null;
  uncertainty_range: { min: number; max: number; margin_of_error: number };
  invitations_range: { min: number; max: number } | null;
  date_range: { earliest: string; latest: string };
  likely_window: { earliest: string; latest: string; days: number; probability: number } | null;
}
interface ApiPredictEntry {
  category_id: number;
  category_name: string;
  status: string;
  dormant_since: string | null;
  predictions: ApiPrediction[];
}
interface ApiDraw {
  date: string;
  round_number: string;
  lowest_crs_score: number;
  invitations_issued: number;
}
interface ApiModelsCategory {
  category_id: number;
  category_name: string;
  status: string;
  dormant_since: string | null;
}

async function page(app: ServiceApp, url: string) {
  const res = await app.inject(url);
  return { status: res.statusCode, body: res.body, type: String(res.headers['content-type']), text: textOf(res.body) };
}

const numberOf = (cell: string) => Number(cell.replace(/,/g, ''));
const crsText = (x: number) => x.toLocaleString('en-CA', { maximumFractionDigits: 1 });

/** The rows of the table with this id. */
function tableById(body: string, id: string): string[][] {
  const table = new RegExp(`<table class="data" id="${id}">([\\s\\S]*?)</table>`).exec(body);
  assert.ok(table, `table #${id}`);
  return tableRows(table[1]);
}

/** Checks a forecast chart: marks of the draws, the forecasts and both ends of the band against its table. */
function checkForecastChart(
  figure: string,
  draws: ApiDraw[],
  predictions: { date: string; point: number; lower: number; upper: number }[],
  what: string,
) {
  const rows = tableRows(figure);
  const history = rows.filter((r) => !r[1].startsWith('next draw'));
  const forecast = rows.filter((r) => r[1].startsWith('next draw'));
  assert.equal(history.length, draws.length, `${what}: one table row per draw`);
  assert.equal(forecast.length, predictions.length, `${what}: one table row per forecast draw`);
  if (predictions.length > 0) {
    assert.deepEqual(seriesDrawn(figure), [0, 1, 2, 3], what);
    assert.equal(plotted(figure, 2), draws.length, `${what}: a mark per draw`);
    assert.equal(plotted(figure, 3), predictions.length, `${what}: a mark per forecast`);
    assert.equal(plotted(figure, 0), predictions.length, `${what}: the band's lower ends`);
    assert.equal(plotted(figure, 1), predictions.length, `${what}: the band's upper ends`);
  } else {
    assert.deepEqual(seriesDrawn(figure), [0], what);
    assert.equal(plotted(figure, 0), draws.length, `${what}: a mark per draw`);
  }
  const sortedDraws = [...draws].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  assert.deepEqual(
    history.map((r) => r[0]),
    sortedDraws.map((d) => formatDate('en', d.date, 'short')),
  );
  forecast.forEach((r, i) => {
    const p = predictions[i];
    assert.deepEqual(
      [r[0], numberOf(r[3]), numberOf(r[4]), numberOf(r[5])],
      [formatDate('en', p.date, 'short'), p.point, p.lower, p.upper],
      `${what} forecast ${i + 1}`,
    );
  });
}

describeEachDatabase(
  'draws pages on demo data',
  (t) => {
    let app: ServiceApp;
    let ctx: ServiceContext;
    let predict: ApiPredictEntry[];
    let modelsCategories: ApiModelsCategory[];
    before(async () => {
      ctx = testContext(drawsService, t.db, {
        dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-draws-pages-')),
        env: { ...process.env, [AS_OF_VARIABLE]: SNAPSHOT_AS_OF },
      });
      await drawsService.loadDemo(ctx, {});
      app = await buildTestApp(drawsService, ctx);
      predict = (await app.inject('/api/predict/')).json().data;
      modelsCategories = (await app.inject('/api/models/')).json().categories;
    });
    after(async () => app?.close());

    it('/ lists the next draw of every forecast category with the API’s numbers, and charts each interval', async () => {
      const res = await page(app, '/');
      assert.equal(res.status, 200);
      assert.match(res.type, /^text\/html/);
      assert.match(res.body, /Demo data\./);
      const rows = tableById(res.body, 'next-draws');
      assert.ok(predict.length > 0);
      assert.equal(rows.length, predict.length);
      predict.forEach((entry, i) => {
        const next = entry.predictions[0];
        const [name, , date, dates, likely, crs, crsRange, invitations, invitationsRange] = rows[i];
        assert.equal(name, entry.category_name);
        assert.equal(date, formatDate('en', next.predicted_date, 'short'));
        assert.equal(dates, dateRange(next.date_range.earliest, next.date_range.latest, EN));
        assert.equal(likely, likelyWindowText(next.likely_window, EN));
        assert.match(likely, /^\w{3} \d{1,2}, \d{4} – \w{3} \d{1,2}, \d{4} \(\d{1,2}%\)$/);
        assert.equal(crs, crsText(next.predicted_crs_score));
        assert.equal(crsRange, `${crsText(next.uncertainty_range.min)} – ${crsText(next.uncertainty_range.max)}`);
        assert.equal(numberOf(invitations), next.predicted_invitations);
        assert.equal(
          invitationsRange,
          `${next.invitations_range!.min.toLocaleString('en-CA')} – ${next.invitations_range!.max.toLocaleString('en-CA')}`,
        );
      });
      // every rank of every category
      const all = tableById(res.body, 'all-forecast-draws');
      assert.equal(
        all.length,
        predict.reduce((n, e) => n + e.predictions.length, 0),
      );
      // the chart: an interval and a diamond per category, each row of its table a category's next cut-off
      const chart = figures(res.body).get(NEXT_DRAWS_CHART);
      assert.ok(chart);
      const drawn = seriesDrawn(chart);
      const estimates = drawn.filter((s) => s % 2 === 1).reduce((n, s) => n + plotted(chart, s), 0);
      const intervals = drawn.filter((s) => s % 2 === 0).reduce((n, s) => n + plotted(chart, s), 0);
      assert.equal(estimates, predict.length);
      assert.equal(intervals, predict.length);
      const chartRows = tableRows(chart);
      assert.deepEqual(
        chartRows.map((r) => [r[0], Number(r[1]), Number(r[2]), Number(r[3])]),
        predict.map((e) => [
          e.category_name,
          e.predictions[0].predicted_crs_score,
          e.predictions[0].uncertainty_range.min,
          e.predictions[0].uncertainty_range.max,
        ]),
      );
      // categories that are not forecast say why; dormant ones since when
      const dormant = modelsCategories.filter((c) => c.status === 'dormant');
      assert.ok(dormant.length > 0, 'the demo data has dormant categories');
      for (const c of dormant)
        assert.match(res.text, new RegExp(`${c.category_name}: dormant since ${formatDate('en', c.dormant_since ?? '')}`));
      // the form, labelled, GET
      assert.match(res.body, /<form class="filters" method="get" action="\/my-score"/);
      assert.match(res.body, /<label\s*>Your CRS score\s*<input type="number" name="crs"/);
    });

    it('a forecast category’s page charts its draws and the forecast fan, with the next draw’s date range', async () => {
      const entry = predict[0];
      const draws: ApiDraw[] = (await app.inject(`/api/draws/?category=${entry.category_id}`)).json().data;
      const since = isoFromDayNumber(dayNumber(SNAPSHOT_AS_OF) - Math.round(365.25 * HISTORY_YEARS));
      const windowed = draws.filter((d, i) => d.date >= since || i < HISTORY_MIN_DRAWS);
      assert.ok(windowed.length < draws.length, 'the demo category has draws before the window');
      for (const [url, shown] of [
        [`/categories/${entry.category_id}`, windowed],
        [`/categories/${entry.category_id}?history=all`, draws],
      ] as const) {
        const res = await page(app, url);
        assert.equal(res.status, 200, url);
        assert.match(res.body, new RegExp(`<h1>${entry.category_name}</h1>`));
        const next = entry.predictions[0];
        assert.match(
          res.text,
          new RegExp(
            `between ${formatDate('en', next.date_range.earliest)} and ${formatDate('en', next.date_range.latest)} \\(90% range\\); ${formatDate('en', next.predicted_date)} on its usual rhythm`,
          ),
        );
        const likely = next.likely_window!;
        assert.ok(
          res.text.includes(
            `most likely within the three weeks from ${formatDate('en', likely.earliest)} to ${formatDate('en', likely.latest)}: a probability of ${percent(likely.probability, EN)}`,
          ),
          `${url}: the likely window in words`,
        );
        const charts = figures(res.body);
        checkForecastChart(
          charts.get(`category-${entry.category_id}-crs`)!,
          [...shown],
          entry.predictions.map((p) => ({
            date: p.predicted_date,
            point: p.predicted_crs_score,
            lower: p.uncertainty_range.min,
            upper: p.uncertainty_range.max,
          })),
          `${url} CRS`,
        );
        const invitations = charts.get(`category-${entry.category_id}-invitations`)!;
        assert.match(invitations, /log scale/);
        checkForecastChart(
          invitations,
          [...shown],
          entry.predictions.map((p) => ({
            date: p.predicted_date,
            point: p.predicted_invitations,
            lower: p.invitations_range!.min,
            upper: p.invitations_range!.max,
          })),
          `${url} invitations`,
        );
        assert.equal(tableById(res.body, 'forecast-draws').length, entry.predictions.length);
        assert.equal(tableById(res.body, 'recent-draws').length, Math.min(10, draws.length));
        assert.match(res.body, /<option value="\d+" selected>/);
      }
    });

    it('each past hit rate says how many scored forecasts it is over, in English and in French', async () => {
      const entry = predict[0];
      const counts = entry.predictions.map((p) => p.confidence_forecasts_scored!);
      assert.ok(
        counts.every((n) => n > 1),
        `the demo category has scored forecasts at every rank: ${counts.join(', ')}`,
      );
      const [en, fr] = [await page(app, `/categories/${entry.category_id}`), await page(app, `/categories/${entry.category_id}?lang=fr`)];
      const lastCells = (body: string) => tableById(body, 'forecast-draws').map((r) => spaced(r.at(-1)!));
      assert.deepEqual(
        lastCells(en.body),
        entry.predictions.map((p, i) => spaced(`${EN.loc.percent(p.confidence_score / 100, 1)}over ${counts[i]} scored forecasts`)),
      );
      assert.deepEqual(
        lastCells(fr.body),
        entry.predictions.map((p, i) => spaced(`${FR.loc.percent(p.confidence_score / 100, 1)}sur ${counts[i]} prévisions évaluées`)),
      );
      assert.ok(spaced(en.text).includes(`; over ${counts[0]} scored forecasts`), 'beside the next draw’s hit rate');
      assert.ok(spaced(fr.text).includes(`; sur ${counts[0]} prévisions évaluées`), 'beside the next draw’s hit rate, in French');
    });

    it('every category’s page loads; a dormant one says since when and charts its draws without a forecast', async () => {
      const categories = (await app.inject('/api/categories/')).json() as { id: number; name: string }[];
      for (const c of categories) {
        const res = await page(app, `/categories/${c.id}?history=all`);
        assert.equal(res.status, 200, c.name);
        const status = modelsCategories.find((m) => m.category_id === c.id);
        if (status?.status !== 'dormant') continue;
        assert.match(res.text, new RegExp(`Dormant since ${formatDate('en', status.dormant_since ?? '')}`), c.name);
        const draws: ApiDraw[] = (await app.inject(`/api/draws/?category=${c.id}`)).json().data;
        checkForecastChart(figures(res.body).get(`category-${c.id}-crs`)!, draws, [], `${c.name} CRS`);
        assert.doesNotMatch(res.body, /id="forecast-draws"/);
      }
    });

    it('French pages name the categories in French (known families), English pages by their stored names', async () => {
      // the API names categories in English without their slug: a known family is found by its canonical name
      const categories = (await app.inject('/api/categories/')).json() as { id: number; name: string }[];
      const slugOf = (name: string) => CANONICAL_CATEGORIES.find((k) => k.name === name)?.slug ?? '';
      const french = new Map(categories.map((c) => [c.id, CATEGORY_NAMES_FR[slugOf(c.name)] ?? c.name]));
      const english = new Map(categories.map((c) => [c.id, c.name]));
      const renamed = categories.filter((c) => french.get(c.id) !== c.name).map((c) => c.id);
      assert.ok(renamed.length > 0, 'a demo category with a French name');
      const forecast = predict.map((p) => p.category_id);

      const [overviewFr, overviewEn] = [await page(app, '/?lang=fr'), await page(app, '/')];
      // The likely three weeks, said in each language beside the 90% range.
      assert.ok(
        overviewFr.text.includes('Trois semaines probables (probabilité)') && overviewFr.text.includes('Les trois semaines probables sont'),
      );
      assert.ok(overviewEn.text.includes('Likely three weeks (probability)') && overviewEn.text.includes('The likely three weeks are'));
      const nextFr = predict[0].predictions[0].likely_window!;
      assert.ok(
        (await page(app, `/categories/${predict[0].category_id}?lang=fr`)).text.includes(
          textOf(
            `le plus probablement dans les trois semaines du ${formatDate('fr', nextFr.earliest)} au ${formatDate('fr', nextFr.latest)} : une probabilité de ${percent(nextFr.probability, wordsIn('fr'))}`,
          ),
        ),
        'the likely window in French words',
      );
      for (const id of forecast) {
        assert.ok(overviewFr.text.includes(french.get(id)!), `/ in French: ${french.get(id)}`);
        assert.ok(overviewEn.text.includes(english.get(id)!), `/ in English: ${english.get(id)}`);
        if (renamed.includes(id)) assert.ok(!overviewFr.text.includes(english.get(id)!), `/ in French: no ${english.get(id)}`);
      }
      for (const id of renamed) {
        const [fr, en] = [await page(app, `/categories/${id}?lang=fr`), await page(app, `/categories/${id}`)];
        assert.equal(textOf(/<h1>([\s\S]*?)<\/h1>/.exec(fr.body)![1]), french.get(id));
        assert.equal(textOf(/<h1>([\s\S]*?)<\/h1>/.exec(en.body)![1]), english.get(id));
        assert.ok(fr.body.includes(`<title>${french.get(id)} · `), `/categories/${id}: its title`);
        const list = await page(app, `/draws?category=${id}&lang=fr`);
        const rows = tableById(list.body, 'draws');
        assert.ok(rows.length > 0);
        for (const r of rows) assert.equal(r[2], french.get(id));
        assert.ok(list.body.includes(`<option value="${id}" selected>${french.get(id)}</option>`), `/draws: category ${id} chosen`);
        assert.deepEqual(
          tableById((await page(app, `/draws?category=${id}`)).body, 'draws').map((r) => r[2]),
          rows.map(() => english.get(id)),
        );
      }
      const score = await page(app, `/my-score?lang=fr&crs=480&category=${forecast[0]}`);
      assert.equal(score.status, 200);
      assert.ok(score.text.includes(french.get(forecast[0])!), '/my-score in French');
      // the track record's column headers in French, its wide tables reachable by keyboard (a scrolling region)
      const recordFr = await page(app, '/track-record?lang=fr');
      assert.match(recordFr.body, /<th scope="col" class="num">EAM<\/th>/);
      assert.doesNotMatch(recordFr.body, />\s*MAE\s*</);
      for (const id of ['track-record-summary', 'track-record-forecasts'])
        assert.match(recordFr.body, new RegExp(`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="${id}-caption">`));
      for (const url of ['/models', '/track-record']) {
        const fr = await page(app, `${url}?lang=fr`);
        assert.ok(
          forecast.some((id) => renamed.includes(id) && fr.text.includes(french.get(id)!)),
          `${url} in French`,
        );
      }
    });

    it('/draws lists as many draws as the API finds, 50 a page, with its filters', async () => {
      const total = (await app.inject('/api/draws/')).json().count as number;
      const first = await page(app, '/draws');
      assert.equal(first.status, 200);
      assert.match(first.text, new RegExp(`${total.toLocaleString('en-CA')} draws match; showing 1–${DRAWS_PER_PAGE}`));
      assert.equal(tableById(first.body, 'draws').length, Math.min(DRAWS_PER_PAGE, total));
      const lastPage = Math.ceil(total / DRAWS_PER_PAGE);
      const last = await page(app, `/draws?page=${lastPage}`);
      assert.equal(tableById(last.body, 'draws').length, total - (lastPage - 1) * DRAWS_PER_PAGE);
      const id = predict[0].category_id;
      const query = `category=${id}&start_date=2024-01-01&end_date=2025-07-01`;
      const api = (await app.inject(`/api/draws/?${query}`)).json();
      const filtered = await page(app, `/draws?${query}`);
      const rows = tableById(filtered.body, 'draws');
      assert.equal(rows.length, Math.min(api.count, DRAWS_PER_PAGE));
      assert.deepEqual(
        rows.map((r) => [r[0], r[1], numberOf(r[4])]),
        api.data.slice(0, DRAWS_PER_PAGE).map((d: ApiDraw) => [formatDate('en', d.date, 'short'), d.round_number, d.lowest_crs_score]),
      );
      assert.match(filtered.body, new RegExp(`<option value="${id}" selected>`));
    });

    it('/models shows every model’s backtest against naive with the numbers of /api/models/, and charts it', async () => {
      const models = (await app.inject('/api/models/')).json();
      const res = await page(app, '/models');
      assert.equal(res.status, 200);
      const rows = tableById(res.body, 'backtest-crs-h1');
      assert.equal(rows.length, MODEL_CATALOGUE.length);
      const naive = models.data.find((m: { name: string }) => m.name === 'naive').performance.by_horizon[0].mae;
      for (const [i, m] of (models.data as { name: string; performance: { by_horizon: { n: number; mae: number }[] } }[]).entries()) {
        const h1 = m.performance.by_horizon[0];
        assert.match(rows[i][0], new RegExp(`^${m.name}`));
        assert.equal(numberOf(rows[i][1]), h1.n, m.name);
        assert.equal(rows[i][2], h1.mae.toFixed(1), m.name);
        if (m.name !== 'pooled_young') assert.equal(rows[i][3], `${(h1.mae / naive).toFixed(3)}×`, m.name);
      }
      for (const m of MODEL_CATALOGUE) assert.match(res.body, new RegExp(`<dt id="model-${m.name}">`));
      const chart = figures(res.body).get(MODELS_CHART)!;
      const compared = MODEL_CATALOGUE.filter((m) => m.name !== 'pooled_young').length;
      assert.deepEqual(
        seriesDrawn(chart),
        CHART_HORIZONS.map((_, i) => i),
      );
      for (const [s, h] of CHART_HORIZONS.entries()) {
        assert.equal(plotted(chart, s), compared, `bars of h = ${h}`);
        const apiMae = (models.data as { name: string; performance: { by_horizon: { h: number; mae: number }[] } }[])
          .filter((m) => m.name !== 'pooled_young')
          .map((m) => m.performance.by_horizon.find((r) => r.h === h)!.mae);
        assert.deepEqual(
          tableRows(chart).map((r) => Number(Number(r[s + 1]).toFixed(2))),
          apiMae.map((x) => Number(x.toFixed(2))),
        );
      }
      assert.equal(tableById(res.body, 'interval-coverage').length, models.intervals.crs.length);
    });

    it('/my-score answers with clearance() of the forecast, the split at equality, every rank and the caveats', async () => {
      const entry = predict[0];
      const next = entry.predictions[0];
      const crs = Math.round(next.predicted_crs_score);
      const res = await page(app, `/my-score?crs=${crs}&category=${entry.category_id}`);
      assert.equal(res.status, 200);
      const expected = clearance(crs, { point: next.predicted_crs_score, margin: next.uncertainty_range.margin_of_error });
      assert.match(res.body, new RegExp(`<span class="stat" id="chance">${percent(expected.atOrBelow, EN)}</span>`));
      assert.match(res.body, new RegExp(`<strong id="chance-below">${percent(expected.below, EN)}</strong>`));
      assert.match(res.body, new RegExp(`<strong id="chance-equal">${percent(expected.equal, EN)}</strong>`));
      // near the forecast the answer is near even odds; far above it, near certain
      assert.ok(expected.atOrBelow > 0.3 && expected.atOrBelow < 0.7);
      // the next draw's likely three weeks, as the API serves them, beside its 90% range
      const likely = next.likely_window!;
      assert.ok(
        res.text.includes(
          `It is most likely to come within the three weeks from ${formatDate('en', likely.earliest)} to ${formatDate('en', likely.latest)}: a probability of ${percent(likely.probability, EN)}.`,
        ),
        res.text,
      );
      const later = tableById(res.body, 'later-draws');
      assert.equal(later.length, entry.predictions.length);
      later.forEach((row, i) => {
        const p = entry.predictions[i];
        assert.equal(
          row[4],
          percent(clearance(crs, { point: p.predicted_crs_score, margin: p.uncertainty_range.margin_of_error }).atOrBelow, EN),
        );
      });
      for (const caveat of [/not a promise/, /size of a draw is not known in advance/, /tie-break/i, /eligible/])
        assert.match(res.text, caveat);
      assert.match(res.text, /Laplace/);
      const high = await page(app, `/my-score?crs=1200&category=${entry.category_id}`);
      assert.match(high.body, /<span class="stat" id="chance">over 99%<\/span>/);
      // a dormant category has no chance to give, and says since when
      const dormant = modelsCategories.find((c) => c.status === 'dormant')!;
      const none = await page(app, `/my-score?crs=500&category=${dormant.category_id}`);
      assert.equal(none.status, 200);
      assert.match(none.text, new RegExp(`Dormant since ${formatDate('en', dormant.dormant_since ?? '')}`));
      assert.match(none.text, /No next draw of this category is forecast/);
      const empty = await page(app, '/my-score');
      assert.equal(empty.status, 200);
      assert.doesNotMatch(empty.body, /id="result"/);
    });

    it('bad input gives the page with the message and status 400 (unknown pages 404), never JSON or a 500', async () => {
      const id = predict[0].category_id;
      for (const [url, message] of [
        [`/my-score?crs=abc&category=${id}`, /crs must be a whole number from 0 to 1200/],
        [`/my-score?crs=1300&category=${id}`, /crs must be at most 1200/],
        [`/my-score?crs=-5&category=${id}`, /crs must be a whole number/],
        ['/my-score?crs=500&category=abc', /category must be a category id/],
        ['/my-score?crs=500&category=99999', /no category has id 99999/],
        ['/my-score?crs=500', /choose a category as well/],
        [`/my-score?category=${id}`, /give a CRS score/],
        ['/draws?start_date=2024-13-01', /start_date must be a real date/],
        ['/draws?start_date=yesterday', /start_date must be a date in the form YYYY-MM-DD/],
        ['/draws?start_date=2025-01-01&end_date=2024-01-01', /end_date must be after start_date/],
        ['/draws?page=0', /page must be a whole number from 1/],
        ['/draws?page=999', /past the last page/],
        ['/draws?category=99999', /no category has id 99999/],
        ['/categories/abc', /the category id must be a positive whole number/],
        [`/categories/${id}?history=some`, /history must be “all”/],
      ] as const) {
        const res = await page(app, url);
        assert.equal(res.status, 400, url);
        assert.match(res.type, /^text\/html/, url);
        assert.match(res.text, message, url);
        assert.match(res.body, /role="alert"/, url);
      }
      const missing = await page(app, '/categories/99999');
      assert.equal(missing.status, 404);
      assert.match(missing.type, /^text\/html/);
      assert.match(missing.text, /category 99999 not found/);
    });

    it('a refused parameter is a 4xx page in the request’s language: the layout, the form when the page has one, D’s words', async () => {
      const id = predict[0].category_id;
      const cases: Array<[string, number, string, boolean]> = [
        ['/draws?start_date=yesterday', 400, FR.t('error.date', { name: 'start_date', value: 'yesterday' }), true],
        ['/draws?end_date=2024-02-31', 400, FR.t('error.realDate', { name: 'end_date', value: '2024-02-31' }), true],
        ['/draws?page=0', 400, FR.t('error.page', { max: MAX_PAGE, value: '0' }), true],
        ['/draws?category=99999', 400, FR.t('error.noCategory', { id: 99999 }), true],
        [`/my-score?crs=abc&category=${id}`, 400, FR.t('myScore.crsWhole', { min: 0, max: 1200, value: 'abc' }), true],
        [`/my-score?crs=1300&category=${id}`, 400, FR.t('myScore.crsMax', { max: 1200, value: 1300 }), true],
        ['/my-score?crs=500', 400, FR.t('myScore.needCategory'), true],
        ['/categories/abc', 400, FR.t('error.categoryPath', { value: 'abc' }), false],
        [`/categories/${id}?history=some`, 400, FR.t('error.history', { value: 'some' }), false],
        ['/categories/99999', 404, FR.t('error.categoryNotFound', { id: 99999 }), false],
        ['/track-record?category=x', 400, FR.t('error.categoryId', { name: 'category', value: 'x' }), false],
        ['/track-record?page=0', 400, FR.t('track.badPage', { value: '0' }), false],
        ['/draws?category=1&category=x', 400, FR.t('error.repeated', { name: 'category' }), true],
      ];
      for (const [url, status, message, form] of cases) {
        for (const res of [
          await page(app, `${url}${url.includes('?') ? '&' : '?'}lang=fr`),
          await app
            .inject({ url, headers: { 'accept-language': 'fr-CA,fr;q=0.9' } })
            .then((r) => ({ status: r.statusCode, body: r.body, text: textOf(r.body) })),
        ]) {
          assert.equal(res.status, status, url);
          assert.match(res.body, /<html lang="fr">/, url);
          assert.ok(res.text.includes(spaced(message)), `${url}: “${message}” in ${res.text.slice(0, 400)}`);
          assert.ok(res.text.includes(layoutMessages.format('fr', 'error.cannotUse')), url);
          assert.match(res.body, /role="alert"/, url);
          if (form) assert.match(res.body, /<form class="filters" method="get"/, `${url}: its form redrawn`);
          else {
            const title = layoutMessages.format('fr', status === 404 ? 'error.notFound' : 'error.cannotShow');
            assert.equal(textOf(/<h1>([\s\S]*?)<\/h1>/.exec(res.body)![1]), title, url);
          }
          // no English word of D's messages on the French page
          assert.ok(!res.text.includes('must be'), `${url}: no English message`);
        }
      }
    });

    it('a chart is keyed by every input that changes it: the category, its history, the language and the as-of date', async () => {
      const [id, other] = predict.map((p) => p.category_id);
      const keys: string[] = [];
      const figure = ChartCache.prototype.figure;
      ChartCache.prototype.figure = function recorded(this: ChartCache, key, build) {
        keys.push(key);
        return figure.call(this, key, build);
      };
      const crsKey = async (url: string) => {
        keys.length = 0;
        const res = await page(app, url);
        assert.equal(res.status, 200, url);
        assert.equal(keys.length, 2, `${url}: two charts`);
        return { key: keys[0], chart: figures(res.body).get(`category-${/\/categories\/(\d+)/.exec(url)![1]}-crs`)! };
      };
      // Each address is new to the response cache (utm_source, which no page reads), so each page is drawn.
      try {
        const first = await crsKey(`/categories/${id}?utm_source=a`);
        const distinct = new Set([first.key]);
        for (const url of [
          `/categories/${id}?history=all&utm_source=b`,
          `/categories/${other}?utm_source=c`,
          `/categories/${id}?lang=fr&utm_source=d`,
        ])
          distinct.add((await crsKey(url)).key);
        assert.equal(distinct.size, 4, 'another category, history or language: another chart');
        // a parameter the page does not read changes nothing
        assert.equal((await crsKey(`/categories/${id}?utm_source=e`)).key, first.key);
        // the window of draws charted follows the as-of date, which the query does not name
        const asOf = isoFromDayNumber(dayNumber(SNAPSHOT_AS_OF) + 365);
        ctx.config.env[AS_OF_VARIABLE] = asOf;
        const later = await crsKey(`/categories/${id}?utm_source=later`);
        assert.notEqual(later.key, first.key);
        const draws: ApiDraw[] = (await app.inject(`/api/draws/?category=${id}`)).json().data;
        const since = isoFromDayNumber(dayNumber(asOf) - Math.round(365.25 * HISTORY_YEARS));
        const charted = (chart: string) => tableRows(chart).filter((r) => !r[1].startsWith('next draw')).length;
        assert.equal(charted(later.chart), draws.filter((d, i) => d.date >= since || i < HISTORY_MIN_DRAWS).length);
        assert.ok(charted(later.chart) < charted(first.chart), 'a later as-of date charts fewer draws');
      } finally {
        ChartCache.prototype.figure = figure;
        ctx.config.env[AS_OF_VARIABLE] = SNAPSHOT_AS_OF;
      }
    });

    it('a dormant category’s forecast should it draw again is on / and on its page, said as conditional, in English and French', async () => {
      let shown = 0;
      for (const c of modelsCategories.filter((m) => m.status === 'dormant')) {
        const entry = (await app.inject(`/api/predict/${c.category_id}/`)).json().data[0];
        const resumed = entry.if_resumed as {
          pause_gaps: number;
          crs: { point: number; min: number; max: number };
          invitations: { point: number; min: number; max: number };
        } | null;
        const one = await page(app, `/categories/${c.category_id}`);
        if (!resumed) {
          assert.doesNotMatch(one.body, /id="if-resumed"/, c.category_name);
          continue;
        }
        shown++;
        for (const [w, suffix] of [
          [EN, ''],
          [FR, '?lang=fr'],
        ] as const) {
          const figures = {
            crs: score(resumed.crs.point, w),
            range: range(resumed.crs.min, resumed.crs.max, w),
            invitations: count(resumed.invitations.point, w),
            invitationsRange: range(resumed.invitations.min, resumed.invitations.max, w, count),
          };
          const home = await page(app, `/${suffix}`);
          assert.ok(home.text.includes(spaced(w.t('overview.ifResumed', figures))), `/${suffix}: ${c.category_name}`);
          const res = await page(app, `/categories/${c.category_id}${suffix}`);
          const section = /<section id="if-resumed"[\s\S]*?<\/section>/.exec(res.body);
          assert.ok(section, `${c.category_name}${suffix}`);
          assert.equal(textOf(/<h2[^>]*>([\s\S]*?)<\/h2>/.exec(section[0])![1]), w.t('category.ifResumed'));
          const text = w.t('category.ifResumedText', { ...figures, gaps: Math.round(resumed.pause_gaps * 10) / 10 });
          assert.equal(textOf(section[0].replace(/<h2[\s\S]*?<\/h2>/, '')), spaced(text));
        }
      }
      assert.ok(shown > 0, 'the demo data has a dormant category with a forecast should it draw again');
      const forecast = await page(app, `/categories/${predict[0].category_id}`);
      assert.doesNotMatch(forecast.body, /id="if-resumed"/, 'a forecast category has no conditional forecast');
    });

    it('the page tour lists pages that all load', async () => {
      const paths = await pageTour(app);
      assert.ok(paths.length >= 8);
      for (const url of paths) assert.equal((await app.inject(url)).statusCode, 200, url);
    });
  },
  { migrations: drawsService.migrations },
);

describeWithSnapshot('draws pages on the real snapshot', (t) => {
  let app: ServiceApp;
  before(async () => {
    const ctx = drawsContext(t.db);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
  });
  after(async () => app?.close());

  it('a young category says its forecast is pooled and wider, on its page, on / and in the score tool', async () => {
    const models = (await app.inject('/api/models/')).json().categories as ApiModelsCategory[];
    const young = models.find((c) => c.status === 'young');
    assert.ok(young, 'the snapshot has a young category (Education occupations)');
    const one = await page(app, `/categories/${young.category_id}`);
    assert.equal(one.status, 200);
    assert.match(one.text, /Young category\. With \d+ draws? in its current run, its forecast is pooled/);
    assert.match(one.text, /so they are wider/);
    const home = await page(app, '/');
    assert.match(home.text, new RegExp(`${young.category_name}: young .* forecast by the pooled model with wider intervals`));
    const score = await page(app, `/my-score?crs=480&category=${young.category_id}`);
    assert.match(score.text, /Young category\./);
    for (const dormant of models.filter((c) => c.status === 'dormant')) {
      assert.match(home.text, new RegExp(`${dormant.category_name}: dormant since ${formatDate('en', dormant.dormant_since ?? '')}`));
    }
    // real rounds link to their notices on canada.ca
    const draws = await page(app, '/draws');
    assert.match(draws.body, /<a href="https:\/\/www\.canada\.ca\/[^"]+">\d+[a-z]?<\/a>/);
  });
});

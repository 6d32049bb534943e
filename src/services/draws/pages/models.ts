// `/models`: the models' walk-forward backtest against naive (the data of GET /api/models/: the stored forecasts'
// model performance and per-category h = 1 errors), what each model is, how well the intervals held, and the rules
// behind every number.
import { barChart, html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { StoredForecasts, StoredModelPerformance } from '../aggregates.ts';
import type { HorizonMetrics } from '../forecast/metrics.ts';
import { FORECAST_METHOD, MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { listCategories, readForecasts } from '../repository.ts';
import type { DrawsRouteContext } from '../routes/context.ts';
import { count, percent, sendPage, statusBadge } from './shared.ts';

export const MODELS_CHART = 'backtest-mae';
/** Horizons the chart compares (the table shows every horizon stored). */
export const CHART_HORIZONS = [1, 2, 3];

const fixed = (x: number | null | undefined, digits = 1) => (x === null || x === undefined ? '—' : x.toFixed(digits));

/** The models scored on the established categories' forecasts (pooled_young is scored on other forecasts). */
export function comparedModels(stored: StoredForecasts): StoredModelPerformance[] {
  return MODEL_CATALOGUE.flatMap((m) => stored.models.filter((p) => p.name === m.name && p.name !== 'pooled_young'));
}

export function backtestChart(stored: StoredForecasts) {
  const models = comparedModels(stored);
  return barChart({
    id: MODELS_CHART,
    title: 'Mean absolute error of the CRS cut-off forecasts, by model and draws ahead',
    description:
      'Walk-forward backtest over the last two years of the established categories: lower is better; naive repeats the last cut-off.',
    categories: models.map((m) => m.name),
    series: CHART_HORIZONS.map((h) => ({
      name: h === 1 ? 'next' : `${h} ahead`,
      values: models.map((m) => m.crs.find((r) => r.h === h)?.mae ?? null),
    })),
    valueName: 'CRS points',
  });
}

function horizonTable(stored: StoredForecasts, h: number, kind: 'crs' | 'invitations'): SafeHtml {
  const rowOf = (m: StoredModelPerformance) => m[kind].find((r) => r.h === h);
  const naive = stored.models.find((m) => m.name === 'naive');
  const naiveMae = naive ? (rowOf(naive)?.mae ?? null) : null;
  const unit = kind === 'crs' ? 'CRS points' : 'log invitations';
  return html`<div class="table-scroll">
    <table class="data" id="backtest-${kind}-h${h}">
      <caption>
        ${kind === 'crs' ? 'Lowest CRS score' : 'Invitations (errors on the log scale)'}, ${h === 1 ? 'next draw' : `${h} draws ahead`}
        (${unit})
      </caption>
      <thead>
        <tr>
          <th scope="col">Model</th>
          <th scope="col" class="num">Forecasts</th>
          <th scope="col" class="num">Mean absolute error</th>
          <th scope="col" class="num">Relative to naive</th>
          <th scope="col" class="num">RMSE</th>
          <th scope="col" class="num">MASE</th>
          <th scope="col" class="num">Bias (actual − forecast)</th>
          <th scope="col" class="num">95% interval held</th>
          <th scope="col" class="num">Median half-width</th>
        </tr>
      </thead>
      <tbody>
        ${MODEL_CATALOGUE.map((catalogue) => {
          const m = stored.models.find((p) => p.name === catalogue.name);
          const r: HorizonMetrics | undefined = m ? rowOf(m) : undefined;
          const comparable = catalogue.name !== 'pooled_young';
          const digits = kind === 'crs' ? 1 : 3;
          return html`<tr>
            <th scope="row">
              ${catalogue.name}${catalogue.name === 'combination' ? html` <span class="badge good">served</span>` : ''}${
                catalogue.name === 'pooled_young' ? html` <span class="badge warn">served to young categories</span>` : ''
              }
            </th>
            <td class="num">${r ? count(r.n) : '—'}</td>
            <td class="num">${fixed(r?.mae, digits)}</td>
            <td class="num">${comparable && r?.mae != null && naiveMae ? `${(r.mae / naiveMae).toFixed(3)}×` : '—'}</td>
            <td class="num">${fixed(r?.rmse, digits)}</td>
            <td class="num">${fixed(r?.mase, 3)}</td>
            <td class="num">${fixed(r?.bias, digits)}</td>
            <td class="num">${r?.coverage_95 == null ? '—' : percent(r.coverage_95)}</td>
            <td class="num">${fixed(r?.median_half_width, digits)}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

async function categoryTable(routes: DrawsRouteContext, stored: StoredForecasts): Promise<SafeHtml> {
  const names = new Map((await listCategories(routes.db, { activeOnly: false })).map((c) => [c.id, c.name]));
  const rows = stored.categories.filter((c) => c.backtest_h1.n > 0 || c.status === 'predicted' || c.status === 'young');
  return html`<div class="table-scroll">
    <table class="data" id="backtest-categories">
      <caption>
        Next-draw CRS forecasts by category over the last two years: mean absolute error of the served forecast, naive and the mean of the
        last six
      </caption>
      <thead>
        <tr>
          <th scope="col">Category</th>
          <th scope="col">Status</th>
          <th scope="col" class="num">Forecasts</th>
          <th scope="col" class="num">Served</th>
          <th scope="col" class="num">Naive</th>
          <th scope="col" class="num">Window mean</th>
          <th scope="col" class="num">Served relative to naive</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map((c) => {
          const b = c.backtest_h1;
          return html`<tr>
            <th scope="row"><a href="/categories/${c.category_id}">${names.get(c.category_id) ?? c.slug}</a></th>
            <td>${statusBadge(c.status, c.dormant_since)}</td>
            <td class="num">${count(b.n)}</td>
            <td class="num">${fixed(b.served)}</td>
            <td class="num">${fixed(b.naive)}</td>
            <td class="num">${fixed(b.window_mean)}</td>
            <td class="num">${b.served !== null && b.naive ? `${(b.served / b.naive).toFixed(3)}×` : '—'}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function intervalsTable(stored: StoredForecasts): SafeHtml {
  const c = stored.calibration;
  const hs = [...new Set([...c.crs.map((r) => r.h), ...c.invitations.map((r) => r.h), ...c.dates.map((r) => r.h)])].sort((a, b) => a - b);
  const held = (r: { coverage_95?: number | null; coverage?: number | null; n: number } | undefined) => {
    const v = r ? (r.coverage_95 ?? r.coverage ?? null) : null;
    return r && v !== null && v !== undefined ? `${percent(v)} of ${count(r.n)}` : '—';
  };
  return html`<div class="table-scroll">
    <table class="data" id="interval-coverage">
      <caption>
        How often the 95% intervals served at the time held what came (last two years, established categories)
      </caption>
      <thead>
        <tr>
          <th scope="col">Draws ahead</th>
          <th scope="col" class="num">Lowest CRS</th>
          <th scope="col" class="num">Invitations</th>
          <th scope="col" class="num">Date range</th>
          <th scope="col" class="num">Central level of the date range</th>
        </tr>
      </thead>
      <tbody>
        ${hs.map((h) => {
          const d = c.dates.find((r) => r.h === h);
          return html`<tr>
            <th scope="row">${h === 1 ? 'next draw' : h}</th>
            <td class="num">${held(c.crs.find((r) => r.h === h))}</td>
            <td class="num">${held(c.invitations.find((r) => r.h === h))}</td>
            <td class="num">${held(d)}</td>
            <td class="num">${d ? d.level : '—'}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function catalogue(): SafeHtml {
  return html`<dl class="facts" id="model-catalogue">
    ${MODEL_CATALOGUE.map(
      (m) =>
        html`<dt id="model-${m.name}">${m.name}</dt>
          <dd>
            ${m.description}${
              Object.keys(m.parameters).length > 0
                ? html`<br /><span class="muted"
                      >Parameters:
                      ${Object.entries(m.parameters)
                        .map(([k, v]) => `${k} = ${v}`)
                        .join('; ')}</span
                    >`
                : ''
            }
          </dd>`,
    )}
  </dl>`;
}

export function modelsPage(app: ServiceApp, routes: DrawsRouteContext, kit: PageKit): void {
  app.get('/models', { config: { responseCache: true } }, async (request, reply) =>
    sendPage(kit, request, reply, async () => {
      const stored = (await readForecasts(routes.db))?.value ?? null;
      const version = await kit.dataVersion();
      const horizons = stored ? [...new Set(stored.models.flatMap((m) => m.crs.map((r) => r.h)))].sort((a, b) => a - b) : [];
      return {
        title: 'Models and backtest',
        description:
          'The forecasting models of the Express Entry draws, their walk-forward backtest against naive, and the rules behind the numbers.',
        section: '/models',
        body: html`<h1>Models and their backtest</h1>
          <p class="lead">
            After every past draw of every category, each model forecast the category’s next five draws from what was known that day only.
            These forecasts, scored against the draws that followed, are the backtest below: naive (repeat the last value) is the baseline a
            model has to beat. ${stored ? html`Forecasts as of ${stored.as_of}.` : ''}
          </p>
          ${
            stored === null
              ? html`<p class="note warn">No forecasts are stored yet (import draws first).</p>`
              : html`<h2>Against naive</h2>
                  ${horizonTable(stored, 1, 'crs')} ${kit.charts.figure(`${version}|${MODELS_CHART}`, () => backtestChart(stored))}
                  <details>
                    <summary>Lowest CRS score at every horizon, and invitations</summary>
                    ${horizons.filter((h) => h > 1).map((h) => horizonTable(stored, h, 'crs'))}
                    ${horizons.map((h) => horizonTable(stored, h, 'invitations'))}
                  </details>
                  <p class="muted">
                    pooled_young is scored on every young category’s forecasts ever made, not on the established categories’ forecasts the
                    other rows share, so it is not set against naive. MASE divides each error by the category’s mean absolute change between
                    draws when the forecast was made.
                  </p>
                  <h2>By category</h2>
                  ${await categoryTable(routes, stored)}
                  <h2>Do the intervals hold?</h2>
                  ${intervalsTable(stored)}`
          }
          <h2>The models</h2>
          ${catalogue()}
          <h2>The rules behind the numbers</h2>
          <h3>Intervals</h3>
          <p>${FORECAST_METHOD.interval}</p>
          <h3>Young categories</h3>
          <p>${FORECAST_METHOD.young}</p>
          <h3>Dates</h3>
          <p>${FORECAST_METHOD.dates}</p>
          <h3>Dormant categories</h3>
          <p>${FORECAST_METHOD.dormant}</p>
          <h3>Confidence score</h3>
          <p>${FORECAST_METHOD.confidence}</p>
          <h3>The backtest</h3>
          <p>${FORECAST_METHOD.backtest_definition}</p>`,
      };
    }),
  );
}

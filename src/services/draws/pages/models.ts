// `/models`: the models' walk-forward backtest against naive (the data of GET /api/models/: the stored forecasts'
// model performance and per-category h = 1 errors), what each model is, how well the intervals held, and the rules
// behind every number.
import { barChart, html } from '../../../core/pages/index.ts';
import type { PageKit, SafeHtml } from '../../../core/pages/index.ts';
import { definePage } from '../../../core/pages/page.ts';
import type { ServiceApp } from '../../../core/service.ts';
import type { StoredForecasts, StoredModelPerformance } from '../aggregates.ts';
import type { ModelName } from '../forecast/forecast-panel.ts';
import type { HorizonMetrics } from '../forecast/metrics.ts';
import { FORECAST_METHOD, MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';
import { listCategories, readForecasts } from '../repository.ts';
import type { DrawsState } from '../state.ts';
import { staleWindow } from './forecast-view.ts';
import { translated, parameterName } from './translated.ts';
import { categoryIn, categoryNames, count, percent, statusBadge, wordsOf } from './shared.ts';
import type { Words } from './shared.ts';

export const MODELS_CHART = 'backtest-mae';
/** Horizons the chart compares (the table shows every horizon stored). */
export const CHART_HORIZONS = [1, 2, 3];

const fixed = (x: number | null | undefined, w: Words, digits = 1) => (x === null || x === undefined ? '—' : w.loc.fixed(x, digits));

/** A model's name in the page's language (its identifier, as /api/models/ names it, is written beside it). */
function modelName(name: ModelName, w: Words): string {
  return w.t(`member.${name}`);
}

/** The models scored on the established categories' forecasts (pooled_young is scored on other forecasts). */
function comparedModels(stored: StoredForecasts): StoredModelPerformance[] {
  return MODEL_CATALOGUE.flatMap((m) => stored.models.filter((p) => p.name === m.name && p.name !== 'pooled_young'));
}

function backtestChart(stored: StoredForecasts, w: Words) {
  const { t } = w;
  const models = comparedModels(stored);
  return barChart({
    id: MODELS_CHART,
    title: t('models.chart'),
    description: t('models.chartText'),
    // Identifiers, as the tables and the descriptions below write them: the names in words are too long for the axis.
    categories: models.map((m) => m.name),
    series: CHART_HORIZONS.map((h) => ({
      name: h === 1 ? t('models.next') : t('models.ahead', { h }),
      values: models.map((m) => m.crs.find((r) => r.h === h)?.mae ?? null),
    })),
    valueName: t('models.crsPoints'),
    language: w.loc.language,
  });
}

function horizonTable(stored: StoredForecasts, h: number, kind: 'crs' | 'invitations', w: Words): SafeHtml {
  const { t, loc } = w;
  const rowOf = (m: StoredModelPerformance) => m[kind].find((r) => r.h === h);
  const naive = stored.models.find((m) => m.name === 'naive');
  const naiveMae = naive ? (rowOf(naive)?.mae ?? null) : null;
  const unit = kind === 'crs' ? t('models.crsPoints') : t('models.logInvitations');
  return html`<div class="table-scroll">
    <table class="data" id="backtest-${kind}-h${h}">
      <caption>
        ${t(kind === 'crs' ? 'models.captionCrs' : 'models.captionInv', { h, unit })}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('category.model')}</th>
          <th scope="col" class="num">${t('models.forecasts')}</th>
          <th scope="col" class="num">${t('models.mae')}</th>
          <th scope="col" class="num">${t('models.relative')}</th>
          <th scope="col" class="num">RMSE</th>
          <th scope="col" class="num">MASE</th>
          <th scope="col" class="num">${t('models.bias')}</th>
          <th scope="col" class="num">${t('models.held')}</th>
          <th scope="col" class="num">${t('models.halfWidth')}</th>
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
              <code>${catalogue.name}</code>
              ${modelName(catalogue.name, w)}${catalogue.name === 'combination' ? html` <span class="badge good">${t('models.served')}</span>` : ''}${
                catalogue.name === 'pooled_young' ? html` <span class="badge warn">${t('models.servedYoung')}</span>` : ''
              }
            </th>
            <td class="num">${r ? count(r.n, w) : '—'}</td>
            <td class="num">${fixed(r?.mae, w, digits)}</td>
            <td class="num">${comparable && r?.mae != null && naiveMae ? `${loc.fixed(r.mae / naiveMae, 3)}×` : '—'}</td>
            <td class="num">${fixed(r?.rmse, w, digits)}</td>
            <td class="num">${fixed(r?.mase, w, 3)}</td>
            <td class="num">${fixed(r?.bias, w, digits)}</td>
            <td class="num">${r?.coverage_95 == null ? '—' : percent(r.coverage_95, w)}</td>
            <td class="num">${fixed(r?.median_half_width, w, digits)}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function categoryTable(stored: StoredForecasts, names: ReadonlyMap<number, string>, w: Words): SafeHtml {
  const { t } = w;
  const rows = stored.categories.filter((c) => c.backtest_h1.n > 0 || c.status === 'predicted' || c.status === 'young');
  return html`<div class="table-scroll">
    <table class="data" id="backtest-categories">
      <caption>
        ${t('models.categoriesCaption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('common.category')}</th>
          <th scope="col">${t('common.status')}</th>
          <th scope="col" class="num">${t('models.forecasts')}</th>
          <th scope="col" class="num">${t('models.servedColumn')}</th>
          <th scope="col" class="num">${t('models.naive')}</th>
          <th scope="col" class="num">${t('models.windowMean')}</th>
          <th scope="col" class="num">${t('models.servedRelative')}</th>
        </tr>
      </thead>
      <tbody>
        ${rows.map((c) => {
          const b = c.backtest_h1;
          return html`<tr>
            <th scope="row"><a href="/categories/${c.category_id}">${names.get(c.category_id) ?? c.slug}</a></th>
            <td>${statusBadge(c.status, w, c.dormant_since)}</td>
            <td class="num">${count(b.n, w)}</td>
            <td class="num">${fixed(b.served, w)}</td>
            <td class="num">${fixed(b.naive, w)}</td>
            <td class="num">${fixed(b.window_mean, w)}</td>
            <td class="num">${b.served !== null && b.naive ? `${w.loc.fixed(b.served / b.naive, 3)}×` : '—'}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function intervalsTable(stored: StoredForecasts, w: Words): SafeHtml {
  const { t } = w;
  const c = stored.calibration;
  const hs = [...new Set([...c.crs.map((r) => r.h), ...c.invitations.map((r) => r.h), ...c.dates.map((r) => r.h)])].sort((a, b) => a - b);
  const held = (r: { coverage_95?: number | null; coverage?: number | null; n: number } | undefined) => {
    const v = r ? (r.coverage_95 ?? r.coverage ?? null) : null;
    return r && v !== null && v !== undefined ? t('models.heldOf', { held: percent(v, w), count: r.n }) : '—';
  };
  return html`<div class="table-scroll">
    <table class="data" id="interval-coverage">
      <caption>
        ${t('models.intervalsCaption')}
      </caption>
      <thead>
        <tr>
          <th scope="col">${t('models.drawsAhead')}</th>
          <th scope="col" class="num">${t('common.lowestCrs')}</th>
          <th scope="col" class="num">${t('common.invitations')}</th>
          <th scope="col" class="num">${t('common.dateRange90')}</th>
          <th scope="col" class="num">${t('models.centralLevel')}</th>
        </tr>
      </thead>
      <tbody>
        ${hs.map((h) => {
          const d = c.dates.find((r) => r.h === h);
          return html`<tr>
            <th scope="row">${h === 1 ? t('models.nextDraw') : h}</th>
            <td class="num">${held(c.crs.find((r) => r.h === h))}</td>
            <td class="num">${held(c.invitations.find((r) => r.h === h))}</td>
            <td class="num">${held(d)}</td>
            <td class="num">${d ? w.loc.number(d.level, 3) : '—'}</td>
          </tr>`;
        })}
      </tbody>
    </table>
  </div>`;
}

function catalogue(w: Words): SafeHtml {
  const { loc } = w;
  const value = (model: string, name: string, v: string | number) =>
    typeof v === 'number' ? loc.number(v, 3) : translated(`parameter.${model}.${name}`, v, loc);
  return html`<dl class="facts" id="model-catalogue">
    ${MODEL_CATALOGUE.map(
      (m) =>
        html`<dt id="model-${m.name}"><code>${m.name}</code></dt>
          <dd>
            ${translated(`model.${m.name}`, m.description, loc)}${
              Object.keys(m.parameters).length > 0
                ? html`<br /><span class="muted"
                      >${w.t('models.parameters')}
                      ${Object.entries(m.parameters).map(
                        ([k, v], i) => html`${i > 0 ? '; ' : ''}${parameterName(k, loc.language)} = ${value(m.name, k, v)}`,
                      )}</span
                    >`
                : ''
            }
          </dd>`,
    )}
  </dl>`;
}

/** The rules the page explains, in its order: keys of FORECAST_METHOD and their headings. */
const RULES = [
  ['interval', 'models.rulesIntervals'],
  ['young', 'models.rulesYoung'],
  ['dates', 'models.rulesDates'],
  ['likely_window', 'models.rulesLikelyWindow'],
  ['dormant', 'models.rulesDormant'],
  ['confidence', 'models.rulesConfidence'],
  ['backtest_definition', 'models.rulesBacktest'],
] as const;

export function modelsPage(app: ServiceApp, state: DrawsState, kit: PageKit): void {
  definePage(app, kit, {
    url: '/models',
    async read({ locale }) {
      const [stored, categories, french] = await Promise.all([
        readForecasts(state.db),
        listCategories(state.db, { activeOnly: false }),
        categoryNames(state, locale.language),
      ]);
      const source = await state.source(stored?.value.as_of ?? null);
      return { stored: stored?.value ?? null, source, names: new Map(categories.map((c) => [c.id, categoryIn(c, french).name])) };
    },
    render({ stored, source, names }, { locale, chart }) {
      const w = wordsOf(locale);
      const { t } = w;
      const horizons = stored ? [...new Set(stored.models.flatMap((m) => m.crs.map((r) => r.h)))].sort((a, b) => a - b) : [];
      return {
        title: t('models.title'),
        description: t('models.description'),
        section: '/models',
        body: html`<h1>${t('models.heading')}</h1>
          <p class="lead">${t('models.lead')} ${stored ? t('models.asOf', { date: w.loc.date(stored.as_of) }) : ''}</p>
          ${stored ? staleWindow(stored.as_of, source, w) : ''}
          ${
            stored === null
              ? html`<p class="note warn">${t('models.none')}</p>`
              : html`<h2>${t('models.against')}</h2>
                  ${horizonTable(stored, 1, 'crs', w)} ${chart(MODELS_CHART, () => backtestChart(stored, w))}
                  <details>
                    <summary>${t('models.every')}</summary>
                    ${horizons.filter((h) => h > 1).map((h) => horizonTable(stored, h, 'crs', w))}
                    ${horizons.map((h) => horizonTable(stored, h, 'invitations', w))}
                  </details>
                  <p class="muted">${t('models.pooledNote')}</p>
                  <h2>${t('models.byCategory')}</h2>
                  ${categoryTable(stored, names, w)}
                  <h2>${t('models.intervals')}</h2>
                  ${intervalsTable(stored, w)}`
          }
          <h2>${t('models.models')}</h2>
          ${catalogue(w)}
          <h2>${t('models.rules')}</h2>
          ${RULES.map(
            ([key, heading]) =>
              html`<h3>${t(heading)}</h3>
                <p>${translated(`rule.${key}`, FORECAST_METHOD[key], w.loc)}</p>`,
          )}`,
      };
    },
  });
}

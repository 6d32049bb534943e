// The data's age in every answer: the real snapshot (newest draw 2025-12-17) imported with the as-of date a year
// later, both databases. Staleness counts from the newest draw (PDI_DRAWS_STALE_DAYS, default 30) as well as from
// the import: the API's data_source, /api/sync-status/, /metrics and the pages say so, and the forecast answers
// name their origin and the newest draw they used. The clock is the as-of date, injected through the environment.
import fs from 'node:fs';
import { formatDate } from '../../core/i18n/format.ts';
import { before, after, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import type { ServiceApp } from '../../core/service.ts';
import { readSyncStatus } from '../../core/sync/status.ts';
import type { SyncStatus } from '../../core/sync/status.ts';
import { describeWithSnapshot, drawsContext, importSnapshot, SNAPSHOT_FILE } from '../../../test/support/draws/context.ts';
import { buildTestApp, testContext } from '../../../test/support/app.ts';
import { AS_OF_VARIABLE } from './as-of.ts';
import { categoriseRounds } from './feed/categories.ts';
import { parseRoundsFeed } from './feed/rounds-feed.ts';
import { forecastPanel } from './forecast/forecast-panel.ts';
import type { PanelForecast } from './forecast/forecast-panel.ts';
import { drawsNewestObservation, STALE_DAYS_VARIABLE, staleAfterDays } from './freshness.ts';
import type { CategoryPredictionsResponse } from './schemas/categories.ts';
import type { ModelsResponse } from './schemas/models.ts';
import type { PredictResponse } from './schemas/predict.ts';
import type { StatsResponse } from './schemas/stats.ts';
import { drawsService } from './service.ts';

const LATER = '2026-12-06';
const NEWEST = '2025-12-17';
/** A date as the English pages write it. */
const words = (date: string) => formatDate('en', date);

/** The snapshot's categories as forecastPanel takes them. */
function snapshotPanelInput() {
  const { rounds } = parseRoundsFeed(fs.readFileSync(SNAPSHOT_FILE, 'utf8'));
  return categoriseRounds(rounds).map((g, k) => ({
    id: k + 1,
    slug: g.category.slug,
    draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
  }));
}

it('PDI_DRAWS_STALE_DAYS: 30 by default, a whole number of days, or off', () => {
  assert.equal(staleAfterDays({}), 30);
  assert.equal(staleAfterDays({ [STALE_DAYS_VARIABLE]: ' 45 ' }), 45);
  assert.equal(staleAfterDays({ [STALE_DAYS_VARIABLE]: 'off' }), null);
  for (const bad of ['0', '-3', '2.5', 'thirty', '1e3'])
    assert.throws(() => staleAfterDays({ [STALE_DAYS_VARIABLE]: bad }), /PDI_DRAWS_STALE_DAYS must be a whole number of days/);
});

describeWithSnapshot('draws: the data’s age in every answer', (t) => {
  let app: ServiceApp;
  const env = (extra: Record<string, string> = {}) => ({ ...process.env, [AS_OF_VARIABLE]: LATER, ...extra });
  const get = async <T>(url: string) => (await app.inject(url)).json<T>();

  before(async () => {
    const ctx = drawsContext(t.db, LATER);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
  });
  after(async () => app?.close());

  it('forecast answers name their origin and the newest draw they used; data_source says the draws are stale', async () => {
    const predict = await get<Static<typeof PredictResponse>>('/api/predict/');
    assert.equal(predict.forecast_origin, LATER);
    assert.deepEqual(predict.newest_draw_used, { date: NEWEST, round_number: '388' });
    const source = predict.data_source;
    assert.equal(source.newest_draw_date, NEWEST);
    assert.equal(source.days_since_newest_draw, 354);
    assert.equal(source.stale_after_days, 30);
    assert.equal(source.stale, true);
    const one = await get<Static<typeof PredictResponse>>(`/api/predict/${predict.data[0].category_id}/`);
    assert.deepEqual([one.forecast_origin, one.newest_draw_used], [LATER, predict.newest_draw_used]);
    const category = await get<Static<typeof CategoryPredictionsResponse>>(`/api/categories/${predict.data[0].category_id}/predictions/`);
    assert.deepEqual([category.forecast_origin, category.newest_draw_used], [LATER, predict.newest_draw_used]);
    const stats = await get<Static<typeof StatsResponse>>('/api/stats/');
    assert.deepEqual([stats.forecast_origin, stats.newest_draw_used, stats.data_source.stale], [LATER, predict.newest_draw_used, true]);
  });

  it('/api/sync-status/ and /metrics count from the newest draw as well as from the import', async () => {
    const status = await get<SyncStatus>('/api/sync-status/');
    assert.equal(status.data.import_stale, false, 'imported just now');
    assert.deepEqual(status.data.newest_observation, {
      noun: 'draw',
      date: NEWEST,
      today: LATER,
      age_days: 354,
      stale_after_days: 30,
      stale: true,
    });
    assert.equal(status.data.stale, true);
    const metrics = (await app.inject('/metrics')).body;
    assert.match(metrics, /pdi_data_stale\{service="draws"\} 1/);
    assert.match(metrics, /pdi_data_newest_observation_stale\{service="draws"\} 1/);
    assert.match(metrics, /pdi_data_newest_observation_age_days\{service="draws"\} 354/);

    // The same data read on the day after its newest draw, or with a longer limit, is current.
    const dayAfter = await readSyncStatus(
      t.db.kysely,
      'draws',
      env({ [AS_OF_VARIABLE]: '2025-12-18' }),
      new Date(),
      drawsNewestObservation,
    );
    assert.deepEqual([dayAfter.data.newest_observation?.age_days, dayAfter.data.stale], [1, false]);
    const longer = await readSyncStatus(t.db.kysely, 'draws', env({ [STALE_DAYS_VARIABLE]: '400' }), new Date(), drawsNewestObservation);
    assert.deepEqual([longer.data.newest_observation?.stale, longer.data.stale], [false, false]);
    const off = await readSyncStatus(t.db.kysely, 'draws', env({ [STALE_DAYS_VARIABLE]: 'off' }), new Date(), drawsNewestObservation);
    assert.deepEqual([off.data.newest_observation?.stale, off.data.stale], [null, false]);
  });

  it('a stale feed’s next draws are dated by the residual law, not conditioned on a year without a draw', async () => {
    const categories = snapshotPanelInput();
    const next = (panel: PanelForecast, slug: string) => {
      const p = panel.categories.find((c) => c.slug === slug)!.predictions[0];
      return { date_range: p.date_range, likely_window: p.likely_window };
    };
    const stale = forecastPanel(categories, LATER, { report: false, staleAfterDays: 30 });
    const conditioned = forecastPanel(categories, LATER, { report: false });
    assert.equal(stale.stale, true);
    const predict = await get<Static<typeof PredictResponse>>('/api/predict/');
    for (const [id, slug] of [
      [2, 'cec'],
      [3, 'pnp'],
    ] as const) {
      const served = predict.data.find((c) => c.category_id === id)!.predictions[0];
      assert.deepEqual({ date_range: served.date_range, likely_window: served.likely_window }, next(stale, slug), slug);
    }
    // Conditioned on 354 days without a draw, CEC's next draw was placed within a week of the as-of date.
    assert.notDeepEqual(next(stale, 'cec').date_range, next(conditioned, 'cec').date_range);
  });

  it('the home, category and my-score pages say plainly that the data is old, with the newest draw’s date', async () => {
    for (const url of ['/', '/categories/2', '/my-score']) {
      const page = (await app.inject(url)).body;
      assert.match(
        page,
        new RegExp(
          `<strong>Old data:</strong>\\s+the newest draw held is dated ${words(NEWEST)}, 354 days \\(about a year\\) before\\s+${words(LATER)}`,
        ),
        url,
      );
      // what the age means for the forecasts, said beside it
      assert.match(
        page,
        new RegExp(
          `What that means for the forecasts: draws since ${words(NEWEST)} are probably missing, so the days since it are not counted as a wait`,
        ),
        url,
      );
      const french = (await app.inject(`${url}${url.includes('?') ? '&' : '?'}lang=fr`)).body;
      assert.match(french, /<strong>Données anciennes :<\/strong>[^<]*354 jours \(environ un an\) avant le/, url);
      assert.match(
        french,
        /Ce que cela signifie pour les prévisions : des rondes tenues depuis le 17 décembre 2025 manquent probablement/,
        url,
      );
      assert.match(page, new RegExp(`Forecasts made on ${words(LATER)} from the draws up to ${words(NEWEST)} \\(round\\s+388\\)`), url);
      assert.match(
        page,
        new RegExp(
          `class="stale-banner"[^]*The newest draw in it is dated ${words(NEWEST)}, 354 days ago: no draw\\s+for more than 30 days`,
        ),
        url,
      );
    }
    const fresh = await buildTestApp(drawsService, testContext(drawsService, t.db, { env: env({ [STALE_DAYS_VARIABLE]: '400' }) }));
    try {
      const page = (await fresh.inject('/')).body;
      assert.doesNotMatch(page, /Old data:|stale-banner/);
      assert.match(page, new RegExp(`Forecasts made on ${words(LATER)} from the draws up to ${words(NEWEST)}`));
      assert.equal((await fresh.inject('/api/predict/')).json<Static<typeof PredictResponse>>().data_source.stale, false);
    } finally {
      await fresh.close();
    }
  });

  it('a malformed PDI_DRAWS_STALE_DAYS stops the start with its message', async () => {
    await assert.rejects(
      buildTestApp(drawsService, testContext(drawsService, t.db, { env: env({ [STALE_DAYS_VARIABLE]: 'soon' }) })),
      /PDI_DRAWS_STALE_DAYS must be a whole number of days/,
    );
  });
});

describeWithSnapshot('draws: a stale feed judges dormancy over the days it covers', (t) => {
  // Half a year past the year in which every category of the snapshot would have passed 365 days without a draw.
  const AS_OF = '2027-06-01';
  let app: ServiceApp;

  before(async () => {
    const ctx = drawsContext(t.db, AS_OF);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
  });
  after(async () => app?.close());

  it('the categories that drew up to the feed’s newest draw are forecast; a retired one stays dormant and says why', async () => {
    const models = (await app.inject('/api/models/')).json<Static<typeof ModelsResponse>>();
    const byName = new Map(models.categories.map((c) => [c.category_name, c]));
    const drawing = [
      'Canadian Experience Class',
      'Provincial Nominee Program',
      'French-language proficiency',
      'Healthcare and social services occupations',
      'Trade occupations',
      'Education occupations',
    ];
    for (const name of drawing) assert.notEqual(byName.get(name)?.status, 'dormant', name);
    const predict = (await app.inject('/api/predict/')).json<Static<typeof PredictResponse>>();
    assert.deepEqual(predict.data.map((c) => c.category_name).sort(), [...drawing].sort());
    assert.ok(predict.data.every((c) => c.predictions.length > 0));

    // General last drew 2024-04-23: 603 days before the newest draw, past its 365, so dormant since the day the feed shows.
    const general = byName.get('General')!;
    assert.equal(general.status, 'dormant');
    assert.equal(general.dormant_since, '2025-04-24');
    assert.match(
      general.reason,
      /^dormant since 2025-04-24: last draw 2024-04-23, 603 days before 2025-12-17, the newest draw of a stale feed; dormant after 365 days without a draw/,
    );
    const page = (await app.inject(`/categories/${general.category_id}`)).body;
    assert.match(page, new RegExp(`603 days before ${words(NEWEST)}, the newest draw in the data \\(the data is stale`));
    const french = (await app.inject(`/categories/${general.category_id}?lang=fr`)).body;
    assert.match(french, new RegExp(`603 jours avant le ${formatDate('fr', NEWEST)}, la ronde la plus récente des données`));
  });

  it('on a feed that is not stale the same as-of date counts the silence to it: the same categories are dormant', () => {
    const categories = snapshotPanelInput();
    const status = (staleAfterDays: number | null) =>
      Object.fromEntries(forecastPanel(categories, AS_OF, { report: false, staleAfterDays }).categories.map((c) => [c.slug, c.status]));
    const judgedToNewest = status(30);
    const judgedToAsOf = status(null);
    for (const slug of ['cec', 'pnp']) {
      assert.equal(judgedToAsOf[slug], 'dormant', slug);
      assert.equal(judgedToNewest[slug], 'predicted', slug);
    }
  });
});

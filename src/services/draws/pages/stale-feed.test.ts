// D's pages read as a candidate would on the IRCC snapshot a year after its newest draw (a stale feed), on SQLite and
// PostgreSQL: every statement about a figure holds for the figures shown beside it, and French pages say English
// names as English.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildTestApp } from '../../../../test/support/app.ts';
import { describeWithSnapshot, drawsContext, importSnapshot } from '../../../../test/support/draws/context.ts';
import { figures, tableRows, textOf } from '../../../../test/support/pages.ts';
import { formatDate } from '../../../core/i18n/format.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { drawsService } from '../service.ts';
import { clearance, lawCdf } from './clearance.ts';
import { wordsIn } from './shared.ts';
import { statusReasonIn } from './status-reason.ts';
import { MODEL_CATALOGUE } from '../forecast/model-catalogue.ts';

const EN = wordsIn('en');
const FR = wordsIn('fr');
/** The as-of date a year after the snapshot's newest draw (2025-12-17): the feed is stale. */
const STALE_AS_OF = '2026-12-07';
const spaced = (text: string) => text.replace(/\s+/g, ' ').trim();

interface Entry {
  category_id: number;
  status: string;
  predictions: unknown[];
}

describeWithSnapshot('draws pages on a stale feed', (t) => {
  let app: ServiceApp;
  let predict: Entry[];
  before(async () => {
    const ctx = drawsContext(t.db, STALE_AS_OF);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
    const answer = (await app.inject('/api/predict/')).json();
    assert.equal(answer.data_source.stale, true, 'the snapshot is stale a year after its newest draw');
    predict = (await app.inject('/api/models/')).json().categories;
  });
  after(async () => app?.close());

  const body = async (url: string) => {
    const res = await app.inject(url);
    assert.equal(res.statusCode, 200, url);
    return res.body;
  };

  it('/ does not call the likely three weeks’ chances checked, nor set the fresh ranges’ record beside the stale ranges', async () => {
    for (const w of [EN, FR]) {
      const page = await body(w === EN ? '/' : '/?lang=fr');
      const note = textOf(/<p class="muted" id="likely-note">([\s\S]*?)<\/p>/.exec(page)![1]);
      assert.equal(note, spaced(w.t('overview.likelyNoteStale')));
      assert.notEqual(note, spaced(w.t('overview.likelyNote')), 'the fresh note says the chances were checked against past windows');
      const text = textOf(page);
      const fresh = spaced(w.t('overview.calibrationDates', { held: '§' })).split('§');
      const stale = spaced(w.t('overview.calibrationDatesStale', { held: '§' })).split('§');
      assert.ok(text.includes(stale[1]), 'the date ranges’ record says it is a current feed’s');
      assert.ok(!text.includes(`${fresh[1]}.`), 'no record of other ranges said as the shown ranges’');
    }
  });

  it('/ names each category not forecast with the language’s colon', async () => {
    const dormant = predict.filter((c) => c.status === 'dormant');
    assert.ok(dormant.length > 0);
    for (const [w, suffix, colon] of [
      [EN, '', ':'],
      [FR, '?lang=fr', ' :'],
    ] as const) {
      const list = /<ul id="not-forecast">([\s\S]*?)<\/ul>/.exec(await body(`/${suffix}`))![1];
      const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1]));
      assert.equal(items.length, dormant.length);
      for (const item of items) {
        const prefix = `${spaced(w.t('overview.dormant', { since: '§', last: '§' })).split('§')[0]}`;
        assert.ok(item.includes(`${colon} ${prefix}`), `${suffix}: ${item}`);
      }
    }
  });

  it('a dormant category’s charts describe no forecast line, band or table; a forecast category’s do', async () => {
    const dormant = predict.find((c) => c.status === 'dormant')!;
    const forecast = predict.find((c) => c.status === 'predicted')!;
    for (const w of [EN, FR]) {
      const suffix = w === EN ? '' : '?lang=fr';
      const fan = spaced(w.t('category.fan'));
      const still = textOf(figures(await body(`/categories/${dormant.category_id}${suffix}`)).get(`category-${dormant.category_id}-crs`)!);
      assert.ok(!still.includes(fan), `${suffix}: a dormant category has no forecast to describe`);
      const moving = textOf(
        figures(await body(`/categories/${forecast.category_id}${suffix}`)).get(`category-${forecast.category_id}-crs`)!,
      );
      assert.ok(moving.includes(fan), `${suffix}: a forecast category’s chart describes its fan`);
    }
  });

  it('a category’s past hit rate is not called its track record, the name of the page of served forecasts', async () => {
    const forecast = predict.find((c) => c.status === 'predicted')!;
    for (const w of [EN, FR]) {
      const page = await body(`/categories/${forecast.category_id}${w === EN ? '' : '?lang=fr'}`);
      const terms = [.../<dl class="facts" id="next-draw">([\s\S]*?)<\/dl>/.exec(page)![1].matchAll(/<dt>([\s\S]*?)<\/dt>/g)].map((m) =>
        textOf(m[1]),
      );
      assert.ok(terms.includes(w.t('category.trackRecord')));
      assert.ok(!terms.includes(w.t('nav.trackRecord')), `${terms.join(' | ')}`);
    }
  });

  it('/track-record says each forecast’s newest draw used and, apart, its category’s last draw', async () => {
    const api = (await app.inject('/api/track-record/')).json().data as {
      newest_draw_date: string;
      base: { date: string; round_number: string };
    }[];
    assert.ok(
      api.some((e) => e.base.date !== e.newest_draw_date),
      'a category whose last draw is older than the feed’s newest',
    );
    const rows = tableRows(/<table class="data" id="track-record-forecasts">([\s\S]*?)<\/table>/.exec(await body('/track-record'))![1]);
    assert.equal(rows.length, api.length);
    rows.forEach((row, i) => {
      assert.equal(row[3], formatDate('en', api[i].newest_draw_date, 'short'), 'from draws up to: the newest draw used');
      assert.equal(row[4], EN.t('track.dateRound', { date: formatDate('en', api[i].base.date, 'short'), round: api[i].base.round_number }));
    });
  });

  it('/draws in French marks the round and category names the French feed does not give as English', async () => {
    const page = await body('/draws?lang=fr');
    const table = /<table class="data" id="draws">([\s\S]*?)<\/table>/.exec(page)![1];
    const rows = [...table.matchAll(/<tr>\s*<td class="date">([\s\S]*?)<\/tr>/g)].map((m) => m[1]);
    assert.equal(rows.length, 50);
    for (const row of rows) {
      const cells = [...row.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((m) => m[1]);
      // no French feed imported: every round's name is IRCC's English one
      assert.match(cells[2], /^<span lang="en">[^<]+<\/span>$/, cells[2]);
      assert.doesNotMatch(cells[1], /lang="en"/, 'known families have French names');
    }
    assert.doesNotMatch(await body('/draws'), /<span lang="en">/, 'nothing to mark on an English page');
  });

  it('/models says which intervals are 95% and which ranges 90%', async () => {
    for (const w of [EN, FR]) {
      const page = await body(`/models${w === EN ? '' : '?lang=fr'}`);
      const table = /<table class="data" id="interval-coverage">([\s\S]*?)<\/table>/.exec(page)![1];
      const heads = [...table.matchAll(/<th scope="col"[^>]*>([\s\S]*?)<\/th>/g)].map((m) => textOf(m[1]));
      assert.ok(heads.includes(spaced(w.t('common.dateRange90'))), heads.join(' | '));
      const caption = textOf(/<caption>([\s\S]*?)<\/caption>/.exec(table)![1]);
      assert.ok(caption.includes(w === EN ? '90% date ranges' : 'plages de dates de 90 %'), caption);
    }
  });

  it('/my-score says how much of its law lies outside the 95% interval, and the chances beside the interval agree', async () => {
    const entry = (await app.inject(`/api/predict/${predict.find((c) => c.status === 'predicted')!.category_id}/`)).json().data[0];
    const next = entry.predictions[0] as {
      predicted_crs_score: number;
      uncertainty_range: { min: number; max: number; margin_of_error: number };
    };
    const above = 1 - lawCdf(1, 0, 1);
    const below = lawCdf(-1, 0, 1);
    assert.ok(above + below > 0.05, 'the fitted law puts more than 5% outside the 95% interval');
    const top = Math.floor(next.predicted_crs_score + next.uncertainty_range.margin_of_error - 0.5);
    for (const w of [EN, FR]) {
      const page = await body(`/my-score?crs=${top}&category=${entry.category_id}${w === EN ? '' : '&lang=fr'}`);
      const stated = textOf(/<p id="law-and-interval">([\s\S]*?)<\/p>/.exec(page)![1]);
      const { loc } = w;
      const figures = {
        outside: loc.percent(above + below, 1),
        above: loc.percent(above, 1),
        below: loc.percent(below, 1),
        top: loc.percent(1 - above, 1),
      };
      assert.equal(stated, spaced(w.t('myScore.lawAndInterval', figures)));
    }
    const chance = clearance(top, { point: next.predicted_crs_score, margin: next.uncertainty_range.margin_of_error }).atOrBelow;
    assert.ok(chance <= 1 - above + 1e-9 && chance < 0.975, `a score at the interval's top clears with ${chance}, as the page says`);
  });

  it('/models names each model in the page’s language beside its identifier, in its tables', async () => {
    for (const w of [EN, FR]) {
      const page = await body(`/models${w === EN ? '' : '?lang=fr'}`);
      const table = /<table class="data" id="backtest-crs-h1">([\s\S]*?)<\/table>/.exec(page)![1];
      const heads = tableRows(table).map((r) => r[0]);
      assert.equal(heads.length, MODEL_CATALOGUE.length);
      MODEL_CATALOGUE.forEach((m, i) => {
        assert.ok(spaced(heads[i]).startsWith(`${m.name} ${w.t(`member.${m.name}`)}`), heads[i]);
      });
    }
  });

  it('a category’s page and /my-score say the likely window’s chance is not checked on a stale feed, and only then', async () => {
    const forecast = predict.find((c) => c.status === 'predicted')!;
    for (const w of [EN, FR]) {
      const suffix = w === EN ? '' : 'lang=fr';
      const caveat = spaced(w.t('common.likelyStale'));
      const facts = textOf(
        /<span id="likely-window"\s*>([\s\S]*?)<\/span\s*>/.exec(await body(`/categories/${forecast.category_id}?${suffix}`))![1],
      );
      assert.ok(facts.endsWith(caveat), facts);
      const score = textOf(await body(`/my-score?crs=500&category=${forecast.category_id}&${suffix}`));
      assert.ok(score.includes(caveat), 'my score');
    }
  });

  it('/, /models and a category’s page say what the backtest’s last two years hold of this old data', async () => {
    const forecast = predict.find((c) => c.status === 'predicted')!;
    for (const [w, url] of [
      [EN, '/'],
      [FR, '/?lang=fr'],
      [EN, '/models'],
      [FR, '/models?lang=fr'],
      [EN, `/categories/${forecast.category_id}`],
      [FR, `/categories/${forecast.category_id}?lang=fr`],
    ] as const) {
      const note = /<p class="note warn" id="stale-window">([\s\S]*?)<\/p>/.exec(await body(url));
      assert.ok(note, 'a note on the backtest’s window');
      const { loc } = w;
      const expected = w.t('models.staleWindow', {
        days: 730,
        asOf: loc.date(STALE_AS_OF),
        from: loc.date('2024-12-08'),
        newest: loc.date('2025-12-17'),
      });
      assert.equal(textOf(note[1]), spaced(expected));
    }
  });

  it('French pages agree their words with the number of categories, never “(s)”', async () => {
    const young = predict.filter((c) => c.status === 'young');
    assert.equal(young.length, 1, 'the snapshot has one young category (Education occupations)');
    for (const url of ['/?lang=fr', '/models?lang=fr', '/track-record?lang=fr', `/categories/${young[0].category_id}?lang=fr`]) {
      assert.doesNotMatch(textOf(await body(url)), /\(s\)/, url);
    }
  });

  it('a young category’s status reason counts its draws in words that agree with the number, and reads back in French', async () => {
    const young = predict.find((c) => c.status === 'young')!;
    const reason = (await app.inject(`/api/predict/${young.category_id}/`)).json().data[0].status_reason as string;
    assert.match(reason, /^2 draws: young, /);
    const french = statusReasonIn(reason, FR);
    assert.ok(french !== undefined, 'a sentence the pages translate');
    // the sentence earlier versions stored reads back the same
    assert.equal(statusReasonIn(reason.replace('2 draws', '2 draw(s)'), FR), french);
    const one = statusReasonIn(reason.replace('2 draws', '1 draw'), EN);
    assert.ok(one !== undefined);
    assert.equal(one, statusReasonIn(reason.replace('2 draws', '1 draw(s)'), EN));
  });

  it('a dormant category with one draw says why its next draw is not forecast even should it draw again', async () => {
    const dormant = await Promise.all(
      predict.filter((c) => c.status === 'dormant').map(async (c) => (await app.inject(`/api/predict/${c.category_id}/`)).json().data[0]),
    );
    const single = dormant.filter((d) => d.if_resumed === null);
    assert.ok(
      single.length > 0 && dormant.some((d) => d.if_resumed !== null),
      'a dormant category with one draw (Federal Skilled Worker) and one with more',
    );
    for (const d of dormant) {
      for (const w of [EN, FR]) {
        const page = await body(`/categories/${d.category_id}${w === EN ? '' : '?lang=fr'}`);
        const note = /<p class="note" id="if-resumed-none">([\s\S]*?)<\/p>/.exec(page);
        if (d.if_resumed === null) assert.equal(textOf(note?.[1] ?? ''), spaced(w.t('category.ifResumedNone')), d.category_name);
        else assert.equal(note, null, d.category_name);
      }
    }
  });
});

describeWithSnapshot('draws pages on a current feed', (t) => {
  let app: ServiceApp;
  before(async () => {
    const ctx = drawsContext(t.db);
    await importSnapshot(ctx);
    app = await buildTestApp(drawsService, ctx);
    assert.equal((await app.inject('/api/predict/')).json().data_source.stale, false);
  });
  after(async () => app?.close());

  it('says the likely window’s chance was checked against past windows, with no stale caveat', async () => {
    const models = (await app.inject('/api/models/')).json().categories as Entry[];
    const forecast = models.find((c) => c.status === 'predicted')!;
    for (const w of [EN, FR]) {
      const suffix = w === EN ? '' : 'lang=fr';
      const home = await app.inject(`/?${suffix}`);
      assert.equal(textOf(/<p class="muted" id="likely-note">([\s\S]*?)<\/p>/.exec(home.body)![1]), spaced(w.t('overview.likelyNote')));
      const stale = spaced(w.t('overview.calibrationDatesStale', { held: '§' })).split('§')[1];
      assert.ok(!textOf(home.body).includes(stale));
      assert.doesNotMatch(home.body, /id="stale-window"/);
      assert.doesNotMatch((await app.inject(`/models?${suffix}`)).body, /id="stale-window"/);
      assert.doesNotMatch((await app.inject(`/categories/${forecast.category_id}?${suffix}`)).body, /id="stale-window"/);
      for (const url of [`/categories/${forecast.category_id}?${suffix}`, `/my-score?crs=500&category=${forecast.category_id}&${suffix}`]) {
        assert.ok(!textOf((await app.inject(url)).body).includes(spaced(w.t('common.likelyStale'))), url);
      }
    }
  });
});

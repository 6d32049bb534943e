// Service E's pages on the demo data, SQLite and PostgreSQL: every page's status and key content against the API's
// answers, every chart's drawn items against the rows behind it, kinds of notice kept apart, and 400/404 as pages.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { decode, figures, plotted, seriesDrawn, tableRows, textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { loadRetractionDemo } from '../demo.ts';
import { retractionService } from '../service.ts';
import type { RetractionTables } from '../tables.ts';
import { TOP_GROUPS } from './analytics.ts';
import { CITING_PAGE_SIZE, yearSpan } from './paper.ts';
import { SEARCH_RESULTS } from './search.ts';
import { mapCodes } from './democracy-charts.ts';

const DEMO_PAPERS = 600;
/** A number as a data table writes it (1,100). */
const n = (cell: string) => Number(cell.replace(/,/g, ''));

describeEachDatabase(
  'retraction pages on demo data',
  (t) => {
    let app: ServiceApp;
    let dir: string;
    let client = 0;
    const inject = (url: string) => app.inject({ url, remoteAddress: `10.99.${(client >> 8) & 255}.${client++ & 255}` });
    const page = async (url: string) => {
      const res = await inject(url);
      return { status: res.statusCode, body: res.body, type: String(res.headers['content-type']), headers: res.headers };
    };
    const api = async (url: string) => (await inject(url)).json();

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-retraction-pages-'));
      const ctx = testContext(retractionService, t.db, { dataDir: dir });
      await loadRetractionDemo(ctx, { size: DEMO_PAPERS });
      app = await buildTestApp(retractionService, ctx);
    });
    after(async () => {
      await app?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('/ has the search form with suggestions as you type, the totals and the most cited papers of the API', async () => {
      const home = await page('/');
      assert.equal(home.status, 200);
      assert.match(home.type, /^text\/html/);
      assert.match(home.body, /<form class="filters" method="get" action="\/" role="search">/);
      assert.match(home.body, /data-autocomplete="\/api\/search-autocomplete\/\?q="[^>]*data-autocomplete-items="suggestions"/s);
      assert.match(home.body, /list="paper-suggestions"/);
      assert.match(home.body, /<datalist id="paper-suggestions">/);
      const report = await api('/api/post-retraction-analytics/');
      const text = textOf(home.body);
      assert.match(text, new RegExp(`${report.totals.papers.toLocaleString('en-CA')} ?retracted papers`));
      for (const p of report.top_papers) assert.ok(home.body.includes(`href="/papers/${p.record_id}"`), p.record_id);
      assert.match(home.body, /Demo data\./);
      assert.match(text, /GENERATED demo data/);
    });

    it('a search lists what the autocomplete ranks, in its order, with each kind of notice in words', async () => {
      const top = (await api('/api/post-retraction-analytics/')).top_papers[0];
      const word = top.title
        .split(/\s+/)
        .sort((a: string, b: string) => b.length - a.length)[0]
        .replace(/[^\p{L}]/gu, '');
      const suggestions = (await api(`/api/search-autocomplete/?q=${encodeURIComponent(word)}`)).suggestions as { record_id: string }[];
      assert.ok(suggestions.length > 0);
      const res = await page(`/?q=${encodeURIComponent(word)}`);
      assert.equal(res.status, 200);
      const listed = [...res.body.matchAll(/<h3><a href="\/papers\/([^"]+)">/g)].map((m) => m[1]);
      assert.deepEqual(
        listed.slice(0, suggestions.length),
        suggestions.map((s) => s.record_id),
      );
      assert.equal(
        (
          res.body.match(
            /<span class="badge (bad|warn|good)">(Retraction|Expression of concern|Correction|Reinstatement|Other notice)<\/span>/g,
          ) ?? []
        ).length,
        listed.length,
      );
      assert.match(res.body, new RegExp(`value="${word}"`));
    });

    it('the search filters keep their values and list what /api/search/ finds, in its order, with facets and a download link', async () => {
      const facets = (await api('/api/search/')).facets;
      const country = facets.country[0].value as string;
      const subject = facets.subject[0].value as string;
      const query = `country=${encodeURIComponent(country)}&subject=${encodeURIComponent(subject)}&nature=retraction&retracted_from=2015-01-01`;
      const found = await api(`/api/search/?${query}&limit=${SEARCH_RESULTS}`);
      assert.ok(found.total > 0);
      const res = await page(`/?${query}`);
      assert.equal(res.status, 200);
      const listed = [...res.body.matchAll(/<h3><a href="\/papers\/([^"]+)">/g)].map((m) => m[1]);
      assert.deepEqual(
        listed,
        found.results.map((r: { record_id: string }) => r.record_id),
      );
      assert.match(textOf(res.body), new RegExp(`${found.total.toLocaleString('en-CA')} records? match`));
      assert.match(res.body, new RegExp(`<option value="${country}" selected>`));
      assert.match(res.body, /<option value="retraction" selected>/);
      assert.match(res.body, /id="retracted_from" name="retracted_from" value="2015-01-01"/);
      const wanted = Object.fromEntries(new URLSearchParams(query));
      const hrefParams = (html: string, path: string) =>
        [...html.matchAll(new RegExp(`href="${path.replace(/[/?]/g, '\\$&')}\\?([^"#]*)`, 'g'))].map((m) =>
          Object.fromEntries(new URLSearchParams(decode(m[1]))),
        );
      assert.deepEqual(hrefParams(res.body, '/export-search'), [wanted], 'the download link carries the filters');
      assert.match(res.body, /<h3 id="facet-journal">Journals<\/h3>/);
      if (found.total_pages > 1) assert.match(res.body, /rel="next" href="\/\?[^"]*page=2#results"/);
      // Accents and case folded: the accent-free lower-case form of a country finds the same records.
      const plain = await api(`/api/search/?country=${encodeURIComponent(country.toLowerCase())}`);
      assert.equal(plain.total, (await api(`/api/search/?country=${encodeURIComponent(country)}`)).total);

      const download = await page(`/export-search?${query}`);
      assert.equal(download.status, 200);
      assert.match(textOf(download.body), new RegExp(`${found.total.toLocaleString('en-CA')} records? match`));
      assert.deepEqual(
        hrefParams(download.body, '/api/export-search/'),
        ['csv', 'json', 'excel'].map((format) => ({ ...wanted, limit: String(found.total), format })),
      );
      const bad = await page('/export-search?published_from=2020-01-01&published_to=2019-01-01');
      assert.equal(bad.status, 400);
      assert.match(textOf(bad.body), /published_from \(2020-01-01\) must not be after published_to \(2019-01-01\)/);
    });

    it('bad queries give the page with the message and status 400; an unknown paper a 404 page', async () => {
      for (const [url, status, message] of [
        ['/?q=ab', 400, /q must be at least 3 characters long after trimming spaces \(got 2\)/],
        [`/?q=${'x'.repeat(201)}`, 400, /q must be at most 200 characters long/],
        [
          '/analytics?nature=retractions',
          400,
          /nature must be one of: retraction, expression_of_concern, correction, reinstatement, other, all/,
        ],
        ['/analytics?time_filter=2y', 400, /time_filter must be one of: all, 1y, 3y, 5y/],
        ['/democracy?source=guess', 400, /source must be one of: fitted, imported/],
        ['/papers/no-such-record', 404, /paper no-such-record not found/],
        ['/?retracted_to=2020-02-30', 400, /retracted_to must be a real date in the form YYYY-MM-DD/],
        ['/?nature=retractions', 400, /nature must be one of: retraction, expression_of_concern/],
        [`/?journal=${'j'.repeat(201)}`, 400, /journal must be at most 200 characters long/],
        ['/?q=zebra&page=0', 400, /page must be at least 1/],
        [`/papers/${'9'.repeat(65)}`, 400, /record_id must be at most 64 characters long/],
      ] as const) {
        const res = await page(url);
        assert.equal(res.status, status, url);
        assert.match(res.type, /^text\/html/, url);
        assert.match(textOf(res.body), message, url);
        assert.match(res.body, /role="alert"/, url);
        assert.equal(res.headers['cache-control'], 'no-store', url);
      }
    });

    it('a paper page stacks its citations per year at the notice, with the figures of the API', async () => {
      const top = (await api('/api/post-retraction-analytics/')).top_papers[0];
      const c = await api(`/api/paper/${top.record_id}/citations/`);
      const res = await page(`/papers/${top.record_id}`);
      assert.equal(res.status, 200);
      assert.match(res.body, /<span class="badge bad">Retraction<\/span>/);
      assert.match(res.body, /generated demo record/);
      const figs = figures(res.body);
      const perYear = figs.get('citations-per-year')!;
      const years = Object.keys(c.citations_by_year).map(Number);
      const span = Math.max(...years) - Math.min(...years) + 1;
      assert.equal(plotted(perYear, 0), span);
      assert.equal(plotted(perYear, 1), span);
      const rows = tableRows(perYear);
      assert.equal(rows.length, span);
      for (const [year, before, afterCount] of rows) {
        assert.equal(n(before) + n(afterCount), c.citations_by_year[year] ?? 0, year);
        assert.equal(n(afterCount), c.post_retraction_by_year[year] ?? 0, year);
      }
      const timing = figs.get('citation-timing')!;
      assert.equal(plotted(timing, 0), 4);
      assert.deepEqual(
        tableRows(timing).map((r) => n(r[1])),
        [
          c.post_retraction_timing.within_30_days,
          c.post_retraction_timing.within_1_year,
          c.post_retraction_timing.within_2_years,
          c.post_retraction_timing.after_2_years,
        ],
      );
      assert.match(textOf(res.body), new RegExp(`${c.post_retraction_count} ?after the retraction`));
    });

    it('a paper page lists its citing works as the API pages them, by timing, with links to the other pages', async () => {
      const top = (await api('/api/post-retraction-analytics/')).top_papers[0];
      const works = await api(`/api/papers/${top.record_id}/citing-works/?limit=${CITING_PAGE_SIZE}`);
      const res = await page(`/papers/${top.record_id}`);
      const section = res.body.slice(res.body.indexOf('id="citing-works"'));
      const rows = [...section.matchAll(/<tr>\s*<td>([\s\S]*?)<\/td>/g)].map((m) => textOf(m[1]));
      assert.deepEqual(
        rows,
        works.works.map((w: { doi: string | null; citing_id: string }) => w.doi ?? w.citing_id),
      );
      assert.match(textOf(section), new RegExp(`After the notice \\(${works.counts.after}\\)`));
      const after = await api(`/api/papers/${top.record_id}/citing-works/?when=after&limit=${CITING_PAGE_SIZE}&page=1`);
      const afterPage = await page(`/papers/${top.record_id}?when=after`);
      assert.match(textOf(afterPage.body), new RegExp(`page 1 of ${after.total_pages}`));
      if (after.total_pages > 1) assert.match(afterPage.body, /rel="next" href="[^"]*when=after&amp;page=2/);
      for (const [url, message] of [
        [`/papers/${top.record_id}?when=later`, /when must be one of: all, before, same_day, after, undated/],
        [`/papers/${top.record_id}?page=0`, /page must be at least 1/],
      ] as const) {
        const bad = await page(url);
        assert.equal(bad.status, 400, url);
        assert.match(textOf(bad.body), message, url);
      }
    });

    it('a notice that is not a retraction says so on its page', async () => {
      const concern = (await api('/api/post-retraction-analytics/?nature=expression_of_concern')).top_papers[0];
      assert.ok(concern, 'the demo data has expressions of concern');
      const res = await page(`/papers/${concern.record_id}`);
      assert.equal(res.status, 200);
      assert.match(res.body, /<span class="badge warn">Expression of concern<\/span>/);
      assert.match(textOf(res.body), /not a retraction: the paper was not retracted/);
      assert.doesNotMatch(textOf(res.body), /after the retraction/);
    });

    it('/analytics draws retractions apart from the other notices, and every chart carries the API’s rows', async () => {
      const res = await page('/analytics');
      assert.equal(res.status, 200);
      const trends = (await api('/api/analytics-data/?type=trends')).data as Record<string, number>[];
      const citations = (await api('/api/analytics-data/?type=citations')).data as Record<string, number>[];
      const subjects = (await api('/api/analytics-data/?type=subjects')).data as { subject: string; papers: number }[];
      const countries = (await api('/api/analytics-data/?type=geographic')).data as { country: string; papers: number }[];
      const overview = (await api('/api/analytics-data/?type=overview')).data;
      const report = await api('/api/post-retraction-analytics/');
      const figs = figures(res.body);

      const perYear = figs.get('retractions-per-year')!;
      assert.equal(plotted(perYear, 0), trends.length);
      assert.deepEqual(
        tableRows(perYear).map((r) => [Number(r[0]), n(r[1])]),
        trends.map((r) => [r.year, r.retractions]),
      );
      const others = figs.get('other-notices-per-year')!;
      const kinds = ['expressions_of_concern', 'corrections', 'reinstatements', 'other_notices'].filter((k) =>
        trends.some((r) => r[k] > 0),
      );
      assert.ok(kinds.includes('expressions_of_concern'));
      kinds.forEach((k, i) => assert.equal(plotted(others, i), trends.length, k));
      assert.doesNotMatch(/<thead>[\s\S]*?<\/thead>/.exec(others)![0], /Retraction/);

      const cites = figs.get('citations-per-year')!;
      for (const s of [0, 1, 2]) assert.equal(plotted(cites, s), citations.length);
      assert.deepEqual(
        tableRows(cites).map((r) => r.slice(1).map(n)),
        citations.map((r) => [r.pre_retraction, r.same_day, r.post_retraction]),
      );
      const subjectFig = figs.get('subjects')!;
      assert.equal(plotted(subjectFig, 0), Math.min(TOP_GROUPS, subjects.length));
      assert.deepEqual(
        tableRows(subjectFig).map((r) => [r[0], n(r[1])]),
        subjects.slice(0, TOP_GROUPS).map((s) => [s.subject, s.papers]),
      );
      assert.equal(plotted(figs.get('countries')!, 0), Math.min(TOP_GROUPS, countries.length));
      const timing = figs.get('citation-timing')!;
      assert.equal(plotted(timing, 0), report.timing_distribution.length);
      assert.deepEqual(
        tableRows(timing).map((r) => n(r[1])),
        report.timing_distribution.map((b: { count: number }) => b.count),
      );
      const monthly = figs.get('monthly-trend')!;
      assert.equal(plotted(monthly, 0), report.monthly_trend.length);

      const text = textOf(res.body);
      assert.match(text, new RegExp(`${overview.total_papers.toLocaleString('en-CA')} ?retracted papers`));
      for (const b of overview.by_nature.filter((n: { papers: number }) => n.papers > 0))
        assert.ok(res.body.includes(`<td class="num">${b.papers.toLocaleString('en-CA')}</td>`), b.nature);
      for (const p of report.top_papers) assert.ok(res.body.includes(`href="/papers/${p.record_id}"`));
    });

    it('/analytics?nature=correction counts corrections only, and says so', async () => {
      const res = await page('/analytics?nature=correction&time_filter=3y');
      assert.equal(res.status, 200);
      const overview = (await api('/api/analytics-data/?type=overview&nature=correction')).data;
      const text = textOf(res.body);
      assert.match(text, new RegExp(`${overview.total_papers.toLocaleString('en-CA')} ?corrected papers`));
      assert.match(res.body, /<option value="correction" selected>/);
      assert.match(res.body, /<option value="3y" selected>/);
      const timing = tableRows(figures(res.body).get('citation-timing')!).map((r) => n(r[1]));
      const report = await api('/api/post-retraction-analytics/?nature=correction&time_filter=3y');
      assert.deepEqual(
        timing,
        report.timing_distribution.map((b: { count: number }) => b.count),
      );
    });

    it('/democracy shows the stored model as the API serves it, or says that none is fitted and how to fit one', async () => {
      const results = await api('/api/democracy/statistical-results/');
      const res = await page('/democracy');
      assert.equal(res.status, 200);
      const text = textOf(res.body);
      if (results.model.status === 'not_fitted') {
        assert.match(text, /No model is fitted yet/);
        assert.match(text, /pdi fit retraction/);
        assert.equal(figures(res.body).has('rate-ratios'), false);
      } else {
        assert.match(text, /published fit, imported as-is/);
        const forest = figures(res.body).get('rate-ratios')!;
        const withIntervals = results.predictors.filter((p: { rate_ratio_interval_95: unknown }) => p.rate_ratio_interval_95);
        assert.equal(plotted(forest, 1), withIntervals.length);
        assert.deepEqual(
          tableRows(forest).map((r) => r[0]),
          withIntervals.map((p: { predictor: string }) => p.predictor),
        );
        assert.match(text, /Posterior probability of that sign/);
        assert.match(text, /Largest R̂/);
        assert.match(text, /Methodology/);
      }
      // The panel's world map: every country of the API's world_map has a boundary on it or is named as missing
      // (too small for Natural Earth's 1:110m), and its row is beside it.
      const vis = await api('/api/democracy/visualizations/');
      assert.ok(vis.world_map.length > 0);
      const drawn = mapCodes();
      const map = figures(res.body).get('democracy-world-map')!;
      const missing =
        textOf(map)
          .match(/Not on this map \(no boundary at this scale\): ([^.]*)\./)?.[1]
          .split(', ') ?? [];
      for (const w of vis.world_map as Array<{ iso3: string; country: string }>)
        assert.notEqual(drawn.has(w.iso3), missing.includes(w.country), w.iso3);
      assert.ok(missing.length < vis.world_map.length / 4);
      assert.deepEqual(
        tableRows(map).map((r) => r[1]),
        vis.world_map.map((w: { iso3: string }) => w.iso3),
      );
      // Countries with a rate are filled with the colour scale, not the light grey of no data.
      const coloured = new Set(
        [...map.matchAll(/<path d="[^"]*" fill="(#[0-9a-f]{6}|rgb[^"]*)"[^>]*ecmeta_series_index="0"/g)].map((m) => m[1]),
      );
      assert.ok(coloured.size > 2, `${coloured.size} fills`);
      assert.equal(figures(res.body).get('democracy-scatter') !== undefined, true);
      // The generated panel is labelled.
      assert.match(text, /The panel/);
      assert.match(text, /GENERATED/);
    });

    // Last: it changes a stored record.
    it('a record without a notice date draws its citations per year unsplit, every year a bar', async () => {
      const second = (await api('/api/post-retraction-analytics/')).top_papers[1];
      await t.db.kysely
        .withTables<RetractionTables>()
        .updateTable('retraction_papers')
        .set({ retraction_date: null, retraction_sort: '' })
        .where('record_id', '=', second.record_id)
        .execute();
      const c = await api(`/api/paper/${second.record_id}/citations/`);
      assert.equal(c.paper.retraction_date, null);
      const res = await page(`/papers/${second.record_id}`);
      assert.equal(res.status, 200);
      assert.match(textOf(res.body), /The record has no notice date, so its citations cannot be split at the notice/);
      const perYear = figures(res.body).get('citations-per-year')!;
      const span = yearSpan(Object.keys(c.citations_by_year));
      assert.ok(span.length > 0);
      assert.equal(plotted(perYear, 0), span.filter((y) => (c.citations_by_year[y] ?? 0) > 0).length);
      assert.equal(seriesDrawn(perYear).length, 1, 'one series: not split');
      assert.deepEqual(
        tableRows(perYear).map((r) => [r[0], n(r[1])]),
        span.map((y) => [y, c.citations_by_year[y] ?? 0]),
      );
    });
  },
  { migrations: retractionService.migrations },
);

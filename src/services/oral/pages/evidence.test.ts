// The /search page on SQLite and PostgreSQL over the demo data: the results, facet counts and chart match
// GET /api/search/ for the same query; bad filters give the page with the message and status 400.
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildTestApp, testContext } from '../../../../test/support/app.ts';
import { describeEachDatabase } from '../../../../test/support/databases.ts';
import { figures, plotted, tableRows, textOf } from '../../../../test/support/pages.ts';
import type { ServiceApp } from '../../../core/service.ts';
import { loadOralDemo } from '../demo.ts';
import { FACETS } from '../schemas/index.ts';
import { oralService } from '../service.ts';
import { EVIDENCE_PER_PAGE } from './evidence.ts';

interface ApiSearch {
  data: Array<{ title: string; path: string }>;
  pagination: { total_results: number };
  facets: Record<string, Array<{ value: string; label: string; count: number }>>;
}

describeEachDatabase(
  'oral /search page on demo data',
  (t) => {
    let app: ServiceApp;
    before(async () => {
      const ctx = testContext(oralService, t.db, { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-oral-evidence-')) });
      await loadOralDemo(ctx, {});
      app = await buildTestApp(oralService, ctx);
    });
    after(async () => app?.close());

    it('shows the API’s results in its order, its facet counts as links, and the matches by year with their table', async () => {
      for (const query of ['q=fluoride', 'q=caries&kind=recommendation', 'topic=fluoride', '']) {
        const api = (await app.inject(`/api/search/?${query}&limit=${EVIDENCE_PER_PAGE}`)).json() as ApiSearch;
        const res = await app.inject(`/search?${query}`);
        assert.equal(res.statusCode, 200, query);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        const total = api.pagination.total_results;
        assert.ok(total > 0, query);
        assert.match(textOf(res.body), new RegExp(`${total.toLocaleString('en-CA')} documents? match`), query);
        const shown = [...res.body.matchAll(/<li class="card evidence-hit">[\s\S]*?<h3><a href="([^"]+)">/g)].map((m) => m[1]);
        assert.deepEqual(
          shown,
          api.data.map((h) => h.path.replace(/&/g, '&amp;')),
          `${query}: the API's page, in its order`,
        );
        for (const facet of FACETS) {
          for (const value of api.facets[facet]) {
            const label = value.label.replace(/&/g, '&amp;');
            assert.ok(
              res.body.includes(`${label}</a> (${value.count.toLocaleString('en-CA')})`) || res.body.includes(`${label} (${value.count})`),
              `${query}: ${facet} ${value.label}`,
            );
          }
        }
        const years = api.facets.year;
        const chart = figures(res.body).get('evidence-by-year');
        assert.ok(chart, `${query}: the chart`);
        const rows = tableRows(chart);
        assert.deepEqual(
          rows.map(([year, count]) => [year, Number(count)]),
          [...years].sort((a, b) => Number(a.value) - Number(b.value)).map((y) => [y.label, y.count]),
        );
        assert.equal(plotted(chart, 0), years.filter((y) => y.count > 0).length, `${query}: a bar per year`);
      }
    });

    it('a facet link gives the page filtered by it, with the chosen value marked', async () => {
      const api = (await app.inject('/api/search/?q=caries&limit=1')).json() as ApiSearch;
      const kind = api.facets.kind[0];
      const res = await app.inject(`/search?q=caries&kind=${kind.value}`);
      assert.match(textOf(res.body), new RegExp(`${kind.count} documents? match`));
      assert.match(res.body, new RegExp(`<strong aria-current="true">${kind.label} \\(${kind.count}\\)</strong>`));
      assert.match(res.body, new RegExp(`<option value="${kind.value}" selected>`));
    });

    it('bad filters give the page with the message and status 400', async () => {
      for (const [url, message] of [
        ['/search?kind=article', /kind must be one of: recommendation, guideline, review/],
        ['/search?year=20x1', /year must be an integer/],
        ['/search?year=1800', /year must be at least 1900/],
        ['/search?topic=unicorns', /topic must be an id or slug/],
        ['/search?country=FR', /country must be one of UK, US, CA, AU, NZ/],
        ['/search?certainty=sure', /certainty must be one of: high, moderate, low, very_low/],
        ['/search?page=0', /page must be at least 1/],
        [`/search?q=${'a'.repeat(201)}`, /q must be at most 200 characters long/],
      ] as const) {
        const res = await app.inject(url);
        assert.equal(res.statusCode, 400, url);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
        assert.match(textOf(res.body), message, url);
      }
    });
  },
  { migrations: oralService.migrations },
);

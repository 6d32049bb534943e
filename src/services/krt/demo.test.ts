// The generated demo articles: deterministic for a seed, marked as generated, parsed by the same extractors as
// real papers (all three layouts), and with no identifier that could name a real resource; served (SQLite and
// PostgreSQL), a text-built table lists for its empty cells identifiers other demo papers write.
import { it, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Static } from 'typebox';
import { describeKrtHttp } from '../../../test/support/krt/http.ts';
import { DEMO_SESSION_ID, type DoiTableResponse } from './schemas/tables.ts';
import { demoArticles } from './demo.ts';
import { extractArticle } from './extract/index.ts';
import { doiOfStorePath } from './jats/index.ts';
import { parseRrid } from './rrid/index.ts';

type DoiTable = Static<typeof DoiTableResponse>;

test('demo articles are deterministic, labelled, and cover the STAR table, the eLife table and the text extractor', () => {
  const a = demoArticles(9, 3);
  assert.deepEqual(demoArticles(9, 3), a);
  assert.notDeepEqual(
    demoArticles(9, 4).map((x) => x.xml),
    a.map((x) => x.xml),
  );
  const providers = new Set<string>();
  for (const article of a) {
    assert.equal(doiOfStorePath(article.file), article.doi, 'the DOI is the file name, as for real store files');
    assert.match(article.doi, /^10\.1101\/demo\.\d{4}\.\d{4}$/);
    const x = extractArticle(article.xml);
    assert.match(x.metadata.title, /^\[Generated demo\]/);
    assert.equal(x.metadata.journal, 'pdi demo data (generated)');
    assert.match(x.metadata.abstract, /describes no real study/);
    assert.ok(x.rows.length >= 4, `${article.doi}: ${x.rows.length} rows`);
    providers.add(`${article.layout}:${x.provider}`);
    if (article.layout !== 'text') assert.ok(x.authorTables[0].layout === (article.layout === 'star' ? 'star' : 'elife'));
  }
  assert.deepEqual([...providers].sort(), ['elife:jats-table', 'star:jats-table', 'text:text-pattern']);
});

test('demo identifiers name no real resource: catalog numbers DEMO-…, RRIDs well-formed but with leading zeros, vendors "(demo)"', () => {
  for (const article of demoArticles(12, 1)) {
    for (const m of article.xml.matchAll(/RRID:(\S+?)[,;<)]/g)) {
      const parsed = parseRrid(m[1]);
      assert.equal(parsed.wellFormed, true, m[1]);
      assert.match(parsed.normalized!, /^AB_0000\d{3}$/, 'Antibody Registry numbers have no leading zeros');
    }
    for (const m of article.xml.matchAll(/Cat# (\S+?)[,;<)]/g)) assert.match(m[1], /^DEMO-/);
    for (const row of extractArticle(article.xml).rows) {
      if (row.SOURCE && !/^This paper$/i.test(row.SOURCE)) assert.match(row.SOURCE, /\(demo\)$/, row.SOURCE);
    }
  }
});

describeKrtHttp(
  'the demo served: identifier candidates for rows a text-built table leaves empty',
  (h) => {
    it('lists candidates whose identifiers a demo paper writes verbatim, with exactly the demo papers that write them', async () => {
      const articles = demoArticles();
      const textDois = articles.filter((a) => a.layout === 'text').map((a) => a.doi);
      let listed = 0;
      for (const doi of textDois) {
        const res = await h.get<DoiTable>(`/api/krt/doi/${doi}/`);
        assert.equal(res.status, 200);
        assert.equal(res.body.summary.provider, 'text-pattern');
        const cells = [...(res.body.row_evidence ?? []), ...res.body.further_mentions];
        for (const candidate of cells.flatMap((c) => c.identifier_candidates)) {
          listed++;
          const writers = articles.filter((a) => a.xml.includes(candidate.identifier)).map((a) => a.doi);
          assert.ok(writers.length > 0, `${candidate.identifier} is written by a demo paper`);
          assert.ok(!writers.includes(doi), `${doi} does not write ${candidate.identifier} itself`);
          assert.deepEqual(candidate.papers, [...writers].sort(), candidate.identifier);
          assert.equal(candidate.paper_count, writers.length);
        }
      }
      assert.ok(listed > 0, 'the demo shows identifier candidates');
    });

    it('the session id the OpenAPI examples name is the demo session of 10.1101/demo.2024.0004', async () => {
      const res = await h.get<DoiTable>(`/api/krt/${DEMO_SESSION_ID}/`);
      assert.equal(res.status, 200);
      assert.equal(res.body.doi, '10.1101/demo.2024.0004');
    });
  },
  { data: 'demo' },
);

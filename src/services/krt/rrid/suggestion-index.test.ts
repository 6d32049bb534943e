// The stored suggestion index answers exactly as the knowledge base in memory does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { corpusFiles, corpusMissing } from '../../../../test/support/krt/corpus.ts';
import { extractArticle } from '../extract/extract-article.ts';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { calibrate } from './calibration.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';
import { suggestRrids, type RridQuery } from './suggest.ts';
import { rowsReader, suggestFromIndex, suggestionIndexOf } from './suggestion-index.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

async function same(kb: RridKnowledgeBase, demo: ReadonlySet<string>, query: RridQuery, limit = 10): Promise<void> {
  const reader = rowsReader(JSON.parse(JSON.stringify(suggestionIndexOf(kb, demo, 'now'))));
  const indexed = await suggestFromIndex(reader, query, { limit, minConfidence: 0 });
  assert.ok(indexed);
  assert.deepEqual(
    indexed.map(({ demoOnly: _demoOnly, ...s }) => s),
    suggestRrids(kb, query, { limit, minConfidence: 0 }),
    JSON.stringify(query),
  );
}

test('the index answers as the base: catalog, vendor, name, ties; demo-only entries marked', async () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('p1', [
    row('Antibody', 'Rabbit anti-GFP', 'Abcam', 'Cat# ab290; RRID:AB_303395'),
    row('Software/code', 'ImageJ v1.53', '', 'RRID:SCR_003070'),
    row('Antibody', 'GFP tag', 'Santa Cruz', 'Cat# sc-9996; RRID:AB_627695'),
  ]);
  kb.addPaper('demo.1', [row('Antibody', 'rabbit anti-GFP (generated demo)', 'Demo Co. (demo)', 'Cat# DEMO-1; RRID:AB_0000101')]);
  for (const query of [
    { resourceName: 'GFP antibody', vendor: 'Abcam', catalogNumber: 'ab290' },
    { resourceName: 'anti-GFP' },
    { resourceName: 'image j', resourceType: 'software' },
    { resourceName: 'nothing like it' },
    { resourceName: 'x', catalogNumber: 'SC-9996' },
  ])
    await same(kb, new Set(['demo.1']), query);
  const demo = await suggestFromIndex(rowsReader(suggestionIndexOf(kb, new Set(['demo.1']), 'now')), {
    resourceName: 'x',
    catalogNumber: 'DEMO-1',
  });
  assert.deepEqual(
    demo?.map((s) => [s.suggested_rrid, s.demoOnly]),
    [['RRID:AB_0000101', true]],
  );
  assert.equal(
    await suggestFromIndex(rowsReader({ ...suggestionIndexOf(kb, new Set(), 'now') }), { resourceName: 'zzz' }).then((r) => r?.length),
    0,
  );
});

test('property on the corpus: for any query the stored index suggests what the calibrated base suggests', async (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  const kb = new RridKnowledgeBase();
  for (const file of corpusFiles()) {
    const xml = readFileSync(file, 'utf8');
    if (!/REAGENT or RESOURCE|key resources table/i.test(xml)) continue;
    const x = extractArticle(xml);
    if (x.rows.length) kb.addPaper(x.metadata.doi, x.rows, x.provider);
  }
  calibrate(kb);
  const rows = JSON.parse(JSON.stringify(suggestionIndexOf(kb, new Set(), 'now')));
  const reader = rowsReader(rows);
  const entries = [...kb.entries()];
  const names = entries.flatMap((e) => [...e.names.keys()]);
  const catalogs = entries.flatMap((e) => [...e.catalogs.keys()]);
  const vendors = [...new Set(entries.flatMap((e) => [...e.vendors.keys()]))];
  const word = fc.stringMatching(/^[A-Za-z0-9 -]{0,20}$/);
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        resourceName: fc.oneof(fc.constantFrom(...names), word),
        vendor: fc.option(fc.oneof(fc.constantFrom(...vendors), word), { nil: undefined }),
        catalogNumber: fc.option(fc.oneof(fc.constantFrom(...catalogs), word), { nil: undefined }),
        resourceType: fc.option(fc.constantFrom('antibody', 'software', 'cell line'), { nil: undefined }),
      }),
      async (query) => {
        const indexed = await suggestFromIndex(reader, query, { limit: 5 });
        assert.deepEqual(
          indexed?.map(({ demoOnly: _demoOnly, ...s }) => s),
          suggestRrids(kb, query, { limit: 5 }),
        );
      },
    ),
    { numRuns: 300, seed: 15 },
  );
  t.diagnostic(
    `${kb.paperCount} papers: ${rows.entries.length} RRID entries, ${rows.keys.length} keys, ${rows.tokenStats.length} tokens stored`,
  );
});

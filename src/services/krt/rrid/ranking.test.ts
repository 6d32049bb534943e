// Ranking: an exact catalog number with a compatible vendor outranks name similarity; ties are
// explained; low-confidence suggestions are withheld.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';
import { scoreCandidates, suggestionsOf, suggestRrids, type RridQuery } from './suggest.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

function base(): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  // A popular antibody whose name is exactly the query's, and a rarely named one with the queried catalog number.
  for (const doi of ['p1', 'p2', 'p3', 'p4'])
    kb.addPaper(doi, [row('Antibody', 'Rabbit polyclonal anti-GFP antibody', 'Thermo Fisher Scientific', 'Cat# A-11122; RRID:AB_221569')]);
  kb.addPaper('p5', [row('Antibody', 'GFP tag', 'Abcam', 'Cat# ab290; RRID:AB_303395')]);
  kb.addPaper('p6', [row('Antibody', 'GFP tag', 'Santa Cruz', 'Cat# sc-9996; RRID:AB_627695')]);
  return kb;
}

test('an exact catalog number with a compatible vendor outranks name similarity, and the reasoning says so', () => {
  const kb = base();
  const query = { resourceName: 'Rabbit polyclonal anti-GFP antibody', vendor: 'Abcam', catalogNumber: 'ab290' };
  const ranked = scoreCandidates(kb, query);
  assert.equal(ranked[0].entry.rrid, 'AB_303395');
  assert.equal(ranked[0].tier, 2);
  assert.ok(ranked[1].nameSimilarity > ranked[0].nameSimilarity, 'the second is named more like the query');
  const [first] = suggestRrids(kb, query);
  assert.equal(first.suggested_rrid, 'RRID:AB_303395');
  assert.match(first.reasoning, /ranked above RRID:AB_221569 \(name similarity 1\.00\) because the catalog number and vendor match/);
  // The vendor's group counts as the same vendor (Invitrogen is Thermo Fisher).
  assert.equal(scoreCandidates(kb, { resourceName: 'GFP', vendor: 'Invitrogen', catalogNumber: 'A11122' })[0].tier, 2);
  // Without a vendor the catalog number still comes first (tier 1); with another vendor it does not.
  assert.equal(
    scoreCandidates(kb, { resourceName: 'Rabbit polyclonal anti-GFP antibody', catalogNumber: 'ab290' })[0].entry.rrid,
    'AB_303395',
  );
  const otherVendor = scoreCandidates(kb, { resourceName: 'Rabbit polyclonal anti-GFP antibody', vendor: 'Sigma', catalogNumber: 'ab290' });
  assert.equal(otherVendor[0].entry.rrid, 'AB_221569');
  assert.equal(otherVendor.find((c) => c.entry.rrid === 'AB_303395')?.tier, 0);
});

test('ties on everything the ranking weighs are explained', () => {
  const kb = base();
  // The ranking path (a bare name is answered by the papers' consensus instead, consensus.test.ts).
  const ranked = (q: RridQuery) => suggestionsOf(scoreCandidates(kb, q), q, kb.calibration);
  const [first, second] = ranked({ resourceName: 'GFP tag' });
  assert.deepEqual([first.suggested_rrid, second.suggested_rrid], ['RRID:AB_303395', 'RRID:AB_627695']);
  assert.match(first.reasoning, /tied with RRID:AB_627695 on catalog number, vendor, name and type; order: no evidence separates them/);
  kb.addPaper('p7', [row('Antibody', 'GFP tag', 'Santa Cruz', 'Cat# sc-9996; RRID:AB_627695')]);
  // One more paper: no longer a tie (the paper count is part of the raw score), the better-attested one first.
  const again = ranked({ resourceName: 'GFP tag' });
  assert.equal(again[0].suggested_rrid, 'RRID:AB_627695');
  assert.doesNotMatch(again[0].reasoning, /tied/);
});

test('abstention: suggestions the calibration finds unlikely to be right are not shown', () => {
  const kb = base();
  const scores = scoreCandidates(kb, { resourceName: 'anti-GFP antibody' }).map((c) => c.rankScore);
  assert.ok(scores.length > 0);
  // A map under which name-only matches (tier 0, rank score < 10) are right 20% of the time, catalog matches 90%.
  kb.calibration = {
    method: 'test',
    bins: [
      { from: -2, to: 9.99, right: 1, total: 5, probability: 0.2 },
      { from: 10, to: 30, right: 9, total: 10, probability: 0.9 },
    ],
    queries: 0,
    pairs: 15,
    top1Rate: 0,
  };
  assert.deepEqual(suggestRrids(kb, { resourceName: 'anti-GFP antibody' }), []);
  const q = { resourceName: 'anti-GFP antibody' };
  assert.equal(suggestionsOf(scoreCandidates(kb, q), q, kb.calibration, { minConfidence: 0 }).length, scores.length);
  const shown = suggestRrids(kb, { resourceName: 'anti-GFP antibody', vendor: 'Abcam', catalogNumber: 'ab290' });
  assert.deepEqual(
    shown.map((s) => [s.suggested_rrid, s.confidence_score]),
    [['RRID:AB_303395', 0.9]],
  );
});

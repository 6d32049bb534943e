// Name-only questions are answered by the papers' consensus on the name, with a calibrated confidence, or the answer
// says why it abstains; the stored index and the base in memory agree (the identifier fill: fill-proposals.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { calibrate } from './calibration.ts';
import { nameKeys } from './consensus.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';
import { answerRrids, suggestRrids } from './suggest.ts';
import { answerFromIndex, rowsReader, suggestionIndexOf } from './suggestion-index.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

/** Eight papers that write HEK293T and Fiji with their RRIDs; two more that split on "GFP tag". */
function corpus(): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  for (let i = 0; i < 8; i++)
    kb.addPaper(`10.1101/p${i}`, [
      row('Experimental model: Cell line', i % 2 ? 'HEK 293T cells' : 'HEK293T', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063'),
      row('Software/code', i % 3 ? 'Fiji' : 'Fiji (ImageJ)', '', 'RRID:SCR_002285'),
    ]);
  kb.addPaper('10.1101/q1', [row('Antibody', 'GFP tag', 'Santa Cruz', 'RRID:AB_627695')]);
  kb.addPaper('10.1101/q2', [row('Antibody', 'GFP tag', 'Abcam', 'RRID:AB_303395')]);
  calibrate(kb);
  return kb;
}

test('name keys: separators, kind words, word order and parentheses aside', () => {
  const hek = nameKeys('HEK293T');
  for (const other of ['HEK-293T', 'HEK 293T cells', 'hek293t cell line'])
    assert.ok(
      nameKeys(other).some((k) => hek.includes(k)),
      other,
    );
  assert.ok(nameKeys('Fiji (ImageJ)').includes(nameKeys('Fiji')[0]));
  assert.ok(nameKeys('anti-GFP antibody').some((k) => nameKeys('GFP antibody').includes(k)));
  assert.ok(!nameKeys('HEK293').some((k) => hek.includes(k)));
});

test('name-only suggestions: the consensus answers, calibrated; a split vote or nothing abstains with a reason', () => {
  const kb = corpus();
  assert.ok(kb.calibration?.consensus?.length, 'the consensus score is calibrated at calibrate()');
  const hek = answerRrids(kb, { resourceName: 'HEK293T' });
  assert.equal(hek.abstained, false);
  assert.equal(hek.reason, null);
  assert.equal(hek.suggestions[0].suggested_rrid, 'RRID:CVCL_0063');
  assert.ok(hek.suggestions[0].confidence_score >= 0.9);
  assert.match(hek.suggestions[0].reasoning, /name-only query: .* written with RRID:CVCL_0063 in 8 mentions of 8/);
  assert.equal(suggestRrids(kb, { resourceName: 'Fiji' })[0]?.suggested_rrid, 'RRID:SCR_002285');
  assert.equal(suggestRrids(kb, { resourceName: 'HEK-293T cells', resourceType: 'cell line' })[0]?.suggested_rrid, 'RRID:CVCL_0063');

  const split = answerRrids(kb, { resourceName: 'GFP tag' });
  assert.deepEqual(split.suggestions, []);
  assert.equal(split.abstained, true);
  assert.match(split.reason ?? '', /papers disagree on this name/);
  const none = answerRrids(kb, { resourceName: 'quantum flux capacitor' });
  assert.equal(none.abstained, true);
  assert.match(none.reason ?? '', /no RRID in the knowledge base matches/);
});

test('the stored index gives the same answer and the same reason', async () => {
  const kb = corpus();
  const reader = rowsReader(JSON.parse(JSON.stringify(suggestionIndexOf(kb, new Set(), 'now'))));
  for (const resourceName of ['HEK293T', 'HEK 293T', 'Fiji', 'GFP tag', 'quantum flux capacitor', 'anti-GFP']) {
    const indexed = await answerFromIndex(reader, { resourceName });
    assert.ok(indexed);
    const memory = answerRrids(kb, { resourceName });
    assert.deepEqual({ ...indexed, suggestions: indexed.suggestions.map(({ demoOnly: _demoOnly, ...s }) => s) }, memory, resourceName);
  }
});

test('a trademark sign is no part of a name: "Expi293F™" is "Expi293F", not "Expi293FTM"', () => {
  assert.deepEqual(nameKeys('Expi293F™ cells'), nameKeys('Expi293F'));
  const kb = new RridKnowledgeBase();
  for (const doi of ['10.1101/e1', '10.1101/e2', '10.1101/e3'])
    kb.addPaper(doi, [row('Experimental model: Cell line', 'Expi293F™ Cells', 'Thermo Fisher', 'Cat# A14527; RRID:CVCL_D615')]);
  calibrate(kb);
  for (const resourceName of ['Expi293F cells (female, Homo sapiens)', 'Expi293F', 'Expi293F™'])
    assert.equal(suggestRrids(kb, { resourceName }, { minConfidence: 0 })[0]?.suggested_rrid, 'RRID:CVCL_D615', resourceName);
});

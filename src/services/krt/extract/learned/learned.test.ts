// The learned text extractor: the scoring definitions, the gazetteer's leave-own-paper-out statistics,
// deterministic training, and rows that carry their sentence and a confidence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { corpusFiles, corpusMissing } from '../../../../../test/support/krt/corpus.ts';
import { parseXml } from '../../jats/tree.ts';
import { extractArticle, TEXT_EXTRACTOR_MODEL } from '../extract-article.ts';
import { heldOutSplit, macroEstimate, matchRows, scorePaper } from '../evaluation.ts';
import { makeRow, type KrtRow, type ResourceType } from '../krt-row.ts';
import { Gazetteer } from './gazetteer.ts';
import { LearnedExtractor, LEARNED_EXTRACTOR_MODEL, trainExtractor } from './model.ts';
import { loadAuthorTablePapers } from './papers.ts';
import { articleText } from './sentences.ts';
import { shippedExtractor } from './shipped.ts';

const row = (type: ResourceType, name: string, source = '', identifier = ''): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

test('scoring: one-to-one matches by identifier or distinctive name words; macro averages with intervals', () => {
  const gold = [
    row('Antibody', 'Rabbit anti-GFP antibody', 'Abcam', 'Cat# ab290'),
    row('Software/code', 'GraphPad Prism 9'),
    row('Experimental model: Cell line', 'HEK293T cells', 'ATCC', 'CRL-3216'),
  ];
  const predicted = [
    row('Antibody', 'GFP', 'Abcam', 'Cat# ab290'), // identifier
    row('Software/code', 'Prism'), // names: {prism} vs {graphpad, prism} → Dice 0.67
    row('Software/code', 'Prism v8'), // the same gold row again: not matched twice
    row('Chemical, peptide, or recombinant protein', 'HEK293T'), // name match, type differs
    row('Other', 'microscope'),
  ];
  const matches = matchRows(predicted, gold);
  assert.deepEqual(matches.map((m) => [m.predicted, m.gold, m.by, m.typeAgrees]).sort(), [
    [0, 0, 'identifier', true],
    [1, 1, 'name', true],
    [3, 2, 'name', false],
  ]);
  const score = scorePaper('p', predicted, gold);
  assert.deepEqual(score.resources, { rightPredicted: 3, predicted: 5, foundGold: 3, gold: 3 });
  assert.deepEqual(score.typedResources, { rightPredicted: 2, predicted: 5, foundGold: 2, gold: 3 });
  const e = macroEstimate([score.resources, { rightPredicted: 1, predicted: 4, foundGold: 1, gold: 2 }], 'recall', 500, 1);
  assert.equal(e.value, (1 + 0.5) / 2);
  assert.ok(e.low <= e.value && e.value <= e.high);
  // The held-out split is fixed by the DOIs alone.
  const dois = Array.from({ length: 84 }, (_, i) => `10.1101/${i}`);
  const split = heldOutSplit(dois);
  assert.equal(split.heldOut.length, 28);
  assert.deepEqual(heldOutSplit([...dois].reverse()), split);
  assert.equal(new Set([...split.heldOut, ...split.development]).size, 84);
});

test('gazetteer: a paper can be left out of its own statistics; compact snapshot round trip', () => {
  const g = new Gazetteer();
  const a = Gazetteer.keysOfRows([{ name: 'Mouse: C57BL/6J (JAX 000664)', type: 'Experimental model: Organism/strain' }]);
  const b = Gazetteer.keysOfRows([{ name: 'C57BL/6J', type: 'Experimental model: Organism/strain' }]);
  assert.ok(a.has('c57bl 6j') && a.has('jax 000664'));
  g.addListed(a);
  g.addListed(b);
  g.addMentions(new Set(['c57bl 6j']), a);
  g.addMentions(new Set(['c57bl 6j', 'jax 000664']), new Map());
  assert.deepEqual(g.get('c57bl 6j'), { listed: 2, mentioned: 2, mentionedListed: 1, types: { 'Experimental model: Organism/strain': 2 } });
  const withoutA = { listed: a, mentioned: new Set(['c57bl 6j']) };
  assert.deepEqual(g.get('c57bl 6j', withoutA), {
    listed: 1,
    mentioned: 1,
    mentionedListed: 0,
    types: { 'Experimental model: Organism/strain': 1 },
  });
  // Matching as if the paper were unseen: a name only that paper lists is not found.
  const words = [
    { norm: 'jax', start: 0, end: 3 },
    { norm: '000664', start: 4, end: 10 },
  ];
  assert.equal(g.match(words).length, 1);
  assert.equal(g.match(words, withoutA).length, 0);
  const again = Gazetteer.fromJSON(JSON.parse(JSON.stringify(g.toJSON())));
  assert.deepEqual(again.get('c57bl 6j'), g.get('c57bl 6j'));
});

const METHODS = `<article><body><sec sec-type="methods"><title>Materials and methods</title>
<sec><title>Immunostaining</title><p>Sections were fixed in 4% paraformaldehyde and stained with rabbit anti-GFP (Abcam, ab290, RRID:AB_303395, 1:1000),
then with DAPI. HEK293T cells (ATCC CRL-3216) were transfected using Lipofectamine 3000 (Thermo Fisher Scientific). Images were analysed in Fiji (RRID:SCR_002285) and GraphPad Prism 9.</p></sec>
</sec></body></article>`;

test('the shipped model: every row carries its sentence and a calibrated confidence', () => {
  const extractor = shippedExtractor();
  if (!extractor) {
    assert.equal(TEXT_EXTRACTOR_MODEL, 'krt-text-1', 'without the model file the rules extract');
    return;
  }
  assert.equal(TEXT_EXTRACTOR_MODEL, LEARNED_EXTRACTOR_MODEL);
  const x = extractArticle(METHODS, { mode: 'text' });
  assert.equal(x.model, LEARNED_EXTRACTOR_MODEL);
  assert.ok(x.evidence && x.evidence.length === x.rows.length && x.rows.length > 0);
  const text = articleText(parseXml(METHODS), new Set())
    .sentences.map((s) => s.text)
    .join(' ');
  x.rows.forEach((r, i) => {
    const { sentence, confidence } = x.evidence![i];
    assert.ok(text.includes(sentence), `sentence of ${r['RESOURCE NAME']}`);
    assert.ok(sentence.includes(r['RESOURCE NAME'].split(' ')[0]), `${r['RESOURCE NAME']} in "${sentence}"`);
    assert.ok(confidence >= 0 && confidence <= 1);
  });
  // An RRID written in the text is always kept, and never altered.
  const gfp = x.rows.find((r) => r.IDENTIFIER.includes('RRID:AB_303395'));
  assert.ok(gfp, 'the antibody with its RRID');
  assert.match(gfp.IDENTIFIER, /Cat# ab290/);
  assert.deepEqual(extractArticle(METHODS, { mode: 'text' }).rows, x.rows, 'deterministic');
});

test('training on corpus papers is deterministic and its model round-trips', (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  // A few development papers keep this test short; the reported figures come from `npm run bench -- krt`.
  const withTables = corpusFiles().filter((f) => /key resources table|REAGENT or RESOURCE/i.test(readFileSync(f, 'utf8')));
  const papers = loadAuthorTablePapers(withTables.slice(0, 14));
  const { development } = heldOutSplit(papers.map((p) => p.doi));
  const train = papers.filter((p) => development.includes(p.doi)).slice(0, 8);
  assert.ok(train.length >= 4, `${train.length} papers`);
  const first = trainExtractor(train, 2, 15);
  const second = trainExtractor(train, 2, 15);
  assert.deepEqual(first, second);
  assert.ok(first.threshold > 0 && first.threshold < 1);
  assert.ok(first.trainedOn.positives > 0 && first.trainedOn.positives < first.trainedOn.candidates);
  for (let i = 1; i < first.calibration.length; i++) assert.ok(first.calibration[i].probability >= first.calibration[i - 1].probability);
  const extractor = new LearnedExtractor(JSON.parse(JSON.stringify(first)));
  const rows = extractor.extract(train[0].text, train[0].base);
  assert.deepEqual(
    rows.map((r) => r.row),
    new LearnedExtractor(first).extract(train[0].text, train[0].base).map((r) => r.row),
  );
  t.diagnostic(
    `${train.length} papers: ${first.trainedOn.candidates} candidates, ${first.trainedOn.positives} positive, threshold ${first.threshold}`,
  );
});

test('the shipped model types a row by what its name says before what other papers listed inside it', () => {
  if (!shippedExtractor()) return;
  const xml = `<article><body><sec sec-type="methods"><title>Methods</title><p>Blots were probed with mouse anti-beta-actin antibody (Example Biosciences, 1:1000). Sections were incubated with rabbit anti-SARS-CoV-2 nucleocapsid antibody (Sino Biological, 40143-R019). We used Superscript III cDNA synthesis kit (ThermoFisher, UK) to synthesize cDNA.</p></sec></body></article>`;
  const rows = extractArticle(xml, { mode: 'text' }).rows;
  const typeOf = (name: string) => rows.find((r) => r['RESOURCE NAME'] === name)?.['RESOURCE TYPE'];
  // One author table of the corpus lists "mouse anti-beta actin" as recombinant DNA; the gazetteer's type is not the name's.
  assert.equal(typeOf('mouse anti-beta-actin antibody'), 'Antibody');
  assert.equal(typeOf('rabbit anti-SARS-CoV-2 nucleocapsid antibody'), 'Antibody');
  assert.equal(typeOf('Superscript III cDNA synthesis kit'), 'Critical commercial assay');
});

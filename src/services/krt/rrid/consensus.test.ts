// Name-only questions are answered by the papers' consensus on the name, with a calibrated confidence, or the answer
// says why it abstains; the stored index and the base in memory agree (the identifier fill: fill-proposals.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { calibrate } from './calibration.ts';
import { nameKeys } from './consensus.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';
import { answerRrids, joinedNameParts, suggestRrids } from './suggest.ts';
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

test('words before a cell line\'s name describe it: one paper\'s "U2OS" does not outvote two that write "… U2OS cells"', async () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('10.1101/u1', [row('Experimental model: Cell line', 'Mycoplasma-free U2OS cells', 'ATCC', 'Cat# HTB-96; RRID:CVCL_0042')]);
  kb.addPaper('10.1101/u2', [
    row('Experimental model: Cell line', 'human female bone osteosarcoma U2OS cells', 'ATCC', 'Cat# HTB-96; RRID:CVCL_0042'),
  ]);
  // A derived line read with the parent's name only.
  kb.addPaper('10.1101/u3', [row('Experimental model: Cell line', 'U2OS', '', 'RRID:CVCL_LB00')]);
  // Words after a name make another resource of it: "HEK293T-ACE2" is no vote for what "HEK293T" is.
  kb.addPaper('10.1101/h1', [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0063')]);
  kb.addPaper('10.1101/h2', [row('Experimental model: Cell line', 'HEK293T-ACE2', '', 'RRID:CVCL_A7UK')]);
  // An antibody's host before its target says which antibody: "Rabbit anti-GFP" is no vote for "anti-GFP".
  kb.addPaper('10.1101/g1', [row('Antibody', 'Rabbit anti-GFP', 'Abcam', 'RRID:AB_303395')]);
  calibrate(kb);
  const u2os = answerRrids(kb, { resourceName: 'U2OS' }, { minConfidence: 0 });
  assert.equal(u2os.suggestions[0]?.suggested_rrid, 'RRID:CVCL_0042');
  assert.match(u2os.suggestions[0].reasoning, /in 2 mentions of 3 with an RRID \(also with RRID:CVCL_LB00 ×1\)/);
  const hek = answerRrids(kb, { resourceName: 'HEK293T' }, { minConfidence: 0 });
  assert.deepEqual(
    hek.suggestions.map((s) => s.suggested_rrid),
    ['RRID:CVCL_0063'],
  );
  assert.ok(!answerRrids(kb, { resourceName: 'anti-GFP' }, { minConfidence: 0 }).suggestions[0]?.reasoning.startsWith('name-only query'));
  await assertIndexAgrees(kb, ['U2OS', 'HEK293T', 'anti-GFP']);
});

/** The stored suggestion index answers each name as the knowledge base in memory does (demo flags aside). */
async function assertIndexAgrees(kb: RridKnowledgeBase, names: readonly string[]): Promise<void> {
  const reader = rowsReader(JSON.parse(JSON.stringify(suggestionIndexOf(kb, new Set(), 'now'))));
  for (const resourceName of names) {
    const indexed = await answerFromIndex(reader, { resourceName });
    assert.ok(indexed);
    assert.deepEqual(
      { ...indexed, suggestions: indexed.suggestions.map(({ demoOnly: _demoOnly, ...s }) => s) },
      answerRrids(kb, { resourceName }),
      resourceName,
    );
  }
}

/** Papers that write Fiji and ImageJ apart, one that writes them joined, and what slashes in real names look like. */
function joinedCorpus(): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  for (let i = 0; i < 4; i++)
    kb.addPaper(`10.1101/j${i}`, [
      row('Software/code', 'Fiji', '', 'RRID:SCR_002285'),
      row('Software/code', 'ImageJ', '', 'RRID:SCR_003070'),
      row('Experimental model: Organism/strain', 'C57BL/6J', 'Jackson Laboratory', 'RRID:IMSR_JAX:000664'),
      row('Experimental model: Organism/strain', 'C57BL', 'Jackson Laboratory', 'RRID:IMSR_JAX:000664'),
      row('Experimental model: Organism/strain', 'w1118', 'Bloomington', 'RRID:BDSC_3605'),
      row('Experimental model: Organism/strain', 'CyO', 'Bloomington', 'RRID:BDSC_2555'),
      row('Experimental model: Organism/strain', 'w1118; UAS-mCD8-GFP/CyO', 'Bloomington', 'RRID:BDSC_5137'),
      row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0063'),
    ]);
  // The joined name, written with ImageJ's RRID: what answered "FIJI/ ImageJ" with ImageJ's RRID.
  kb.addPaper('10.1101/j9', [row('Software/code', 'FIJI/ImageJ', '', 'RRID:SCR_003070')]);
  // One tool under two names.
  for (const doi of ['10.1101/k1', '10.1101/k2'])
    kb.addPaper(doi, [
      row('Software/code', 'GraphPad Prism', 'GraphPad', 'RRID:SCR_002798'),
      row('Software/code', 'Prism', 'GraphPad', 'RRID:SCR_002798'),
    ]);
  calibrate(kb);
  return kb;
}

test('a name that joins two names the papers write apart with different RRIDs abstains and says why', async () => {
  const kb = joinedCorpus();
  for (const resourceName of ['FIJI/ ImageJ', 'Fiji/ImageJ', 'ImageJ / Fiji', 'Fiji or ImageJ', 'Fiji and ImageJ']) {
    const answer = answerRrids(kb, { resourceName });
    assert.deepEqual([answer.abstained, answer.suggestions], [true, []], resourceName);
    assert.match(
      answer.reason ?? '',
      /the name joins 2 resources that papers write apart: .*RRID:SCR_002285.*RRID:SCR_003070|RRID:SCR_003070.*RRID:SCR_002285/,
    );
  }
  // Each part alone is answered.
  assert.equal(suggestRrids(kb, { resourceName: 'Fiji' })[0]?.suggested_rrid, 'RRID:SCR_002285');
  assert.equal(suggestRrids(kb, { resourceName: 'ImageJ' })[0]?.suggested_rrid, 'RRID:SCR_003070');
  // Parts that name one resource: its RRID (first, whatever this small base's calibration makes of two papers).
  assert.equal(suggestRrids(kb, { resourceName: 'GraphPad Prism / Prism' }, { minConfidence: 0 })[0]?.suggested_rrid, 'RRID:SCR_002798');
  // With a catalog number or a vendor, ranking decides as before: the rule is for names alone.
  assert.equal(joinedNameParts({ resourceName: 'Fiji/ImageJ', vendor: 'NIH' }), null);
  await assertIndexAgrees(kb, ['FIJI/ ImageJ', 'GraphPad Prism / Prism', 'C57BL/6J', 'w1118; UAS-mCD8-GFP/CyO', 'HEK293T/17']);
});

test('slashes inside one name are no join: strains, genotypes, sublines, dyes, targets', () => {
  const kb = joinedCorpus();
  // "C57BL" is a name of its own here, but "6J" is too short to be one: the strain is asked whole.
  assert.equal(suggestRrids(kb, { resourceName: 'C57BL/6J' })[0]?.suggested_rrid, 'RRID:IMSR_JAX:000664');
  // A genotype's slash joins chromosomes: "w1118" and "CyO" are stocks of their own, the genotype is another.
  assert.equal(suggestRrids(kb, { resourceName: 'w1118; UAS-mCD8-GFP/CyO' })[0]?.suggested_rrid, 'RRID:BDSC_5137');
  for (const resourceName of [
    'C57BL/6J',
    'HEK293T/17',
    'Alexa Fluor 488/555',
    'w1118; UAS-mCD8-GFP/CyO',
    'wg[Sp-1]/CyO',
    'Human/Mouse Oct-3/4 Antibody',
    'α1-Na+/K+ ATPase',
  ])
    assert.equal(answerRrids(kb, { resourceName }).reason?.includes('joins') ?? false, false, resourceName);
  assert.equal(joinedNameParts({ resourceName: 'HEK293T/17' }), null);
  assert.equal(joinedNameParts({ resourceName: 'w1118; UAS-mCD8-GFP/CyO' }), null);
  assert.deepEqual(
    joinedNameParts({ resourceName: 'FIJI/ ImageJ', resourceType: 'software' })?.map((q) => [q.resourceName, q.resourceType]),
    [
      ['FIJI', 'software'],
      ['ImageJ', 'software'],
    ],
  );
});

test('the type asked is a hard filter where the registry says the kind: no fly stock for an antibody', async () => {
  const kb = new RridKnowledgeBase();
  for (const doi of ['10.1101/m1', '10.1101/m2', '10.1101/m3'])
    kb.addPaper(doi, [row('Experimental model: Organism/strain', 'mCherry', 'Bloomington', 'RRID:BDSC_35787')]);
  kb.addPaper('10.1101/m4', [row('Antibody', 'anti-mCherry', 'Abcam', 'Cat# ab167453; RRID:AB_2571870')]);
  for (const doi of ['10.1101/m5', '10.1101/m6'])
    kb.addPaper(doi, [row('Experimental model: Cell line', 'HeLa', 'ATCC', 'Cat# CCL-2; RRID:CVCL_0030')]);
  // An antibody whose catalog number is a cell line's too (a mislabelled row): no AB_ for a cell line asked.
  kb.addPaper('10.1101/m7', [row('Antibody', 'anti-HeLa', 'ATCC', 'Cat# CCL-2; RRID:AB_0000042')]);
  calibrate(kb);
  // The name alone: papers write it for a fly stock and name an antibody after it, so it is not answered.
  const alone = answerRrids(kb, { resourceName: 'mCherry' });
  assert.deepEqual([alone.abstained, alone.suggestions], [true, []]);
  assert.match(
    alone.reason ?? '',
    /^the name is written for resources of different kinds: an organism \(RRID:BDSC_35787, .*\) and an antibody \(RRID:AB_2571870, Antibody Registry\); give resource_type/,
  );
  // The type asked says which: the fly stock for an organism.
  assert.equal(
    suggestRrids(kb, { resourceName: 'mCherry', resourceType: 'Experimental model: Organism/strain' })[0]?.suggested_rrid,
    'RRID:BDSC_35787',
  );
  // An antibody asked: never the fly stock; the reason says what was left out.
  for (const resourceType of ['Antibody', 'antibody']) {
    const asked = answerRrids(kb, { resourceName: 'mCherry', resourceType }, { minConfidence: 0 });
    assert.ok(
      asked.suggestions.every((s) => !s.suggested_rrid.startsWith('RRID:BDSC_')),
      JSON.stringify(asked.suggestions),
    );
    const shown = answerRrids(kb, { resourceName: 'mCherry', resourceType });
    assert.ok(!shown.suggestions[0]?.suggested_rrid.startsWith('RRID:BDSC_'));
  }
  const strict = answerRrids(kb, { resourceName: 'mCherry', resourceType: 'Antibody' }, { minConfidence: 0.99 });
  assert.equal(strict.abstained, true);
  assert.match(
    strict.reason ?? '',
    /left out as of another kind: RRID:BDSC_35787 matches, but Bloomington Drosophila Stock Center lists organism/,
  );
  // eLife's type for a fly line, as a client sends it from the table: the stock, never the antibody.
  assert.equal(
    suggestRrids(kb, { resourceName: 'mCherry', resourceType: 'Genetic reagent (D. melanogaster)' })[0]?.suggested_rrid,
    'RRID:BDSC_35787',
  );
  assert.ok(
    suggestRrids(kb, { resourceName: 'anti-mCherry', resourceType: 'Genetic reagent (D. melanogaster)' }, { minConfidence: 0 }).every(
      (s) => !s.suggested_rrid.startsWith('RRID:AB_'),
    ),
  );
  // A type no registry's kind settles ("Other") does not say which either.
  assert.match(answerRrids(kb, { resourceName: 'mCherry', resourceType: 'Other' }).reason ?? '', /resources of different kinds/);
  // A cell line asked with a catalog number that an antibody shares: the cell line, never the AB_.
  const hela = suggestRrids(
    kb,
    { resourceName: 'HeLa', resourceType: 'Experimental model: Cell line', catalogNumber: 'CCL-2' },
    { minConfidence: 0 },
  );
  assert.ok(hela.length > 0);
  assert.ok(
    hela.every((s) => !s.suggested_rrid.startsWith('RRID:AB_')),
    JSON.stringify(hela),
  );
  assert.ok(
    suggestRrids(kb, { resourceName: 'HeLa', catalogNumber: 'CCL-2' }, { minConfidence: 0 }).some(
      (s) => s.suggested_rrid === 'RRID:AB_0000042',
    ),
    'without a type both stay candidates',
  );
  const reader = rowsReader(JSON.parse(JSON.stringify(suggestionIndexOf(kb, new Set(), 'now'))));
  for (const query of [
    { resourceName: 'mCherry', resourceType: 'Antibody' },
    { resourceName: 'mCherry' },
    { resourceName: 'HeLa', resourceType: 'cell line', catalogNumber: 'CCL-2' },
  ]) {
    const indexed = await answerFromIndex(reader, query);
    assert.ok(indexed);
    assert.deepEqual({ ...indexed, suggestions: indexed.suggestions.map(({ demoOnly: _demoOnly, ...s }) => s) }, answerRrids(kb, query));
  }
});

test('a name the papers write for an antibody and a plasmid: the reason asks for the type; a genotype holding it is no mention', async () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('10.1101/g1', [row('Antibody', 'GFP', 'Abcam', 'Cat# ab13970; RRID:AB_300798')]);
  kb.addPaper('10.1101/g2', [row('Recombinant DNA', 'GFP', 'Addgene', 'RRID:Addgene_58880')]);
  // A fly stock whose genotype holds the name: not a mention of GFP.
  kb.addPaper('10.1101/g3', [row('Experimental model: Organism/strain', 'UAS-CD8::GFP', 'Bloomington', 'RRID:BDSC_32187')]);
  kb.addPaper('10.1101/g4', [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0063')]);
  calibrate(kb);
  const alone = answerRrids(kb, { resourceName: 'GFP' });
  assert.equal(alone.abstained, true);
  assert.match(alone.reason ?? '', /^papers disagree on this name: RRID:(AB_300798|Addgene_58880) in 1 of 2 mentions/);
  assert.match(
    alone.reason ?? '',
    /; the name is written for resources of different kinds: .*RRID:(Addgene_58880|AB_300798).*give resource_type/,
  );
  assert.doesNotMatch(alone.reason ?? '', /BDSC/);
  // The type says which: the filter leaves one RRID, written once.
  const antibody = answerRrids(kb, { resourceName: 'GFP', resourceType: 'Antibody' }, { minConfidence: 0 });
  assert.deepEqual(
    antibody.suggestions.map((s) => s.suggested_rrid),
    ['RRID:AB_300798'],
  );
  // Kinds that can meet are one reading: a name written only for a cell line gets no such reason.
  assert.doesNotMatch(answerRrids(kb, { resourceName: 'HEK293T' }).reason ?? '', /different kinds/);
  await assertIndexAgrees(kb, ['GFP', 'HEK293T', 'UAS-CD8::GFP']);
});

test('a number after a slash or a hyphen is part of the name: "HEK293T/17" is not HEK293T, "HT-29" not "HT-1080"', () => {
  assert.ok(!nameKeys('HEK293T/17').some((k) => nameKeys('HEK293T').includes(k)));
  assert.ok(!nameKeys('C57BL/6').some((k) => nameKeys('C57BL/10').includes(k)));
  assert.ok(!nameKeys('HT-29').some((k) => nameKeys('HT-1080').includes(k)));
  assert.deepEqual(nameKeys('THP-1')[0], nameKeys('THP1')[0]);
  const kb = new RridKnowledgeBase();
  for (const doi of ['10.1101/s1', '10.1101/s2', '10.1101/s3'])
    kb.addPaper(doi, [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063')]);
  for (const doi of ['10.1101/s4', '10.1101/s5'])
    kb.addPaper(doi, [row('Experimental model: Cell line', 'HEK293T/17', 'ATCC', 'Cat# CRL-11268; RRID:CVCL_1926')]);
  calibrate(kb);
  const first = (resourceName: string) => answerRrids(kb, { resourceName }, { minConfidence: 0 }).suggestions[0];
  assert.equal(first('HEK293T/17')?.suggested_rrid, 'RRID:CVCL_1926');
  assert.match(first('HEK293T/17')?.reasoning ?? '', /in 2 mentions of 2 with an RRID/);
  assert.equal(first('HEK293T')?.suggested_rrid, 'RRID:CVCL_0063');
  assert.match(first('HEK293T')?.reasoning ?? '', /in 3 mentions of 3 with an RRID/);
});

test('a capital letter written after a name is a subline\'s: "HeLa K (HeLa Kyoto)" does not answer "HeLa"', () => {
  assert.ok(!nameKeys('HeLa K (HeLa Kyoto)').some((k) => nameKeys('HeLa').includes(k)));
  assert.ok(!nameKeys('HeLa S3').some((k) => nameKeys('HeLa').includes(k)));
  // The letter is the name's whether written apart or joined; a version's lower-case "v." is still no part of it.
  assert.deepEqual(nameKeys('HEK 293 T')[0], nameKeys('HEK293T')[0]);
  assert.deepEqual(nameKeys('C57BL/6 J')[0], nameKeys('C57BL/6J')[0]);
  assert.deepEqual(nameKeys('FlowJo v 10')[0], nameKeys('FlowJo')[0]);
  // An antibody's "(H+L)" is no subline letter.
  assert.ok(nameKeys('Goat anti-rabbit IgG (H+L)').some((k) => nameKeys('Goat anti-rabbit IgG').includes(k)));
  const kb = new RridKnowledgeBase();
  kb.addPaper('10.1101/h1', [row('Experimental model: Cell line', 'HeLa K (HeLa Kyoto)', 'S. Narumiya', 'RRID:CVCL_1922')]);
  for (const doi of ['10.1101/h2', '10.1101/h3'])
    kb.addPaper(doi, [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063')]);
  calibrate(kb);
  // At most a look-alike candidate by name similarity, never the papers' consensus for the name.
  const answer = answerRrids(kb, { resourceName: 'HeLa' }, { minConfidence: 0 });
  assert.ok(!answer.suggestions.some((s) => s.reasoning.startsWith('name-only query')), JSON.stringify(answer.suggestions));
  assert.equal(answerRrids(kb, { resourceName: 'HeLa K' }, { minConfidence: 0 }).suggestions[0]?.suggested_rrid, 'RRID:CVCL_1922');
});

test('a brand before a cell line\'s name makes another line: "PathHunter CHO-K1" does not answer "CHO-K1"', async () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('10.1101/c1', [row('Experimental model: Cell line', 'PathHunter CHO-K1', 'DiscoverX', 'RRID:CVCL_KY70')]);
  kb.addPaper('10.1101/c2', [row('Experimental model: Cell line', 'hTERT RPE-1 cells', 'ATCC', 'Cat# CRL-4000; RRID:CVCL_4388')]);
  for (const doi of ['10.1101/c3', '10.1101/c4'])
    kb.addPaper(doi, [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063')]);
  calibrate(kb);
  const consensus = (resourceName: string) =>
    answerRrids(kb, { resourceName }, { minConfidence: 0 }).suggestions.filter((s) => s.reasoning.startsWith('name-only query'));
  assert.deepEqual(consensus('CHO-K1'), []);
  assert.equal(consensus('PathHunter CHO-K1')[0]?.suggested_rrid, 'RRID:CVCL_KY70');
  // A lower-case prefix of a letter or two is part of how the line is described.
  assert.equal(consensus('RPE-1')[0]?.suggested_rrid, 'RRID:CVCL_4388');
  // Before a tool's name a brand is its maker's.
  kb.addPaper('10.1101/c5', [row('Software/code', 'GraphPad Prism', 'GraphPad', 'RRID:SCR_002798')]);
  calibrate(kb);
  assert.equal(consensus('Prism')[0]?.suggested_rrid, 'RRID:SCR_002798');
});

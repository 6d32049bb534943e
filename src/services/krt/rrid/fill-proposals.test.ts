// What the base proposes for a text-built table's empty identifier cells: identifiers other papers wrote for the same
// resource, with those papers as evidence; the fill model writes only proposals from its threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { calibrate, consensusPairsOf, type LopoQuery } from './calibration.ts';
import { consensusBins, distinctiveName } from './consensus.ts';
import fc from 'fast-check';
import { parseIdentifierText } from '../extract/identifier.ts';
import { applyFills, chooseFillThresholds, fillClass, fillProbability, passesThreshold, trainFillModel, writeFills } from './fill-model.ts';
import { fillProposals } from './fill-proposals.ts';
import { RridKnowledgeBase } from './knowledge-base.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

function base(): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  for (let i = 0; i < 4; i++)
    kb.addPaper(`10.1101/p${i}`, [
      row('Experimental model: Cell line', 'HEK-293T cells', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063'),
      row('Chemical, peptide, or recombinant protein', 'Lipofectamine 2000', 'Thermo Fisher', 'Cat# 11668019'),
    ]);
  kb.addPaper('10.1101/q1', [row('Antibody', 'anti-GFP', 'Abcam', 'Cat# ab290; RRID:AB_303395')]);
  kb.addPaper('10.1101/q2', [row('Antibody', 'anti-GFP', 'Santa Cruz', 'Cat# sc-9996; RRID:AB_627695')]);
  calibrate(kb);
  return kb;
}

test('fill proposals: the identifiers papers wrote for the same name, with their papers; none across types', () => {
  const kb = base();
  const rows = [
    row('Experimental model: Cell line', 'HEK293T', '', ''),
    row('Chemical, peptide, or recombinant protein', 'lipofectamine-2000', '', ''),
    row('Antibody', 'HEK293T', '', ''),
    row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0063; Cat# CRL-3216'),
    row('Antibody', 'Anti-GFP', '', ''),
  ];
  const proposals = fillProposals(kb, rows, [0.9, 0.8, 0.7, 0.9, 0.6]);
  const of = (i: number) => proposals.filter((p) => p.row === i).map((p) => [p.kind, p.value, p.agreeing, p.total]);
  assert.deepEqual(of(0), [
    ['rrid', 'CVCL_0063', 4, 4],
    ['catalog', 'CRL-3216', 4, 4],
  ]);
  assert.deepEqual(of(1), [['catalog', '11668019', 4, 4]]);
  assert.deepEqual(proposals.find((p) => p.row === 1)!.evidence, ['10.1101/p0', '10.1101/p1', '10.1101/p2', '10.1101/p3']);
  assert.deepEqual(of(2), [], 'a cell line is not proposed for an antibody row');
  assert.deepEqual(of(3), [], 'a row with its RRID and catalog number asks for nothing');
  // A split vote is proposed with its share: one of two.
  assert.deepEqual(
    of(4).map((p) => [p[0], p[2], p[3]]),
    [
      ['rrid', 1, 2],
      ['catalog', 1, 2],
    ],
  );
  assert.ok(proposals.every((p) => p.features.includes(`kind:${p.kind}`)));
  // Every proposed identifier is one a paper of the base wrote.
  for (const p of proposals) assert.ok(p.kind === 'rrid' ? kb.hasRrid(p.value) : [...kb.entries()].some((e) => e.catalogs.has(p.value)));
});

test("fill proposals: an antibody's RRID and a catalog number only from the supplier the text names beside the row", () => {
  const kb = base();
  const rows = [row('Antibody', 'anti-GFP', 'Santa Cruz Biotechnology', ''), row('Antibody', 'anti-GFP', 'Proteintech', '')];
  const catalogs = (i: number) => fillProposals(kb, rows).filter((p) => p.row === i && p.kind === 'catalog');
  assert.deepEqual(
    catalogs(0).map((p) => [p.value, p.agreeing, p.total]),
    [['sc-9996', 1, 1]],
  );
  assert.deepEqual(catalogs(1), [], 'no paper wrote a catalog number of this supplier');
  const rrids = (i: number) => fillProposals(kb, rows).filter((p) => p.row === i && p.kind === 'rrid');
  assert.deepEqual(
    rrids(0).map((p) => p.value),
    ['AB_627695'],
  );
  assert.deepEqual(rrids(1), [], "another supplier's antibody is another RRID");
});

test('fill model: learns from labelled proposals; only proposals from the threshold are written', () => {
  const kb = base();
  const rows = [row('Experimental model: Cell line', 'HEK293T', '', ''), row('Antibody', 'Anti-GFP', '', '')];
  const proposals = fillProposals(kb, rows);
  // Labels: the unanimous cell line right, the split antibody vote wrong.
  const examples = Array.from({ length: 20 }, () => proposals.map((p) => ({ features: p.features, label: p.row === 0 }))).flat();
  const model = trainFillModel(examples);
  const hek = fillProbability(model, proposals[0].features);
  const gfp = fillProbability(model, proposals.find((p) => p.row === 1)!.features);
  assert.ok(hek > 0.8 && gfp < 0.2, `${hek} ${gfp}`);
  const { rows: filled, fills } = applyFills(rows, proposals, model, {
    'rrid:cell line': 0.5,
    'catalog:cell line': 0.5,
    'rrid:antibody': 0.5,
    'catalog:antibody': 0.5,
  });
  assert.equal(filled[0].IDENTIFIER, 'Cat# CRL-3216; RRID:CVCL_0063');
  assert.equal(filled[1].IDENTIFIER, '');
  assert.deepEqual(
    fills.map((f) => f.filled),
    proposals.map((p) => p.row === 0),
  );
  assert.deepEqual(writeFills(rows, []), rows);
});

test('name-only consensus: resources with names of their own are calibrated apart from antibodies', () => {
  assert.equal(distinctiveName('Software/code'), true);
  assert.equal(distinctiveName('Experimental model: Cell line'), true);
  assert.equal(distinctiveName('Antibody'), false);
  const query = (type: ResourceType, right: boolean): LopoQuery => ({
    paper: 'p',
    rrid: 'X',
    name: 'n',
    vendor: '',
    catalog: '',
    answerable: true,
    returned: [],
    consensus: { rrid: right ? 'X' : 'Y', score: 0.5, type },
  });
  const queries = [query('Software/code', true), query('Software/code', true), query('Antibody', false)];
  assert.deepEqual(
    consensusPairsOf(queries, true).map((p) => p.right),
    [true, true],
  );
  assert.deepEqual(
    consensusPairsOf(queries, false).map((p) => p.right),
    [false],
  );
  assert.equal(consensusPairsOf(queries).length, 3);
  const calibration = base().calibration!;
  assert.ok(calibration.consensusDistinctive);
  assert.equal(consensusBins(calibration, 'Software/code'), calibration.consensusDistinctive);
  assert.equal(consensusBins(calibration, 'Antibody'), calibration.consensus);
  // A snapshot calibrated before the split keeps its one map for both.
  const { consensusDistinctive: _, ...older } = calibration;
  assert.equal(consensusBins(older, 'Software/code'), calibration.consensus);
});

test('fill thresholds by class: chosen where the labelled proposals reach the precision, none elsewhere', () => {
  const proposal = (type: ResourceType, kind: 'rrid' | 'catalog') => ({ kind, features: [`kind:${kind}`, `rowtype:${type}`] });
  assert.equal(fillClass(proposal('Software/code', 'rrid')), 'rrid:software');
  assert.equal(fillClass(proposal('Experimental model: Cell line', 'catalog')), 'catalog:cell line');
  assert.equal(fillClass(proposal('Experimental model: Organism/strain', 'rrid')), 'rrid:organism');
  assert.equal(fillClass(proposal('Antibody', 'rrid')), 'rrid:antibody');
  assert.equal(fillClass(proposal('Chemical, peptide, or recombinant protein', 'catalog')), 'catalog:other');
  const software = proposal('Software/code', 'rrid');
  const antibody = proposal('Antibody', 'catalog');
  // Software: the 12 most probable are 10 right (0.83), the next 8 all wrong; antibodies: right 1 time in 3 at best.
  const scored = [
    ...Array.from({ length: 12 }, (_, i) => ({ proposal: software, probability: 0.9 - i * 0.01, right: i % 6 !== 5 })),
    ...Array.from({ length: 8 }, (_, i) => ({ proposal: software, probability: 0.5 - i * 0.01, right: false })),
    ...Array.from({ length: 30 }, (_, i) => ({ proposal: antibody, probability: 0.95 - i * 0.01, right: i % 3 === 0 })),
  ];
  const thresholds = chooseFillThresholds(scored, 0.7, 10);
  // From 0.49 (the 14th software proposal) precision is 10 of 14 = 0.714; from 0.48 it is 10 of 15 = 0.667.
  assert.deepEqual(thresholds, { 'rrid:software': 0.49 });
  assert.equal(passesThreshold(thresholds, software, 0.49), true);
  assert.equal(passesThreshold(thresholds, software, 0.48), false);
  assert.equal(passesThreshold(thresholds, antibody, 0.99), false, 'a class without a threshold is never filled');
  // Too few fills to judge a class: no threshold.
  assert.deepEqual(chooseFillThresholds(scored.slice(0, 9), 0.7, 10), {});
  // Proposals of equal probability are kept or dropped together.
  const tied = Array.from({ length: 10 }, (_, i) => ({ proposal: software, probability: 0.8, right: i < 6 }));
  assert.deepEqual(chooseFillThresholds([...tied, { proposal: software, probability: 0.9, right: true }], 0.7, 5), {});
});

test('property: a fill writes only identifiers a paper of the base wrote, or the row already carried', () => {
  const names = ['HEK293T', 'HEK-293T cells', 'Fiji', 'anti-GFP', 'Lipofectamine 2000', 'U2OS'];
  const types: ResourceType[] = ['Experimental model: Cell line', 'Software/code', 'Antibody', 'Chemical, peptide, or recombinant protein'];
  const vendors = ['', 'Abcam', 'ATCC', 'Thermo Fisher'];
  const identifiers = [
    '',
    'RRID:CVCL_0063',
    'Cat# CRL-3216',
    'RRID:SCR_002285',
    'Cat# ab290; RRID:AB_303395',
    'Cat# 11668019',
    'RRID:AB_627695',
  ];
  let filledCells = 0;
  const anyRow = fc
    .record({
      type: fc.constantFrom(...types),
      name: fc.constantFrom(...names),
      vendor: fc.constantFrom(...vendors),
      identifier: fc.constantFrom(...identifiers),
    })
    .map((r) => row(r.type, r.name, r.vendor, r.identifier));
  fc.assert(
    fc.property(
      fc.array(fc.array(anyRow, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
      fc.array(anyRow, { maxLength: 6 }),
      (papers, table) => {
        const kb = new RridKnowledgeBase();
        papers.forEach((rows, i) => kb.addPaper(`10.1101/x${i}`, rows));
        calibrate(kb);
        const written = new Set(
          papers
            .flat()
            .flatMap((r) => parseIdentifierText(r.IDENTIFIER).flatMap((p) => (p.kind === 'rrid' || p.kind === 'catalog' ? [p.value] : []))),
        );
        const proposals = fillProposals(kb, table);
        const everyClass = Object.fromEntries(proposals.map((p) => [fillClass(p), 0]));
        const { rows: filled, fills } = applyFills(table, proposals, trainFillModel([]), everyClass);
        filledCells += fills.filter((f) => f.filled).length;
        filled.forEach((r, i) => {
          const own = new Set(parseIdentifierText(table[i].IDENTIFIER, { source: table[i].SOURCE }).map((p) => p.value));
          for (const p of parseIdentifierText(r.IDENTIFIER, { source: r.SOURCE }))
            if (p.kind === 'rrid' || p.kind === 'catalog')
              assert.ok(own.has(p.value) || written.has(p.value), `${p.value} in row ${i} was written by no paper`);
        });
        for (const p of proposals) assert.ok(p.evidence.length > 0 && p.evidence.every((doi) => kb.hasPaper(doi)));
      },
    ),
    { numRuns: 60, seed: 30 },
  );
  assert.ok(filledCells > 0, 'the property wrote some fills');
});

test("a catalog number's evidence is the papers that wrote it, not every paper of its resource's RRID", () => {
  const kb = new RridKnowledgeBase();
  kb.addPaper('10.1101/a', [row('Experimental model: Cell line', 'Vero E6', 'ATCC', 'Cat# CRL-1586; RRID:CVCL_0574')]);
  kb.addPaper('10.1101/b', [row('Experimental model: Cell line', 'Vero E6', 'ATCC', 'RRID:CVCL_0574')]);
  calibrate(kb);
  const proposals = fillProposals(kb, [row('Experimental model: Cell line', 'Vero E6 cells', '', '')]);
  assert.deepEqual(proposals.find((p) => p.kind === 'rrid')!.evidence, ['10.1101/a', '10.1101/b']);
  assert.deepEqual(proposals.find((p) => p.kind === 'catalog')!.evidence, ['10.1101/a']);
});

test("fill proposals: only identifiers papers wrote with the row's name, from papers other than the row's own", () => {
  const kb = new RridKnowledgeBase();
  // Three papers write HEK293T with its RRID and ATCC number; one writes "HEK293" with HEK293T's RRID and no number;
  // two write HEK293 with its own.
  for (let i = 0; i < 3; i++)
    kb.addPaper(`10.1101/t${i}`, [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063')]);
  kb.addPaper('10.1101/m0', [row('Experimental model: Cell line', 'HEK293', '', 'RRID:CVCL_0063')]);
  for (let i = 0; i < 2; i++)
    kb.addPaper(`10.1101/h${i}`, [row('Experimental model: Cell line', 'HEK293', 'ATCC', 'Cat# CRL-1573; RRID:CVCL_0045')]);
  calibrate(kb);
  const rows = [row('Experimental model: Cell line', 'HEK293 cells', '', '')];
  const proposals = fillProposals(kb, rows, [0.9], 2);
  const catalogs = proposals.filter((p) => p.kind === 'catalog').map((p) => [p.value, p.agreeing, p.total, p.evidence]);
  // HEK293T's number is not HEK293's, although one paper wrote "HEK293" with HEK293T's RRID.
  assert.deepEqual(catalogs, [['CRL-1573', 2, 2, ['10.1101/h0', '10.1101/h1']]]);
  const hek293t = proposals.find((p) => p.kind === 'rrid' && p.value === 'CVCL_0063');
  assert.deepEqual(hek293t?.evidence, ['10.1101/m0'], 'the evidence of an RRID is the papers that wrote it with the name');
  // The row's own paper is no evidence for its row.
  const withoutOwn = fillProposals(kb, rows, [0.9], 2, '10.1101/h0');
  assert.deepEqual(
    withoutOwn.filter((p) => p.kind === 'catalog').map((p) => [p.value, p.agreeing, p.total, p.evidence]),
    [['CRL-1573', 1, 1, ['10.1101/h1']]],
  );
  assert.ok(withoutOwn.every((p) => !p.evidence.includes('10.1101/h0')));
  const alone = new RridKnowledgeBase();
  alone.addPaper('10.1101/h0', [row('Experimental model: Cell line', 'HEK293', 'ATCC', 'Cat# CRL-1573; RRID:CVCL_0045')]);
  assert.deepEqual(fillProposals(alone, rows, [0.9], 2, '10.1101/h0'), [], 'a paper alone proposes nothing for its own rows');
});

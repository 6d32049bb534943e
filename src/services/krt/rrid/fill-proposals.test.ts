// What the base proposes for a text-built table's empty identifier cells: identifiers other papers wrote for the same
// resource, with those papers as evidence; the fill model writes only proposals from its threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeRow, type KrtRow, type ResourceType } from '../extract/krt-row.ts';
import { calibrate, consensusPairsOf, type LopoQuery } from './calibration.ts';
import { consensusBins, distinctiveName } from './consensus.ts';
import { applyFills, fillProbability, trainFillModel, writeFills } from './fill-model.ts';
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
  const { rows: filled, fills } = applyFills(rows, proposals, model, 0.5);
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

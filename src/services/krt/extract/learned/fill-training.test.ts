// The fill model's labels and the candidates a text-built row lists (fill-training.ts, rrid/fill-model.ts), and the
// shipped fill model: it goes with the shipped extractor and was fitted on tuning papers only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { makeRow, type KrtRow, type ResourceType } from '../krt-row.ts';
import { calibrate } from '../../rrid/calibration.ts';
import { RridKnowledgeBase } from '../../rrid/knowledge-base.ts';
import {
  CANDIDATE_FLOOR,
  calibratedFillProbability,
  fillProbability,
  fitCalibratedFillModel,
  identifierCandidates,
  type CalibratedFillModel,
} from '../../rrid/fill-model.ts';
import { fillProposals } from '../../rrid/fill-proposals.ts';
import { candidateLabel, candidateLabels, identifierComparisonKey, identifierKeys } from './fill-training.ts';
import { FILL_FILE, MODEL_FILE, shippedExtractor, shippedFillModel } from './shipped.ts';
import type { FillModelFile } from '../../rrid/fill-model.ts';

const row = (type: ResourceType, name: string, source: string, identifier: string): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, SOURCE: source, IDENTIFIER: identifier });

test('identifiers compared without label, case and separators; a row’s keys by kind', () => {
  assert.equal(identifierComparisonKey('RRID: AB_2127260'), identifierComparisonKey('ab2127260'));
  assert.notEqual(identifierComparisonKey('CVCL_0063'), identifierComparisonKey('CVCL_0036'));
  const authors = row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063');
  assert.deepEqual([...identifierKeys(authors, 'rrid')], ['CVCL0063']);
  assert.deepEqual([...identifierKeys(authors, 'catalog')], ['CRL3216']);
});

test('candidate labels: only where the authors’ row gives an identifier of the kind; right when it is that one', () => {
  const authors = row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0063');
  assert.equal(candidateLabel({ kind: 'rrid', value: 'CVCL_0063' }, authors), true);
  assert.equal(candidateLabel({ kind: 'rrid', value: 'CVCL_0045' }, authors), false);
  assert.equal(candidateLabel({ kind: 'catalog', value: 'CRL-3216' }, authors), null, 'the authors give no catalog number: unknown');
  assert.equal(candidateLabel({ kind: 'rrid', value: 'CVCL_0063' }, undefined), null, 'a row the authors do not list: unknown');
  const url = row('Software/code', 'Fiji', '', 'https://fiji.sc');
  assert.equal(candidateLabel({ kind: 'rrid', value: 'SCR_002285' }, url), null, 'a tool cited by its web site says nothing');
  // Matched one-to-one by name against the authors' rows.
  const predicted = [row('Experimental model: Cell line', 'HEK293T cells', '', ''), row('Software/code', 'MATLAB', '', '')];
  const gold = [authors, row('Antibody', 'anti-GFP', 'Abcam', 'Cat# ab290')];
  const proposals = [
    { row: 0, kind: 'rrid' as const, value: 'CVCL_0063' },
    { row: 0, kind: 'rrid' as const, value: 'CVCL_0045' },
    { row: 1, kind: 'rrid' as const, value: 'SCR_001622' },
  ].map((p) => ({ ...p, vendor: '', by: 'name' as const, rank: 0, agreeing: 1, total: 1, evidence: ['x'], features: [] }));
  assert.deepEqual(candidateLabels(predicted, gold, proposals), [true, false, null]);
});

function base(): RridKnowledgeBase {
  const kb = new RridKnowledgeBase();
  for (let i = 0; i < 4; i++)
    kb.addPaper(`10.1101/p${i}`, [
      row('Experimental model: Cell line', 'HEK-293T cells', 'ATCC', 'Cat# CRL-3216; RRID:CVCL_0063'),
      row('Software/code', 'Fiji', '', 'RRID:SCR_002285'),
    ]);
  kb.addPaper('10.1101/q0', [row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0045')]);
  calibrate(kb);
  return kb;
}

/** A model fitted to call the first proposal of each kind right and the second wrong (three folds of examples). */
function shareModel(kb: RridKnowledgeBase, rows: KrtRow[]): CalibratedFillModel {
  const proposals = fillProposals(kb, rows, undefined, 2);
  const fold = () => Array.from({ length: 10 }, () => proposals.map((p) => ({ features: p.features, label: p.rank === 0 }))).flat();
  return fitCalibratedFillModel([fold(), fold(), fold()]);
}

/** Every proposal at the same probability. */
const flat = (probability: number): CalibratedFillModel => ({
  logistic: { format: 'krt-logistic', version: 1, bias: 0, weights: {} },
  calibration: [{ from: 0, to: 1, right: 0, total: 0, probability }],
});

test('identifier candidates: per row, the kinds it lacks, most probable first, as papers wrote them, with those papers', () => {
  const kb = base();
  const rows = [
    row('Experimental model: Cell line', 'HEK293T', '', ''),
    row('Software/code', 'FIJI', '', ''),
    row('Experimental model: Cell line', 'HEK293T', 'ATCC', 'RRID:CVCL_0063'),
    row('Software/code', 'a tool nobody wrote', '', ''),
  ];
  // Every proposal at 1/2: the order is the proposals' (RRIDs first, most mentions first).
  const candidates = identifierCandidates(kb, flat(0.5), rows);
  const hek = candidates[0];
  assert.deepEqual(
    hek.filter((c) => c.kind === 'rrid').map((c) => c.identifier),
    ['RRID:CVCL_0063', 'RRID:CVCL_0045'],
    'the RRID most papers wrote first, then the other (two per kind at most)',
  );
  const first = hek.find((c) => c.identifier === 'RRID:CVCL_0063')!;
  assert.deepEqual(first.papers, ['10.1101/p0', '10.1101/p1', '10.1101/p2', '10.1101/p3']);
  assert.equal(first.paper_count, 4);
  assert.deepEqual([first.agreeing, first.total], [4, 5]);
  assert.deepEqual(
    candidates[1].map((c) => [c.kind, c.identifier]),
    [['rrid', 'RRID:SCR_002285']],
  );
  assert.deepEqual(
    candidates[2].map((c) => c.kind),
    ['catalog'],
    'a row that carries its RRID gets no RRID candidate, only the catalog number it lacks',
  );
  assert.deepEqual(candidates[3], [], 'nothing written for it, nothing listed');
  // A fitted model: most probable first, none below the floor (here the second RRID of the cell line).
  const fitted = identifierCandidates(kb, shareModel(kb, rows), rows);
  for (const list of fitted) {
    for (let i = 1; i < list.length; i++) assert.ok(list[i - 1].probability >= list[i].probability, 'most probable first');
    for (const c of list) assert.ok(c.probability >= CANDIDATE_FLOOR && c.probability <= 1);
  }
  assert.ok(!fitted[0].some((c) => c.identifier === 'RRID:CVCL_0045'));
  // A model that gives every proposal less than the floor lists nothing.
  assert.ok(identifierCandidates(kb, flat(CANDIDATE_FLOOR / 2), rows).every((list) => list.length === 0));
});

test('the calibrated fill model: the logistic output mapped to the share right out of fold, monotone', () => {
  const right = { features: ['good'], label: true };
  const wrong = { features: ['bad'], label: false };
  // "good" is right 9 times in 10, "bad" 1 in 10, in every fold.
  const fold = () => [...Array(9).fill(right), { ...wrong, features: ['good'] }, ...Array(9).fill(wrong), { ...right, features: ['bad'] }];
  const model = fitCalibratedFillModel([fold(), fold(), fold(), fold()]);
  const good = calibratedFillProbability(model, ['good']);
  const bad = calibratedFillProbability(model, ['bad']);
  // Laplace-smoothed steps of 40 examples each: (36 + 1) / (40 + 2) and (4 + 1) / (40 + 2).
  assert.ok(Math.abs(good - 37 / 42) < 1e-3 && Math.abs(bad - 5 / 42) < 1e-3, `${good} ${bad}`);
  assert.ok(fillProbability(model.logistic, ['good']) > fillProbability(model.logistic, ['bad']));
});

test('the shipped fill model goes with the shipped extractor and was fitted on the tuning papers only', () => {
  const file = JSON.parse(readFileSync(FILL_FILE, 'utf8')) as FillModelFile;
  assert.equal(file.format, 'krt-fill-model');
  const extractor = shippedExtractor();
  assert.ok(extractor, 'the learned extractor ships');
  assert.equal(file.trainedOn.extractor, extractor.model.model);
  assert.equal(
    file.trainedOn.extractorSha256,
    createHash('sha256').update(readFileSync(MODEL_FILE)).digest('hex'),
    'the extractor model was rebuilt after the fill model: run build-model.ts (it rebuilds both)',
  );
  assert.match(file.trainedOn.heldOut, /held out/);
  assert.ok(file.trainedOn.fitted > 0 && file.trainedOn.right > 0 && file.trainedOn.right < file.trainedOn.fitted);
  assert.ok(file.calibration.length > 0, 'calibrated');
  for (let i = 1; i < file.calibration.length; i++) assert.ok(file.calibration[i].probability >= file.calibration[i - 1].probability);
  assert.deepEqual(shippedFillModel(), file, 'served as built');
});

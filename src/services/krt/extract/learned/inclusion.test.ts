// The row-inclusion model: labels from the benchmark's matching, a fit on fixture papers that learns which rows
// authors list, monotone in its strongest feature, and a served table that never loses a row.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { makeRow, type KrtRow, type ResourceType } from '../krt-row.ts';
import {
  fitInclusion,
  includeRows,
  inclusionLabels,
  inclusionProbabilities,
  INCLUSION_TARGET_PRECISION,
  INCLUSION_THRESHOLDS,
  servedRows,
  type InclusionModelFile,
  type InclusionPaper,
  type InclusionRow,
} from './inclusion.ts';
import { INCLUSION_FILE, MODEL_FILE, shippedExtractor, shippedInclusion } from './shipped.ts';

const row = (type: ResourceType, name: string, identifier = ''): KrtRow =>
  makeRow({ 'RESOURCE TYPE': type, 'RESOURCE NAME': name, IDENTIFIER: identifier });

test('labels: a row is in the table when the one-to-one matching pairs it with an author row', () => {
  const gold = [row('Antibody', 'Rabbit anti-GFP', 'Cat# ab290'), row('Software/code', 'GraphPad Prism')];
  const predicted = [
    row('Antibody', 'GFP', 'Cat# ab290'),
    row('Software/code', 'Prism'),
    row('Software/code', 'Prism 9'),
    row('Other', 'PBS'),
  ];
  assert.deepEqual(inclusionLabels(predicted, gold), [true, true, false, false]);
});

// Fixture papers: antibodies with a catalog number are in the authors' tables (but one), chemicals named alone
// never, software half the time.
function fixturePapers(n: number): (InclusionPaper & { gold: number })[] {
  const papers: (InclusionPaper & { gold: number })[] = [];
  for (let p = 0; p < n; p++) {
    const rows: InclusionRow[] = [];
    const labels: boolean[] = [];
    for (let i = 0; i < 6; i++) {
      rows.push({
        row: row('Antibody', `anti-X${p}-${i}`, `Cat# ab${p}${i}`),
        features: ['id', 'id:catalog', 't:Antibody'],
        confidence: 0.7,
      });
      labels.push(i !== 0);
      rows.push({ row: row('Chemical, peptide, or recombinant protein', `drug ${p}-${i}`), features: ['t:Chemical'], confidence: 0.4 });
      labels.push(false);
      rows.push({ row: row('Software/code', `tool ${p}-${i}`), features: ['t:Software'], confidence: 0.5 });
      labels.push(i % 2 === 0);
    }
    papers.push({ doi: `10.1/p${p}`, rows, labels, gold: labels.filter(Boolean).length });
  }
  return papers;
}

test('fit: rows of the kinds authors list score higher; the threshold is one of the grid; deterministic', () => {
  const papers = fixturePapers(24);
  const model = fitInclusion(papers, 4, 15);
  assert.ok(INCLUSION_THRESHOLDS.includes(model.threshold));
  assert.deepEqual(fitInclusion(papers, 4, 15), model, 'the same papers give the same model');
  const [antibody, chemical, software] = inclusionProbabilities(model.logistic, papers[0].rows.slice(0, 3));
  assert.ok(antibody > software && software > chemical, `${antibody} > ${software} > ${chemical}`);
  // The chemicals stay below the threshold: the served rows reach the target precision (the fixtures' base rate is 0.44).
  const probabilities = inclusionProbabilities(model.logistic, papers[1].rows);
  const served = servedRows(probabilities, model.threshold);
  assert.ok(papers[1].rows.every((r, i) => !served[i] || r.row['RESOURCE TYPE'] !== 'Chemical, peptide, or recombinant protein'));
  const right = papers[1].labels.filter((label, i) => label && served[i]).length;
  assert.ok(right / served.filter(Boolean).length >= INCLUSION_TARGET_PRECISION);
});

test('monotone: adding its strongest positive feature to a row never lowers its probability', () => {
  const model = fitInclusion(fixturePapers(24), 4, 15);
  const strongest = Object.entries(model.logistic.weights)
    .filter(([, w]) => w > 0)
    .sort((a, b) => b[1] - a[1])[0][0];
  assert.ok(strongest.startsWith('x:') || strongest.startsWith('conf:') || strongest.startsWith('t:'));
  const base: InclusionRow = { row: row('Other', 'thing'), features: [], confidence: 0.5 };
  const feature = strongest.replace(/^x:/, '');
  const withIt: InclusionRow = { ...base, features: [feature] };
  if (strongest.startsWith('x:')) {
    const [without, withFeature] = [inclusionProbabilities(model.logistic, [base])[0], inclusionProbabilities(model.logistic, [withIt])[0]];
    assert.ok(withFeature > without);
  }
  // Higher extractor confidence, all else equal, never lowers the probability by more than the noise of a fit.
  const low = inclusionProbabilities(model.logistic, [{ ...withIt, confidence: 0.4 }])[0];
  const high = inclusionProbabilities(model.logistic, [{ ...withIt, confidence: 0.7 }])[0];
  assert.ok(high >= low, `${high} >= ${low}`);
});

test('served rows: no row is lost, the best row is always served', () => {
  assert.deepEqual(servedRows([0.1, 0.3, 0.2], 0.5), [false, true, false]);
  assert.deepEqual(servedRows([0.6, 0.3, 0.7], 0.5), [true, false, true]);
  assert.deepEqual(servedRows([], 0.5), []);
  const probabilities = [0.9, 0.05, 0.5, 0.49];
  const served = servedRows(probabilities, 0.5);
  assert.equal(served.length, probabilities.length, 'every row is either served or a further mention');
});

test('the shipped inclusion model goes with the shipped extractor (rebuild both with build-model.ts)', () => {
  const file = JSON.parse(readFileSync(INCLUSION_FILE, 'utf8')) as InclusionModelFile;
  const extractor = shippedExtractor();
  assert.ok(extractor, 'the learned extractor ships');
  assert.equal(file.trainedOn.extractor, extractor.model.model, 'fitted on the rows of the extractor that is shipped');
  assert.equal(
    file.trainedOn.extractorSha256,
    createHash('sha256').update(readFileSync(MODEL_FILE)).digest('hex'),
    'the extractor model was rebuilt after the inclusion model: run build-model.ts (it rebuilds both)',
  );
  assert.ok(INCLUSION_THRESHOLDS.includes(file.threshold));
  assert.deepEqual(shippedInclusion(), file, 'served as built');
  // Served rows: each row's probability, the threshold's rows in the table, and the best row whatever its probability.
  const rows = [0.9, 0.1, 0.2].map((confidence, i) => ({
    row: row('Other', `thing ${i}`),
    features: [],
    confidence,
  }));
  const decided = includeRows({ logistic: file.logistic, threshold: 1 }, rows);
  assert.equal(decided.filter((d) => d.inTable).length, 1, 'a threshold no row reaches still serves the best row');
  assert.ok(decided.every((d) => d.probability >= 0 && d.probability <= 1));
});

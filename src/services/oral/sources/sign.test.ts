import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { countryAndRegion, parseSign, populationFromTitle, readSign } from './sign.ts';
import { oralDataDir, skipWithoutData } from '../../../../test/support/oral/data.ts';

const dir = oralDataDir();
const skip = skipWithoutData(dir);

function tally(values: (string | null)[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const v of values) counts[String(v)] = (counts[String(v)] ?? 0) + 1;
  return counts;
}

test('SIGN 138: 15 recommendations for Scotland with grade, strength, quality and number', { skip }, async () => {
  const { guideline, rowsRead, issues } = await readSign(join(dir!, 'sign138_recommendations.json'));
  assert.equal(rowsRead, 15);
  assert.deepEqual(issues, []);
  assert.equal(guideline.source_key, 'sign-138');
  assert.equal(guideline.country, 'UK');
  assert.equal(guideline.region, 'Scotland');
  assert.equal(guideline.publication_year, 2014);
  assert.match(guideline.description, /SIGN 138/);
  const recs = guideline.recommendations;
  assert.equal(recs.length, 15);
  assert.deepEqual(tally(recs.map((r) => r.grade)), { A: 5, B: 5, C: 5 });
  assert.deepEqual(tally(recs.map((r) => r.strength)), { strong: 7, moderate: 8 });
  assert.deepEqual(tally(recs.map((r) => r.evidence_quality)), { high: 5, moderate: 5, low: 5 });
  assert.deepEqual(tally(recs.flatMap((r) => r.topics)), {
    fluoride: 6,
    'fissure-sealants': 3,
    'diet-and-nutrition': 2,
    'patient-education': 2,
    prevention: 2,
  });
  assert.deepEqual(
    recs.map((r) => r.recommendation_number),
    Array.from({ length: 15 }, (_, i) => String(i + 1)),
  );
  assert.deepEqual(
    recs.map((r) => r.source_key),
    Array.from({ length: 15 }, (_, i) => `rec-${i + 1}`),
  );
  for (const r of recs) {
    assert.equal(r.target_population, 'Children');
    assert.equal(r.references.length, 1);
    assert.equal(r.references[0].url, guideline.url, 'the reference names SIGN 138 itself');
    assert.match(r.references[0].text, new RegExp(`^SIGN 138 - Grade ${r.grade} `));
  }
});

test('SIGN: country and region from a UK nation; unknown values reported, not guessed', () => {
  assert.deepEqual(countryAndRegion('Scotland'), { country: 'UK', region: 'Scotland' });
  assert.deepEqual(countryAndRegion('United Kingdom'), { country: 'UK', region: null });
  assert.deepEqual(countryAndRegion('nz'), { country: 'NZ', region: null });
  assert.throws(() => countryAndRegion('France'), /unknown country/);
  assert.equal(populationFromTitle('Dental interventions to prevent caries in children'), 'Children');
  assert.equal(populationFromTitle('Oral health toolkit'), null);
  const parsed = parseSign({
    country: 'Scotland',
    guideline_title: 'T',
    organization: 'O',
    guideline_number: 'SIGN 1',
    year: 2020,
    recommendations: [
      { text: 'Use fluoride.', strength: 'Mighty', evidence_quality: 'High', topic: 'Fluoride', recommendation_number: '1', grade: 'A' },
      { text: '', recommendation_number: '2' },
      { text: 'Again.', recommendation_number: '1' },
    ],
  });
  assert.equal(parsed.guideline.recommendations.length, 1);
  assert.equal(parsed.guideline.recommendations[0].strength, null);
  assert.deepEqual(
    parsed.issues.map((i) => i.kind),
    ['unreadable', 'excluded'],
  );
  assert.match(parsed.guideline.recommendations[0].unreadable?.[0].reason ?? '', /unknown strength "Mighty"/);
});

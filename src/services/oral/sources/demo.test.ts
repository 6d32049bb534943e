import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEMO_DEFAULTS, generateDemo } from './demo.ts';
import { COUNTRY_CODES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS, UK_NATIONS } from './vocabulary.ts';

test('demo: the same seed gives the same data, another seed other data', () => {
  assert.deepEqual(generateDemo({ seed: 7 }), generateDemo({ seed: 7 }));
  assert.deepEqual(generateDemo(), generateDemo({ seed: DEMO_DEFAULTS.seed }));
  assert.notDeepEqual(generateDemo({ seed: 7 }), generateDemo({ seed: 8 }));
});

test('demo: default sizes, all five countries, UK guidelines with a nation as region', () => {
  const { guidelines, reviews } = generateDemo();
  assert.equal(guidelines.length, 12);
  assert.equal(
    guidelines.reduce((n, g) => n + g.recommendations.length, 0),
    150,
  );
  assert.equal(reviews.length, 20);
  assert.deepEqual([...new Set(guidelines.map((g) => g.country))].sort(), [...COUNTRY_CODES].sort());
  for (const g of guidelines) {
    assert.ok(g.recommendations.length >= 1);
    if (g.country === 'UK') assert.ok((UK_NATIONS as readonly string[]).includes(g.region!));
    else assert.equal(g.region, null);
  }
  assert.equal(new Set(guidelines.map((g) => g.source_key)).size, 12);
  assert.equal(new Set(reviews.map((r) => r.review_id)).size, 20);
});

test('demo: every record is marked as demo and carries no real-looking identifier', () => {
  const { guidelines, reviews } = generateDemo({ seed: 'marking' });
  for (const g of guidelines) {
    assert.equal(g.is_demo, true);
    assert.match(g.title, /^Demo /);
    assert.match(g.organization.name, /^Demo /);
    assert.match(g.source_key, /^demo:/);
    assert.match(g.description, /demo/i);
    assert.deepEqual([g.url, g.organization.website], [null, null]);
    for (const r of g.recommendations) {
      assert.match(r.title, /^Demo: /);
      assert.match(r.source_key, /^demo:/);
      assert.equal(r.source_url, null);
      for (const ref of r.references) {
        assert.deepEqual([ref.url, ref.doi, ref.pmid], [null, null, null]);
        assert.match(ref.text, /^Demo reference/);
      }
    }
  }
  for (const r of reviews) {
    assert.equal(r.is_demo, true);
    assert.match(r.review_id, /^DEMO-\d{3}$/);
    assert.match(r.title ?? '', /^Demo review: /);
    assert.match(r.abstract!, /demo/i);
    assert.deepEqual([r.url, r.doi], [null, null]);
  }
});

test('demo: vocabulary values resolve and vary; common search words occur', () => {
  const recs = generateDemo().guidelines.flatMap((g) => g.recommendations);
  const strengths = new Set(recs.map((r) => r.strength));
  const qualities = new Set(recs.map((r) => r.evidence_quality));
  const topics = new Set(recs.flatMap((r) => r.topics));
  for (const s of strengths) assert.ok(STRENGTHS.bySlug(s!), String(s));
  for (const q of qualities) assert.ok(EVIDENCE_QUALITIES.bySlug(q!), String(q));
  for (const t of topics) assert.ok(TOPICS.bySlug(t), t);
  assert.equal(strengths.size, STRENGTHS.entries.length);
  assert.equal(qualities.size, EVIDENCE_QUALITIES.entries.length);
  assert.ok(topics.size >= 12, `${topics.size} topics`);
  for (const word of ['fluoride', 'sealant', 'caries', 'toothbrush', 'sugar']) {
    const hits = recs.filter((r) => `${r.title} ${r.text} ${r.keywords.join(' ')}`.toLowerCase().includes(word)).length;
    assert.ok(hits >= 5, `${word}: ${hits} recommendations`);
  }
  for (const r of recs) if (r.strength === 'good-practice-point') assert.equal(r.evidence_quality, 'expert-opinion');
});

test('demo: outcomes are internally consistent', () => {
  const outcomes = generateDemo({ reviews: 40 }).reviews.flatMap((r) => r.outcomes);
  assert.ok(outcomes.length >= 80);
  const certainties = new Set(outcomes.map((o) => o.certainty));
  assert.deepEqual([...certainties].sort(), ['high', 'low', 'moderate', 'very_low']);
  for (const o of outcomes) {
    assert.ok(o.ci_lower! <= o.effect! && o.effect! <= o.ci_upper!, JSON.stringify(o));
    const noEffect = o.measure === 'RR' || o.measure === 'OR' ? 1 : 0;
    assert.equal(o.significant, o.ci_upper! < noEffect || o.ci_lower! > noEffect);
    const downgraded = [
      o.downgrades.risk_of_bias,
      o.downgrades.imprecision,
      o.downgrades.inconsistency,
      o.downgrades.indirectness,
      o.downgrades.publication_bias,
    ].filter(Boolean).length;
    assert.equal(downgraded, { high: 0, moderate: 1, low: 2, very_low: 3 }[o.certainty!]);
    assert.equal(o.reasons === null, o.certainty === 'high');
    assert.ok(Number.isInteger(o.participants) && o.participants! >= o.studies!);
  }
});

test('demo: sizes are configurable and the streams independent', () => {
  const small = generateDemo({ guidelines: 3, recommendations: 7, reviews: 0 });
  assert.equal(small.guidelines.length, 3);
  assert.deepEqual(
    small.guidelines.map((g) => g.country),
    ['UK', 'US', 'CA'],
  );
  assert.equal(
    small.guidelines.reduce((n, g) => n + g.recommendations.length, 0),
    7,
  );
  assert.deepEqual(small.reviews, []);
  // More reviews do not change the guidelines.
  assert.deepEqual(generateDemo({ reviews: 5 }).guidelines, generateDemo({ reviews: 50 }).guidelines);
  assert.throws(() => generateDemo({ guidelines: -1 }), /non-negative integer/);
  assert.throws(() => generateDemo({ guidelines: 0, recommendations: 3 }), /at least one guideline/);
});

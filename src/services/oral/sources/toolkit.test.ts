import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { oralDataDir, skipWithoutData } from '../../../../test/support/oral/data.ts';
import { readToolkit } from './toolkit.ts';
import type { RecommendationInput } from './types.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from './vocabulary.ts';

const dir = oralDataDir();
const skip = skipWithoutData(dir);

function count(recs: RecommendationInput[], key: (r: RecommendationInput) => string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of recs) for (const k of key(r)) counts[k] = (counts[k] ?? 0) + 1;
  return counts;
}

test('toolkit: every one of the 90 rows is kept, with its strength, quality and topic', { skip }, async () => {
  const { guideline, rowsRead, issues } = await readToolkit(join(dir!, 'uk_guidelines.json'));
  assert.equal(rowsRead, 90);
  assert.deepEqual(issues, []);
  const recs = guideline.recommendations;
  assert.equal(recs.length, 90);
  assert.deepEqual(
    count(recs, (r) => [r.strength!]),
    { moderate: 41, conditional: 28, strong: 21 },
  );
  assert.deepEqual(
    count(recs, (r) => [r.evidence_quality!]),
    { moderate: 64, low: 23, high: 3 },
  );
  assert.deepEqual(
    count(recs, (r) => r.topics),
    {
      'diet-and-nutrition': 20,
      fluoride: 20,
      general: 18,
      'assessment-and-care-planning': 16,
      'interdental-cleaning': 5,
      toothbrushing: 4,
      'behaviour-change': 3,
      'oral-cancer-screening': 2,
      'fissure-sealants': 1,
      'saliva-and-dry-mouth': 1,
    },
  );
  assert.deepEqual(
    count(recs, (r) => [r.clinical_context!]),
    {
      General: 65,
      'Dental Caries': 8,
      'Periodontal Diseases': 6,
      'Oral Cancer': 6,
      'Tooth Wear': 5,
    },
  );
});

test("toolkit: each record carries its own row's values, keyed by chapter, table and row", { skip }, async () => {
  const raw = JSON.parse(readFileSync(join(dir!, 'uk_guidelines.json'), 'utf8')) as {
    recommendations: {
      text: string;
      strength: string;
      evidence_quality: string;
      topic: string;
      chapter_number: number;
      table_index: number;
      row_index: number;
    }[];
  };
  const { guideline } = await readToolkit(join(dir!, 'uk_guidelines.json'));
  const byKey = new Map(guideline.recommendations.map((r) => [r.source_key, r]));
  assert.equal(byKey.size, 90, 'source keys are unique');
  for (const row of raw.recommendations) {
    const rec = byKey.get(`ch${row.chapter_number}-t${row.table_index}-r${row.row_index}`);
    assert.ok(rec, `row ${row.table_index}/${row.row_index} kept`);
    assert.equal(rec.text, row.text.trim());
    assert.equal(STRENGTHS.bySlug(rec.strength!)?.name, row.strength);
    assert.equal(EVIDENCE_QUALITIES.bySlug(rec.evidence_quality!)?.name, row.evidence_quality);
    assert.equal(TOPICS.bySlug(rec.topics[0])?.name, row.topic);
  }
});

test('toolkit: identical texts in different tables stay separate records with their own context', { skip }, async () => {
  const { guideline } = await readToolkit(join(dir!, 'uk_guidelines.json'));
  const byText = new Map<string, RecommendationInput[]>();
  for (const r of guideline.recommendations) byText.set(r.text, [...(byText.get(r.text) ?? []), r]);
  const repeated = [...byText.values()].filter((group) => group.length > 1);
  assert.equal(repeated.length, 7);
  assert.equal(
    repeated.reduce((n, g) => n + g.length, 0),
    18,
  );
  const bedtime =
    byText.get('Avoid sugar-containing foods and drinks at bedtime when saliva flow is reduced and buffering capacity is lost.') ??
    [...byText.entries()].find(([text]) => text.startsWith('Avoid sugar-containing foods and drinks at bedtime'))![1];
  assert.equal(bedtime.length, 4);
  assert.deepEqual(bedtime.map((r) => r.source_key).sort(), ['ch2-t1-r8', 'ch2-t2-r5', 'ch2-t4-r4', 'ch2-t6-r3']);
  assert.deepEqual(bedtime.map((r) => r.clinical_context).sort(), ['Dental Caries', 'General', 'Periodontal Diseases', 'Tooth Wear']);
});

test('toolkit: references split, no identifier invented', { skip }, async () => {
  const { guideline } = await readToolkit(join(dir!, 'uk_guidelines.json'));
  const recs = guideline.recommendations;
  assert.equal(
    recs.reduce((n, r) => n + r.references.length, 0),
    112,
  );
  assert.equal(recs.filter((r) => r.references.length === 0).length, 17);
  const first = recs.find((r) => r.source_key === 'ch2-t1-r2')!;
  assert.deepEqual(
    first.references.map((r) => r.text),
    [
      'World Health Organization. Guideline: Protecting, promoting and supporting breastfeeding in facilities providing maternity and newborn services. Geneva: WHO; 2017.',
      'Public Health England. Health matters: child dental health. London: PHE; 2017.',
      'Department of Health. Breastfeeding and introducing solid foods: consumer guidance. London: DH; 2018.',
    ],
  );
  // The file has no DOIs, PMIDs or URLs in its references, so none may appear.
  for (const ref of recs.flatMap((r) => r.references)) {
    assert.deepEqual([ref.url, ref.doi, ref.pmid], [null, null, null], ref.text);
  }
});

test('toolkit: guideline fields, titles from the text, keywords found in the text', { skip }, async () => {
  const { guideline } = await readToolkit(join(dir!, 'uk_guidelines.json'));
  assert.equal(guideline.source_key, 'england-dboh-2021');
  assert.equal(guideline.country, 'UK');
  assert.equal(guideline.region, 'England');
  assert.equal(guideline.publication_year, 2021);
  assert.equal(guideline.organization.name, 'Department of Health and Social Care');
  assert.equal(guideline.is_demo, false);
  assert.match(guideline.url!, /^https:\/\/www\.gov\.uk\//);
  for (const r of guideline.recommendations) {
    assert.ok(r.title.length > 0 && r.title.length <= 121, r.title);
    const head = r.title.replace(/…$/, '').split(': ')[0].slice(0, 30).toLowerCase();
    assert.ok(r.text.toLowerCase().includes(head), `title "${r.title}" comes from the text`);
    assert.match(r.source_url!, /^https:\/\/www\.gov\.uk\/.*chapter-\d+/);
    assert.equal(r.target_population, null);
    assert.equal(r.page_number, null);
  }
  const varnish = guideline.recommendations.find((r) => r.source_key === 'ch3-t2-r7')!;
  assert.equal(varnish.title, 'Apply fluoride varnish (2.26% NaF) to teeth 2 times a year');
  assert.deepEqual(varnish.keywords, ['fluoride', 'fluoride varnish']);
});

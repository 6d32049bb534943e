import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  COUNTRIES,
  countryDisplayName,
  countryFilterLabel,
  EVIDENCE_QUALITIES,
  findCountry,
  slugify,
  STRENGTHS,
  TOPICS,
} from './vocabulary.ts';

test('ids are stable: the published id → slug mapping does not change', () => {
  const map = (v: typeof TOPICS) => Object.fromEntries(v.entries.map((e) => [e.id, e.slug]));
  assert.deepEqual(map(STRENGTHS), { 1: 'strong', 2: 'moderate', 3: 'conditional', 4: 'weak', 5: 'good-practice-point' });
  assert.deepEqual(map(EVIDENCE_QUALITIES), { 1: 'high', 2: 'moderate', 3: 'low', 4: 'very-low', 5: 'expert-opinion' });
  assert.deepEqual(map(TOPICS), {
    1: 'fluoride',
    2: 'diet-and-nutrition',
    3: 'toothbrushing',
    4: 'interdental-cleaning',
    5: 'fissure-sealants',
    6: 'assessment-and-care-planning',
    7: 'behaviour-change',
    8: 'oral-cancer-screening',
    9: 'saliva-and-dry-mouth',
    10: 'patient-education',
    11: 'prevention',
    12: 'general',
    13: 'periodontal-health',
    14: 'tobacco-and-alcohol',
    15: 'dental-trauma',
  });
});

test('every entry has a name and a description', () => {
  for (const vocabulary of [TOPICS, STRENGTHS, EVIDENCE_QUALITIES]) {
    for (const entry of vocabulary.entries) {
      assert.ok(entry.name.length > 0 && entry.description.length > 20, `${entry.slug} needs a description`);
    }
  }
});

test('lookups by id, slug and name are case-insensitive and separator-tolerant', () => {
  assert.equal(STRENGTHS.byName('CONDITIONAL')?.id, 3);
  assert.equal(STRENGTHS.byName('good practice point')?.slug, 'good-practice-point');
  assert.equal(STRENGTHS.bySlug('Good_Practice_Point')?.id, 5);
  assert.equal(EVIDENCE_QUALITIES.bySlug('very_low')?.name, 'Very low');
  assert.equal(EVIDENCE_QUALITIES.byName('Very Low')?.id, 4);
  assert.equal(EVIDENCE_QUALITIES.byId(5)?.name, 'Expert opinion');
  assert.equal(TOPICS.resolve('2')?.slug, 'diet-and-nutrition');
  assert.equal(TOPICS.resolve(7)?.name, 'Behaviour Change');
  assert.equal(TOPICS.resolve(' Diet and Nutrition ')?.id, 2);
  assert.equal(TOPICS.resolve('fissure-sealants')?.id, 5);
  assert.equal(TOPICS.resolve('no-such-topic'), undefined);
  assert.equal(TOPICS.resolve('999'), undefined);
  // "Conditional/Moderate" is two entries, not one: the toolkit grades them as different levels.
  assert.notEqual(STRENGTHS.byName('Conditional')?.id, STRENGTHS.byName('Moderate')?.id);
});

test('slugify folds case, accents, ampersands and separators', () => {
  assert.equal(slugify('Diet & Nutrition'), 'diet-and-nutrition');
  assert.equal(slugify('  Behçet  disease '), 'behcet-disease');
  assert.equal(slugify('very_low'), 'very-low');
});

test('countries: the five codes with flags and names', () => {
  assert.deepEqual(
    COUNTRIES.map((c) => `${c.code} ${c.flag_emoji} ${c.name}`),
    ['UK 🇬🇧 United Kingdom', 'US 🇺🇸 United States', 'CA 🇨🇦 Canada', 'AU 🇦🇺 Australia', 'NZ 🇳🇿 New Zealand'],
  );
  assert.equal(findCountry('uk')?.code, 'UK');
  assert.equal(findCountry('new zealand')?.code, 'NZ');
  assert.equal(findCountry('FR'), undefined);
  assert.equal(countryFilterLabel(findCountry('UK')!), '🇬🇧 UK');
  assert.equal(countryDisplayName(findCountry('CA')!), '🇨🇦 Canada');
});

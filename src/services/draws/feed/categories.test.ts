import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CANONICAL_CATEGORIES,
  CATEGORY_RULES,
  categoriseDrawName,
  categoriseRounds,
  foldDrawName,
  groupDrawNames,
  stripVersionSuffix,
} from './categories.ts';
import { parseRoundsFeed } from './rounds-feed.ts';
import { loadSnapshot } from '../../../../test/support/draws/snapshot.ts';

test('every drawName of the real snapshot maps to the expected canonical category', (t) => {
  const json = loadSnapshot(t);
  if (json === null) return;
  const { rounds } = parseRoundsFeed(json);
  assert.equal(rounds.length, 389);
  // Checked by hand against the 15 distinct raw names of the snapshot and their counts.
  const expected: Record<string, { draws: number; rawNames: Record<string, number> }> = {
    general: { draws: 178, rawNames: { General: 11, 'No Program Specified': 167 } },
    cec: { draws: 53, rawNames: { 'Canadian Experience Class': 53 } },
    pnp: { draws: 95, rawNames: { 'Provincial Nominee Program': 95 } },
    fsw: { draws: 1, rawNames: { 'Federal Skilled Worker': 1 } },
    fst: { draws: 7, rawNames: { 'Federal Skilled Trades': 7 } },
    french: { draws: 26, rawNames: { 'French language proficiency (Version 1)': 26 } },
    healthcare: {
      draws: 13,
      rawNames: { 'Healthcare and social services occupations (Version 2)': 7, 'Healthcare occupations (Version 1)': 6 },
    },
    stem: { draws: 3, rawNames: { 'STEM occupations (Version 1)': 3 } },
    trade: { draws: 5, rawNames: { 'Trade occupations (Version 1)': 4, 'Trade occupations (Version 2)': 1 } },
    transport: { draws: 3, rawNames: { 'Transport occupations (Version 1)': 3 } },
    agriculture: { draws: 3, rawNames: { 'Agriculture and agri-food occupations (Version 1)': 3 } },
    education: { draws: 2, rawNames: { 'Education occupations (Version 1)': 2 } },
  };
  const groups = groupDrawNames(rounds.map((r) => r.drawName));
  const actual = Object.fromEntries(
    groups.map((g) => [g.category.slug, { draws: g.draws, rawNames: Object.fromEntries(g.rawNames.map((n) => [n.rawName, n.draws])) }]),
  );
  assert.deepEqual(actual, expected);
  assert.equal(
    groups.reduce((s, g) => s + g.draws, 0),
    389,
    'no round is dropped',
  );
  const withRounds = categoriseRounds(rounds);
  assert.deepEqual(
    withRounds.map((g) => [g.category.slug, g.rounds.length]),
    groups.map((g) => [g.category.slug, g.draws]),
  );
  assert.equal(new Set(withRounds.flatMap((g) => g.rounds.map((r) => r.roundNumber))).size, 389, 'each round in exactly one group');
  assert.ok(
    groups.every((g) => g.category.known),
    'every name of the snapshot belongs to a known family',
  );
  // Raw names are kept: each round's own name, untouched, is among its category's raw names.
  for (const round of rounds) {
    const { category, rawName } = categoriseDrawName(round.drawName);
    assert.equal(rawName, round.drawName);
    assert.ok(expected[category.slug].rawNames[round.drawName] !== undefined, round.drawName);
  }
});

test('variants named in the contract and plausible respellings fold onto their families', () => {
  const cases: [string, string][] = [
    ['French-Language proficiency 2026-Version 2', 'french'],
    ['French language proficiency (Version 1)', 'french'],
    ['FRENCH LANGUAGE PROFICIENCY (VERSION 3)', 'french'],
    ['Healthcare occupations (Version 1)', 'healthcare'],
    ['Healthcare and social services occupations (Version 2)', 'healthcare'],
    ['Health care & social services occupations', 'healthcare'],
    ['Trades occupations', 'trade'],
    ['Trade occupations (Version 2)', 'trade'],
    ['Federal Skilled Trades', 'fst'],
    ['Federal Skilled Trades Program', 'fst'],
    ['No Program Specified', 'general'],
    ['  general ', 'general'],
    ['STEM occupations (Version 1)', 'stem'],
    ['Transport occupations (V2)', 'transport'],
    ['Agriculture and agri‑food occupations (Version 1)', 'agriculture'],
    ['Education occupations 2026', 'education'],
    ['Canadian Experience Class', 'cec'],
    ['Provincial Nominee Program', 'pnp'],
    ['Federal Skilled Worker', 'fsw'],
  ];
  for (const [raw, slug] of cases) assert.equal(categoriseDrawName(raw).category.slug, slug, raw);
  assert.equal(foldDrawName('French-Language proficiency 2026-Version 2'), 'french language proficiency');
});

test('a genuinely new name becomes its own category, never General', () => {
  const a = categoriseDrawName('Physicians with Canadian work experience (Version 1)');
  assert.equal(a.category.slug, 'physicians-with-canadian-work-experience');
  assert.equal(a.category.name, 'Physicians with Canadian work experience');
  assert.equal(a.category.known, false);
  const b = categoriseDrawName('Physicians with Canadian work experience 2026-Version 2');
  assert.equal(b.category.slug, a.category.slug, 'versions of a new name still group together');
  const groups = groupDrawNames(['General', 'Physicians with Canadian work experience (Version 1)', 'Senior managers', 'General']);
  assert.deepEqual(
    groups.map((g) => [g.category.slug, g.draws]),
    [
      ['general', 2],
      ['physicians-with-canadian-work-experience', 1],
      ['senior-managers', 1],
    ],
  );
  // Words that merely contain a known word are not captured by it.
  assert.equal(categoriseDrawName('General practitioners').category.slug, 'general-practitioners');
  assert.equal(categoriseDrawName('French teachers').category.slug, 'french-teachers');
});

test('the canonical list has unique stable slugs, names and descriptions', () => {
  const slugs = CANONICAL_CATEGORIES.map((c) => c.slug);
  assert.equal(new Set(slugs).size, slugs.length);
  assert.deepEqual(slugs, [
    'general',
    'cec',
    'pnp',
    'fsw',
    'fst',
    'french',
    'healthcare',
    'stem',
    'trade',
    'transport',
    'agriculture',
    'education',
  ]);
  for (const c of CANONICAL_CATEGORIES) {
    assert.match(c.slug, /^[a-z0-9-]+$/);
    assert.ok(c.name.length > 0 && c.description.length > 20, c.slug);
  }
  assert.equal(CATEGORY_RULES.length, CANONICAL_CATEGORIES.length);
  assert.equal(stripVersionSuffix('French-Language proficiency 2026-Version 2'), 'French-Language proficiency');
  assert.equal(stripVersionSuffix('Healthcare occupations (Version 1)'), 'Healthcare occupations');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import {
  deriveFiscalYear,
  fiscalYearFromReference,
  fiscalYearLabel,
  fiscalYearOfDate,
  parseFiscalYearLabel,
  parseIsoDate,
} from './fiscal-year.ts';
import { NAICS_SECTORS, naicsSectorOf } from './naics.ts';
import { NOTABLE_RULES, NOTABLE_RULES_VERSION, NotableMatcher, notableReasonInFrench } from './notable.ts';
import { dollarsToCents, formatCents, formatDollars, parseMoneyToCents } from './money.ts';
import { normaliseProvince } from './provinces.ts';
import { AmendmentResolver, amendmentKey, supersedes } from './amendments.ts';
import type { GrantRecord } from './record.ts';

test('fiscal year from the DDD-YYYY-YYYY-Qn reference pattern wins over the start date', () => {
  assert.equal(fiscalYearFromReference('005-2017-2018-Q3-00001'), 2017);
  assert.equal(fiscalYearFromReference('130-2024-2025-q4-12345'), 2024);
  assert.deepEqual(deriveFiscalYear('005-2017-2018-Q3-00001', '2019-06-01'), { startYear: 2017, label: '2017-18', source: 'reference' });
  // not the pattern: years not consecutive, wrong department width, free-form numbers
  assert.equal(fiscalYearFromReference('005-2017-2019-Q1-00001'), null);
  assert.equal(fiscalYearFromReference('05-2017-2018-Q1-00001'), null);
  assert.equal(fiscalYearFromReference('1378885'), null);
  assert.deepEqual(deriveFiscalYear('1378885', '2019-06-01'), { startYear: 2019, label: '2019-20', source: 'start_date' });
});

test('fiscal years start on April 1', () => {
  assert.equal(fiscalYearOfDate('2019-03-31'), 2018);
  assert.equal(fiscalYearOfDate('2019-04-01'), 2019);
  assert.equal(fiscalYearOfDate('2020-01-01'), 2019);
  assert.equal(fiscalYearOfDate('2019-12-31'), 2019);
  assert.equal(deriveFiscalYear('GC-77', '2025-03-31').label, '2024-25');
  assert.equal(deriveFiscalYear('GC-77', '2025-04-01').label, '2025-26');
  assert.equal(fiscalYearLabel(1999), '1999-00');
  assert.equal(fiscalYearLabel(2009), '2009-10');
  assert.equal(parseFiscalYearLabel('2018-19'), 2018);
  assert.equal(parseFiscalYearLabel('2018-2019'), 2018);
  assert.equal(parseFiscalYearLabel('1999-00'), 1999);
  assert.equal(parseFiscalYearLabel('2018-20'), null);
});

test('dates are validated as calendar dates', () => {
  assert.equal(parseIsoDate('2024-02-29'), '2024-02-29');
  assert.equal(parseIsoDate('2023-02-29'), null);
  assert.equal(parseIsoDate('2021-4-1'), '2021-04-01');
  assert.equal(parseIsoDate('2021-04-01 00:00:00'), '2021-04-01');
  assert.equal(parseIsoDate('2021-04-01T12:00:00Z'), '2021-04-01');
  assert.equal(parseIsoDate('01/04/2021'), null);
  assert.equal(parseIsoDate(''), null);
  // the YYYY-MM-DD fast path against the calendar: every form of ten characters with dashes in place
  const ch = fc.constantFrom('0', '1', '2', '3', '9', 'a', '/'); // (a trailing space is a separate rule: the time part)
  fc.assert(
    fc.property(
      fc.tuple(
        fc.integer({ min: 1850, max: 3050 }),
        fc.integer({ min: 0, max: 13 }),
        fc.integer({ min: 0, max: 32 }),
        ch,
        fc.integer({ min: 0, max: 9 }),
        fc.boolean(),
      ),
      ([y, m, d, junk, at, spoil]) => {
        let text = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
        if (spoil && at !== 4 && at !== 7) text = text.slice(0, at) + junk + text.slice(at + 1);
        const [ty, tm, td] = [text.slice(0, 4), text.slice(5, 7), text.slice(8, 10)].map((x) => (/^\d+$/.test(x) ? Number(x) : NaN));
        const date = new Date(Date.UTC(ty, tm - 1, td));
        const valid = ty >= 1900 && ty <= 2999 && date.getUTCFullYear() === ty && date.getUTCMonth() === tm - 1 && date.getUTCDate() === td;
        assert.equal(parseIsoDate(text), valid ? text : null, text);
        if (valid) assert.equal(fiscalYearOfDate(text), tm >= 4 ? ty : ty - 1);
      },
    ),
    { numRuns: 3000 },
  );
});

test('NAICS sectors from the two-digit prefix, including the 31-33, 44-45 and 48-49 ranges', () => {
  assert.equal(naicsSectorOf('611710')?.name, 'Educational services');
  for (const code of ['31', '321999', '332', '3391']) assert.deepEqual(naicsSectorOf(code), { code: '31-33', name: 'Manufacturing' });
  for (const code of ['44', '452']) assert.deepEqual(naicsSectorOf(code), { code: '44-45', name: 'Retail trade' });
  for (const code of ['484110', '493']) assert.deepEqual(naicsSectorOf(code), { code: '48-49', name: 'Transportation and warehousing' });
  assert.equal(naicsSectorOf('41')?.name, 'Wholesale trade');
  assert.equal(naicsSectorOf('42'), null, 'the United States wholesale code is not a NAICS Canada sector');
  assert.equal(
    naicsSectorOf('5417 - Scientific research and development services')?.name,
    'Professional, scientific and technical services',
  );
  assert.equal(naicsSectorOf(' 91 ')?.name, 'Public administration');
  assert.equal(naicsSectorOf('9'), null);
  assert.equal(naicsSectorOf(''), null);
  assert.equal(naicsSectorOf('n/a'), null);
  assert.equal(NAICS_SECTORS.length, 20);
});

test('notable keywords match whole words only, case-insensitively, and the reason names category and keyword', () => {
  const m = new NotableMatcher();
  const only = (title: string, description = '', program = '') => m.match({ title, description, program });
  assert.equal(only('Annual GALA dinner')?.reason, 'Events and hospitality: "gala" in title');
  assert.equal(only('Galaxy observation nights'), null, 'gala inside galaxy');
  assert.equal(only('Pipelined data processing'), null, 'pipeline inside pipelined');
  assert.equal(only('Coalition building among farm groups'), null, 'coal inside coalition');
  assert.equal(only('Travelling exhibits'), null, 'travel inside travelling');
  assert.equal(only('Gala2024 fundraiser'), null, 'a digit is part of the word');
  assert.equal(only('(gala)')?.keyword, 'gala');
  assert.equal(only('Study of oil\n  sands reclamation')?.keyword, 'oil sands', 'phrases match across any whitespace');
  assert.equal(only('COVID-19 relief')?.keyword, 'COVID-19', 'the longest keyword at a position wins');
  assert.equal(only('covid relief')?.keyword, 'COVID');
  const inProgram = only('A regional food hub', 'Refrigeration and shelving.', 'Regional Festival Fund');
  assert.equal(inProgram?.field, 'program');
  assert.equal(inProgram?.categoryId, 'events');
  const titleFirst = only('Mural on Main Street', 'Includes a gala.', '');
  assert.equal(titleFirst?.keyword, 'mural', 'title is checked before description');
  assert.equal(titleFirst?.reason, 'Public art: "mural" in title');
});

test('the notable matcher agrees with a plain word-by-word reading of the rules (property)', () => {
  const m = new NotableMatcher();
  // the reference: lower-case the text, cut it into runs of letters, digits and underscores, and at each word
  // take the longest keyword whose words follow; fields in the order title, description, program
  const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
  const entries = NOTABLE_RULES.categories.flatMap((c) =>
    c.keywords.map((keyword) => ({ categoryId: c.id, keyword, tokens: wordsOf(keyword) })),
  );
  const inText = (text: string) => {
    const w = wordsOf(text);
    for (let i = 0; i < w.length; i++) {
      const fits = entries.filter((e) => e.tokens.every((t, k) => w[i + k] === t)).sort((a, b) => b.tokens.length - a.tokens.length);
      if (fits.length > 0) return fits[0];
    }
    return null;
  };
  const keywordWords = [...new Set(entries.flatMap((e) => e.tokens))];
  // keyword words in any case, near-misses, words with letters beyond ASCII (Basic Multilingual Plane: the
  // matcher's word table covers it), and separators
  const word = fc.oneof(
    fc.constantFrom(...keywordWords).chain((w) => fc.constantFrom(w, w.toUpperCase(), w[0].toUpperCase() + w.slice(1))),
    fc.constantFrom(
      'galaxy',
      'oily',
      'arts',
      'trade2',
      'coalition',
      'Ärt',
      'ÉTÉ',
      'façade',
      'naïve',
      'straße',
      'İstanbul',
      '\u212Aelvin',
      'x',
    ),
  );
  const separator = fc.constantFrom(' ', '  ', '-', '.', ', ', '\n', '’', '/', '_', '');
  const text = fc.array(fc.tuple(word, separator), { maxLength: 12 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
  fc.assert(
    fc.property(text, text, text, (title, description, program) => {
      const got = m.match({ title, description, program });
      const want = inText(title) ?? inText(description) ?? inText(program);
      assert.equal(got?.keyword ?? null, want?.keyword ?? null);
      assert.equal(got?.categoryId ?? null, want?.categoryId ?? null);
    }),
    { numRuns: 3000, seed: 20261121 },
  );
});

test('the rule file is versioned and a keyword cannot sit in two categories', () => {
  const file = JSON.parse(readFileSync(new URL('./notable-keywords.json', import.meta.url), 'utf8')) as { version: string };
  assert.equal(NOTABLE_RULES_VERSION, file.version);
  for (const c of NOTABLE_RULES.categories) assert.ok(c.label_fr.length > 0 && c.label_fr !== c.label, c.id);
  assert.equal(notableReasonInFrench('Travel: "trade mission" in description'), 'Voyages : « trade mission » dans la description anglaise');
  assert.equal(notableReasonInFrench('Renamed category: "gala" in title'), null);
  assert.ok(NOTABLE_RULES_VERSION.length > 0);
  assert.throws(
    () =>
      new NotableMatcher({
        version: 't',
        categories: [
          { id: 'a', label: 'A', label_fr: 'A', keywords: ['x'] },
          { id: 'b', label: 'B', label_fr: 'B', keywords: ['X'] },
        ],
      }),
    /in both a and b/,
  );
  const custom = new NotableMatcher({
    version: 'test-1',
    categories: [{ id: 'c', label: 'Custom', label_fr: 'Sur mesure', keywords: ['foo.bar'] }],
  });
  assert.equal(custom.match({ title: 'the foo.bar case', description: '', program: '' })?.keyword, 'foo.bar');
  assert.equal(custom.match({ title: 'the fooXbar case', description: '', program: '' }), null, 'keywords are literal, not patterns');
});

test('money parses to exact integer cents', () => {
  const cents = (t: string) => {
    const r = parseMoneyToCents(t);
    return r.ok ? r.cents : r.reason;
  };
  assert.equal(cents('1,234.56'), 123_456);
  assert.equal(cents('$1234'), 123_400);
  assert.equal(cents('-1,234.56'), -123_456);
  assert.equal(cents('-$5'), -500);
  assert.equal(cents('$-5'), -500);
  assert.equal(cents('(1,000.00)'), -100_000);
  assert.equal(cents(' 25000 '), 2_500_000);
  assert.equal(cents('0.1'), 10);
  assert.equal(cents('.5'), 50);
  assert.equal(cents('1.005'), 101, 'three decimals round half up, from the digits, not from binary floating point');
  assert.equal(cents('1.004'), 100);
  assert.equal(cents('1.5E+06'), 150_000_000);
  assert.equal(cents('12,345,678.90'), 1_234_567_890);
  assert.equal(cents('9007199254740.99'), 900_719_925_474_099);
  assert.equal(cents(''), 'empty');
  assert.equal(cents('   '), 'empty');
  assert.equal(cents('abc'), 'not_a_number');
  assert.equal(cents('1,23'), 'not_a_number', 'a comma must group thousands');
  assert.equal(cents('1.2.3'), 'not_a_number');
  assert.equal(cents('--5'), 'not_a_number');
  assert.equal(cents('99999999999999999999'), 'out_of_range');
});

test('formatting is $1,234.56 with half-up rounding from the decimal digits', () => {
  assert.equal(formatDollars(0.005), '$0.01');
  assert.equal(formatDollars(1234.565), '$1,234.57');
  assert.equal(formatDollars(-1234.565), '-$1,234.57');
  assert.equal(formatDollars(0.004999), '$0.00');
  assert.equal(formatDollars(-0.004), '$0.00', 'no negative zero');
  assert.equal(formatDollars(1e-9), '$0.00');
  assert.equal(formatDollars(1_000_000), '$1,000,000.00');
  assert.equal(formatCents(-123_456), '-$1,234.56');
  assert.equal(formatCents(5), '$0.05');
  assert.equal(formatCents(123_456_789_012n), '$1,234,567,890.12');
  assert.equal(dollarsToCents(1.005), 101);
  assert.equal(dollarsToCents(2.675), 268);
});

test('provinces normalise to 2-letter codes where unambiguous', () => {
  assert.equal(normaliseProvince('ON'), 'ON');
  assert.equal(normaliseProvince('on'), 'ON');
  assert.equal(normaliseProvince('Ontario'), 'ON');
  assert.equal(normaliseProvince('Québec'), 'QC');
  assert.equal(normaliseProvince('QUEBEC'), 'QC');
  assert.equal(normaliseProvince('PQ'), 'QC');
  assert.equal(normaliseProvince('Colombie-Britannique'), 'BC');
  assert.equal(normaliseProvince('B.C.'), 'BC');
  assert.equal(normaliseProvince('Newfoundland & Labrador'), 'NL');
  assert.equal(normaliseProvince('Terre-Neuve-et-Labrador'), 'NL');
  assert.equal(normaliseProvince('Île-du-Prince-Édouard'), 'PE');
  assert.equal(normaliseProvince('P.E.I.'), 'PE');
  assert.equal(normaliseProvince('Territoires du Nord-Ouest'), 'NT');
  assert.equal(normaliseProvince('Yukon'), 'YT');
  assert.equal(normaliseProvince('Nunavut'), 'NU');
  assert.equal(normaliseProvince('N'), '', 'ambiguous');
  assert.equal(normaliseProvince('Ohio'), '');
  assert.equal(normaliseProvince(''), '');
});

function rec(fields: Partial<GrantRecord>): GrantRecord {
  return {
    owner_org: 'tc',
    reference_number: 'R-1',
    amendment_number: 0,
    amendment_date: null,
    agreement_value_cents: 0,
    ...fields,
  } as GrantRecord;
}

test('amendments: one grant per (owner_org, reference); the highest amendment number wins, compared as numbers', () => {
  const r = new AmendmentResolver();
  r.add(rec({ amendment_number: 0, agreement_value_cents: 100 }));
  r.add(rec({ amendment_number: 10, agreement_value_cents: 1000, amendment_date: '2021-01-01' }));
  r.add(rec({ amendment_number: 9, agreement_value_cents: 900, amendment_date: '2022-01-01' }));
  r.add(rec({ owner_org: 'esdc-edsc', amendment_number: 0, agreement_value_cents: 7 }));
  assert.equal(r.size, 2, 'the same reference in another department is another agreement');
  assert.equal(r.rowsAdded, 4);
  const byKey = new Map([...r.values()].map((g) => [amendmentKey(g), g]));
  assert.equal(
    byKey.get(amendmentKey({ owner_org: 'tc', reference_number: 'R-1' }))?.agreement_value_cents,
    1000,
    '10 beats 9 (not string order)',
  );
  assert.equal(byKey.get(amendmentKey({ owner_org: 'esdc-edsc', reference_number: 'R-1' }))?.agreement_value_cents, 7);
});

test('amendment ties: later amendment_date, then a dated row, then the later row in the file', () => {
  assert.equal(
    supersedes({ amendment_number: 2, amendment_date: '2021-05-01' }, { amendment_number: 2, amendment_date: '2021-06-01' }),
    false,
  );
  assert.equal(
    supersedes({ amendment_number: 2, amendment_date: '2021-07-01' }, { amendment_number: 2, amendment_date: '2021-06-01' }),
    true,
  );
  assert.equal(supersedes({ amendment_number: 2, amendment_date: null }, { amendment_number: 2, amendment_date: '2021-06-01' }), false);
  assert.equal(supersedes({ amendment_number: 2, amendment_date: '2021-06-01' }, { amendment_number: 2, amendment_date: null }), true);
  assert.equal(
    supersedes({ amendment_number: 2, amendment_date: '2021-06-01' }, { amendment_number: 2, amendment_date: '2021-06-01' }),
    true,
  );
  assert.equal(supersedes({ amendment_number: 1, amendment_date: '2030-01-01' }, { amendment_number: 2, amendment_date: null }), false);
  // re-importing: a republished identical row keeps the same state
  const r = new AmendmentResolver();
  r.add(rec({ amendment_number: 1, amendment_date: '2021-01-01', agreement_value_cents: 5 }));
  r.add(rec({ amendment_number: 1, amendment_date: '2021-01-01', agreement_value_cents: 6 }));
  assert.equal([...r.values()][0].agreement_value_cents, 6);
});

test('the fast and the general date paths agree', () => {
  for (const d of [
    '2000-02-29',
    '1900-02-29',
    '2024-02-29',
    '2023-02-29',
    '2023-04-31',
    '2023-12-31',
    '2023-13-01',
    '2023-00-10',
    '2023-01-00',
    '0000-01-01',
  ]) {
    assert.equal(parseIsoDate(d), parseIsoDate(`${d} 00:00`), d);
  }
  assert.equal(parseIsoDate('1900-02-29'), null);
  assert.equal(parseIsoDate('2000-02-29'), '2000-02-29');
  assert.equal(parseIsoDate('0000-01-01'), null, 'years outside 1900–2999 are data errors');
});

import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import Papa from 'papaparse';
import {
  cochraneDoi,
  cochraneUrl,
  type CochraneReviewRead,
  groupVersions,
  isMissing,
  mapHeader,
  normalizeCertainty,
  parseBoolean,
  parseCount,
  parseNumber,
  parseSofCsv,
  parseVersionFileName,
  readCochraneFromDataDir,
} from './cochrane.ts';
import { decodeText } from '../../../core/text-decoding.ts';
import { oralDataDir, skipWithoutData } from '../../../../test/support/oral/data.ts';
import type { Certainty } from './types.ts';

const dir = oralDataDir();
const skip = skipWithoutData(dir);

let cached: CochraneReviewRead[] | null = null;
async function allReviews(): Promise<CochraneReviewRead[]> {
  if (cached) return cached;
  const reads: CochraneReviewRead[] = [];
  for await (const read of readCochraneFromDataDir(dir!)) reads.push(read);
  return (cached = reads);
}

async function allFiles(): Promise<{ path: string; bytes: Uint8Array }[]> {
  const sof = join(dir!, 'cochrane_sof');
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (const folder of (await readdir(sof)).sort()) {
    for (const name of (await readdir(join(sof, folder))).sort()) {
      files.push({ path: `${folder}/${name}`, bytes: await readFile(join(sof, folder, name)) });
    }
  }
  return files;
}

test('GRADE labels: case, spacing, notes, ranges and symbols', () => {
  const table: [string | null, Certainty | null][] = [
    ['High', 'high'],
    ['MODERATE', 'moderate'],
    ['low', 'low'],
    ['Very Low', 'very_low'],
    [' very low', 'very_low'],
    ['very-low', 'very_low'],
    ['VERY_LOW', 'very_low'],
    ['Low (downgraded twice for imprecision)', 'low'],
    ['Moderate¹', 'moderate'],
    ['LOW a', 'low'],
    ['Low to very low', 'very_low'],
    ['Low to moderate', 'low'],
    ['Moderate–high', 'moderate'],
    ['⊕⊕⊕⊕', 'high'],
    ['⊕⊕⊕⊝', 'moderate'],
    ['⊕⊕⊝⊝', 'low'],
    ['⊕⊝⊝⊝', 'very_low'],
    ['⨁⨁◯◯ LOW', 'low'],
    ['⊕⊕⊕⊝ Moderate due to imprecision', 'moderate'],
    ['NA', null],
    ['NR', null],
    ['', null],
    ['Not measured', null],
    ['None reported', null],
    [null, null],
    ['lower than expected', null],
    ['⊕⊕', null],
  ];
  for (const [raw, expected] of table) assert.equal(normalizeCertainty(raw), expected, String(raw));
});

test('cells: missing values, numbers, counts and booleans', () => {
  for (const cell of ['NA', ' na ', '', 'NR', 'None reported', 'Not measured', 'Not reported in any studies'])
    assert.ok(isMissing(cell), cell);
  assert.equal(isMissing('0'), false);
  assert.equal(parseNumber('-0.7'), -0.7);
  assert.equal(parseNumber('1e-3'), 0.001);
  assert.equal(parseNumber('−1.2'), -1.2);
  assert.equal(parseNumber('NA'), null);
  assert.equal(parseNumber('0.5 to 1'), null);
  assert.equal(parseCount('472'), 472);
  assert.equal(parseCount('1,248'), 1248);
  assert.equal(parseCount('143 participants'), 143);
  assert.equal(parseCount('190 participants; 256 teeth; 256 cavity preparations'), 190);
  assert.equal(parseCount('52 children (52 tooth pairs)'), 52);
  assert.equal(parseCount('NR'), null);
  assert.equal(parseCount('about 100'), null);
  assert.equal(parseBoolean('TRUE'), true);
  assert.equal(parseBoolean('FALSE'), false);
  assert.equal(parseBoolean('NA'), null);
});

test('versions: the highest PUB number wins, compared as numbers; a bare file is version 1', () => {
  assert.deepEqual(parseVersionFileName('CD000978.PUB5.csv'), { reviewId: 'CD000978', version: 5 });
  assert.deepEqual(parseVersionFileName('CD012744.csv'), { reviewId: 'CD012744', version: 1 });
  assert.equal(parseVersionFileName('titles.csv'), null);
  const files = ['CD1.csv', 'CD1.PUB9.csv', 'CD1.PUB10.csv', 'CD1.PUB2.csv', 'CD2.PUB3.csv'].map((path) => ({
    ...parseVersionFileName(path)!,
    path,
  }));
  const groups = groupVersions(files);
  assert.deepEqual(
    groups.map((g) => [g.latest.path, g.older.map((o) => o.version)]),
    [
      ['CD1.PUB10.csv', [9, 2, 1]],
      ['CD2.PUB3.csv', []],
    ],
  );
  assert.equal(cochraneDoi('CD000978', 5), '10.1002/14651858.CD000978.pub5');
  assert.equal(cochraneDoi('CD012744', 1), '10.1002/14651858.CD012744');
  assert.equal(cochraneUrl('CD000978', 5), 'https://www.cochranelibrary.com/cdsr/doi/10.1002/14651858.CD000978.pub5/full');
});

test('parseSofCsv: headers matched by alias, accuracy folded into measure, blank rows skipped', () => {
  const csv =
    'population,Intervention ,COMPARATOR,Outcome,accuracy,Effect measure,Effect,CI lower,CI upper,Significant,' +
    'Participants,Studies,Quality of the evidence (GRADE),Reasons,Risk of bias,Imprecision,Inconsistency,Indirectness,Publication bias,Extra\r\n' +
    'Adults,Test A,Biopsy,Cancer,Sensitivity,Proportion,0.84,0.74,0.9,TRUE,"1,248",14,⊕⊕⊝⊝,NA,TRUE,NA,FALSE,FALSE,FALSE,x\r\n' +
    ',,,,,,,,,,,,,,,,,,,\r\n';
  const { outcomes, rowsRead, issues } = parseSofCsv(csv, 'x.csv');
  assert.equal(rowsRead, 2);
  assert.deepEqual(outcomes, [
    {
      population: 'Adults',
      intervention: 'Test A',
      comparison: 'Biopsy',
      outcome: 'Cancer',
      measure: 'Sensitivity (Proportion)',
      effect: 0.84,
      ci_lower: 0.74,
      ci_upper: 0.9,
      significant: true,
      participants: 1248,
      studies: 14,
      certainty: 'low',
      certainty_raw: '⊕⊕⊝⊝',
      reasons: null,
      downgrades: {
        risk_of_bias: true,
        imprecision: null,
        inconsistency: false,
        indirectness: false,
        publication_bias: false,
        incoherence: null,
      },
    },
  ]);
  assert.deepEqual(issues, [
    { kind: 'warning', location: 'x.csv', reason: 'column "Extra" not recognised; ignored' },
    { kind: 'excluded', location: 'x.csv row 3', reason: 'empty row' },
  ]);
});

test('Cochrane: 141 reviews, each from its latest version, 1995 outcomes', { skip }, async () => {
  const reads = await allReviews();
  assert.equal(reads.length, 141);
  assert.equal(new Set(reads.map((r) => r.review.review_id)).size, 141);
  assert.equal(
    reads.reduce((n, r) => n + r.review.outcomes.length, 0),
    1995,
  );
  assert.equal(
    reads.reduce((n, r) => n + r.olderVersions.length, 0),
    60,
    '201 files for 141 reviews',
  );
  const byId = new Map(reads.map((r) => [r.review.review_id, r]));
  // CD007859 has PUB2 to PUB5; CD008397 has a bare first version and PUB2.
  assert.equal(byId.get('CD007859')!.file, 'CD007859/CD007859.PUB5.csv');
  assert.deepEqual(byId.get('CD007859')!.olderVersions, [4, 3, 2]);
  assert.equal(byId.get('CD007859')!.review.outcomes.length, 24);
  assert.equal(byId.get('CD008397')!.review.version, 2);
  assert.deepEqual(byId.get('CD008397')!.olderVersions, [1]);
  assert.equal(byId.get('CD012744')!.review.version, 1);
  assert.equal(byId.get('CD012744')!.review.doi, '10.1002/14651858.CD012744');
  // Each review's version is the maximum over its files, counted independently of the parser.
  for (const file of await allFiles()) {
    const [, id, pub] = /^(CD\d+)\/CD\d+(?:\.PUB(\d+))?\.csv$/.exec(file.path)!;
    assert.ok(byId.get(id)!.review.version >= Number(pub ?? 1), file.path);
  }
  const first = byId.get('CD000978')!.review;
  assert.equal(first.version, 5);
  assert.equal(first.doi, '10.1002/14651858.CD000978.pub5');
  assert.equal(first.url, 'https://www.cochranelibrary.com/cdsr/doi/10.1002/14651858.CD000978.pub5/full');
  assert.equal(first.title, 'One-to-one dietary interventions undertaken in a dental setting to change dietary behaviour');
  assert.equal(byId.get('CD003067')!.review.title, "Interventions for treating oral ulceration or inflammation in Behçet's disease");
  for (const { review } of reads) {
    assert.deepEqual([review.authors, review.abstract, review.publication_date, review.is_demo], [null, null, null, false]);
  }
});

test('Cochrane: "NA" and other missing markers become null; numbers and booleans are typed', { skip }, async () => {
  const outcomes = (await allReviews()).flatMap((r) => r.review.outcomes);
  for (const o of outcomes) {
    for (const text of [o.population, o.intervention, o.comparison, o.outcome, o.measure, o.reasons]) {
      assert.ok(text === null || (!isMissing(text) && text === text.trim()), String(text));
    }
    for (const n of [o.effect, o.ci_lower, o.ci_upper, o.participants, o.studies]) assert.ok(n === null || Number.isFinite(n));
    for (const b of [o.significant, ...Object.values(o.downgrades)]) assert.ok(b === null || typeof b === 'boolean');
  }
  assert.equal(outcomes.filter((o) => o.effect === null).length, 1008);
  assert.deepEqual(
    { true: outcomes.filter((o) => o.significant === true).length, false: outcomes.filter((o) => o.significant === false).length },
    { true: 437, false: 543 },
  );
  const mucositis = (await allReviews()).find((r) => r.review.review_id === 'CD000978')!.review.outcomes[0];
  assert.deepEqual(
    [
      mucositis.measure,
      mucositis.effect,
      mucositis.ci_lower,
      mucositis.ci_upper,
      mucositis.significant,
      mucositis.participants,
      mucositis.studies,
    ],
    ['RR', 0.74, 0.57, 0.95, true, 472, 5],
  );
  const alignment = (await allReviews()).find((r) => r.review.review_id === 'CD007859')!.review.outcomes[0];
  assert.deepEqual([alignment.measure, alignment.effect, alignment.significant], [null, null, null], 'NA cells');
  const accuracy = (await allReviews()).find((r) => r.review.review_id === 'CD010276')!.review.outcomes[0];
  assert.equal(accuracy.measure, 'Sensitivity (Proportion)');
  const skipped = (await allReviews()).flatMap((r) => r.issues);
  assert.ok(
    skipped.every((i) => i.kind === 'excluded' && i.reason === 'empty row'),
    JSON.stringify(skipped.find((i) => i.reason !== 'empty row')),
  );
  assert.equal(skipped.length, 49);
});

test('Cochrane: certainty distribution of the latest versions', { skip }, async () => {
  const counts: Record<string, number> = {};
  for (const o of (await allReviews()).flatMap((r) => r.review.outcomes))
    counts[String(o.certainty)] = (counts[String(o.certainty)] ?? 0) + 1;
  assert.deepEqual(counts, { high: 27, moderate: 133, low: 383, very_low: 688, null: 764 });
});

test('Cochrane: every header of all 201 files is recognised (3 variants)', { skip }, async () => {
  const variants = new Set<string>();
  for (const file of await allFiles()) {
    const header = Papa.parse<string[]>(decodeText(file.bytes).text, { delimiter: ',', preview: 1 }).data[0];
    const { index, unknown } = mapHeader(header);
    assert.deepEqual(unknown, [], file.path);
    variants.add(Object.keys(index).sort().join(','));
  }
  assert.equal(variants.size, 3);
});

test('GRADE normalisation covers every raw label in all 201 files', { skip }, async () => {
  const expected: Record<string, Certainty | null> = {
    '': null,
    NA: null,
    NR: null,
    'None reported': null,
    'Not measured': null,
    High: 'high',
    high: 'high',
    Moderate: 'moderate',
    MODERATE: 'moderate',
    moderate: 'moderate',
    Low: 'low',
    LOW: 'low',
    low: 'low',
    'Very low': 'very_low',
    'Very Low': 'very_low',
    'very low': 'very_low',
    'VERY LOW': 'very_low',
    ' very low': 'very_low',
    'Low to very low': 'very_low',
    'Moderate to very low': 'very_low',
    'Low to moderate': 'low',
  };
  const seen = new Set<string>();
  for (const file of await allFiles()) {
    const rows = Papa.parse<string[]>(decodeText(file.bytes).text, { delimiter: ',' }).data;
    const column = mapHeader(rows[0]).index.certainty!;
    for (const row of rows.slice(1)) if (row.length > column) seen.add(row[column]);
  }
  assert.deepEqual([...seen].sort(), Object.keys(expected).sort());
  for (const [raw, certainty] of Object.entries(expected)) assert.equal(normalizeCertainty(raw), certainty, raw);
});

test('Cochrane: files that are not UTF-8 are decoded, accented and special characters intact', { skip }, async () => {
  const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
  const notUtf8: Record<string, string> = {};
  for (const file of await allFiles()) {
    let valid = true;
    try {
      strictUtf8.decode(file.bytes);
    } catch {
      valid = false;
    }
    const decoded = decodeText(file.bytes);
    assert.equal(decoded.encoding === 'utf-8', valid, file.path);
    if (!valid) notUtf8[file.path] = decoded.encoding;
    // No replacement characters, C1 controls or UTF-8-read-as-1252 mojibake anywhere.
    assert.doesNotMatch(decoded.text, /[\uFFFD\u0080-\u009F]|â€|Ã[\u0080-\u00BF]/, file.path);
  }
  assert.deepEqual(notUtf8, {
    'CD000979/CD000979.PUB3.csv': 'windows-1252',
    'CD001830/CD001830.PUB4.csv': 'windows-1252',
    'CD003809/CD003809.PUB4.csv': 'windows-1252',
    'CD003811/CD003811.PUB3.csv': 'utf-8+windows-1252',
    'CD003879/CD003879.PUB4.csv': 'utf-8+windows-1252',
    'CD005517/CD005517.PUB2.csv': 'windows-1252',
    'CD005517/CD005517.PUB3.csv': 'utf-8+windows-1252',
    'CD010887/CD010887.PUB3.csv': 'utf-8+windows-1252',
    'CD012432/CD012432.PUB3.csv': 'utf-8+windows-1252',
    'CD012981/CD012981.PUB2.csv': 'utf-8+windows-1252',
    'CD013826/CD013826.PUB2.csv': 'utf-8+windows-1252',
  });

  const reads = new Map((await allReviews()).map((r) => [r.review.review_id, r]));
  const text = (id: string) => JSON.stringify(reads.get(id)!.review.outcomes);
  assert.equal(reads.get('CD000979')!.encoding, 'windows-1252');
  assert.match(text('CD000979'), /substantial I² statistic/);
  assert.match(text('CD003809'), /Stecksén/);
  assert.equal(reads.get('CD013826')!.encoding, 'utf-8+windows-1252');
  assert.match(text('CD013826'), /aerosol\u2010generating/); // UTF-8 hyphen
  assert.match(text('CD013826'), /particles > 5 \u00B5m/); // Windows-1252 B5
  assert.match(text('CD013826'), /environment \u2013operator/); // Windows-1252 96
  assert.match(text('CD005517'), /Wälivaara/);
  assert.match(text('CD012981'), /aged 4–8 years/);
  assert.match(text('CD010887'), /high risk of bias/); // damaged no-break spaces
  assert.match(text('CD003879'), /their age\u2010matched peers/); // stray 90 of a damaged hyphen
});

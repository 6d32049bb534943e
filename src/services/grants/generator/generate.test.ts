import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { writeGrantsCsv } from './generate.ts';
import { GENERATED_MARKER_COLUMN, columnsOf } from '../source/columns.ts';
import { readGrantsCsv } from '../source/reader.ts';
import { AmendmentResolver } from '../source/amendments.ts';
import type { GrantRecord } from '../source/record.ts';
import { PROVINCE_CODES } from '../source/provinces.ts';

test('round trip: 20,000 generated rows read back with the same counts, amendment groups and schema', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-gen-'));
  try {
    const file = join(dir, 'grants.csv');
    const gen = await writeGrantsCsv(file, { rows: 20_000, seed: 'round-trip', schema: 'pre2025' });
    assert.equal(gen.rows, 20_000);
    assert.equal(gen.originalRows + gen.amendmentRows + gen.malformedRows, 20_000);
    assert.ok(gen.amendmentRows > 1_000, `amendments included (${gen.amendmentRows})`);
    assert.ok(gen.maxAmendmentNumber >= 2, 'some agreements are amended more than once');
    assert.ok(gen.malformedRows > 0, 'some rows must be skipped by the importer');

    const resolver = new AmendmentResolver();
    const perKey = new Map<string, number[]>();
    let headerColumns: string[] = [];
    let above10M = 0;
    let notable = 0;
    let fromReference = 0;
    let blankNaics = 0;
    let multiline = 0;
    let quoted = 0;
    let purposes = 0;
    const provinces = new Set<string>();
    const summary = await readGrantsCsv(
      file,
      (r: GrantRecord) => {
        resolver.add(r);
        const key = `${r.owner_org}|${r.reference_number}`;
        const list = perKey.get(key) ?? [];
        list.push(r.amendment_number);
        perKey.set(key, list);
        if (r.agreement_value_cents > 1_000_000_000) above10M++;
        if (r.is_notable) notable++;
        if (r.fiscal_year_source === 'reference') fromReference++;
        if (r.naics_identifier === '') blankNaics++;
        if (r.description_en.includes('\n')) multiline++;
        if (r.description_en.includes('"')) quoted++;
        if (r.recipient_province) provinces.add(r.recipient_province);
        // a program's purpose in both languages or in neither, each in its own column, as the source gives them
        assert.equal(r.program_purpose_fr === '', r.program_purpose_en === '', r.program_name_en);
        if (r.program_purpose_en !== '') {
          purposes++;
          assert.notEqual(r.program_purpose_fr, r.program_purpose_en);
        }
      },
      { onHeader: (m) => (headerColumns = [...m.ignoredColumns]) },
    );
    assert.equal(summary.schema, 'pre2025');
    assert.equal(summary.rowsRead, 20_000);
    assert.equal(summary.skipped, gen.malformedRows);
    assert.deepEqual(summary.skipReasons, { 'agreement_value is empty': gen.malformedRows });
    assert.equal(summary.bytesRead, gen.bytesWritten);
    assert.deepEqual(gen.header, [...columnsOf('pre2025'), GENERATED_MARKER_COLUMN], 'the schema, then the generated-data marker');
    assert.ok(headerColumns.includes('recipient_business_number'));
    assert.ok(headerColumns.includes(GENERATED_MARKER_COLUMN), 'the marker is no field of a record');

    // amendment groups: one agreement per original row; amendments numbered 1, 2, … after their original
    assert.equal(resolver.size, gen.agreements);
    for (const [key, numbers] of perKey) {
      assert.deepEqual(
        numbers,
        numbers.map((_, i) => i),
        `amendments of ${key} are 0, 1, 2, … in file order`,
      );
    }
    let total = 0;
    for (const g of resolver.values()) total += g.agreement_value_cents;
    assert.equal(total, gen.currentValueTotalCents, 'the highest amendments carry the values the generator ended with');

    // a realistic spread
    assert.ok(above10M > 0 && above10M < 20_000 * 0.02, `a few agreements over $10M (${above10M})`);
    assert.ok(notable > 100 && notable < 20_000 * 0.2, `some notable keywords (${notable})`);
    assert.ok(fromReference > 20_000 * 0.9, 'most references follow the DDD-YYYY-YYYY-Qn-NNNNN pattern');
    assert.ok(fromReference < summary.recordsMapped, 'some do not');
    assert.ok(blankNaics > 0 && multiline > 0 && quoted > 0, 'blank optional fields, newlines and quotes occur');
    assert.ok(purposes > 0 && purposes < summary.recordsMapped, `most programs' purposes given, not all (${purposes})`);
    assert.equal(provinces.size, PROVINCE_CODES.length, 'every province and territory appears');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the December 2025 schema is written keyed by agreement_number, and resolves the same way', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-gen-'));
  try {
    const file = join(dir, 'grants-2025.csv');
    const gen = await writeGrantsCsv(file, { rows: 3_000, seed: 5, schema: '2025' });
    const header = readFileSync(file, 'utf8')
      .split('\r\n', 1)[0]
      .replace(/^\uFEFF/, '')
      .split(',');
    assert.deepEqual(header, [...columnsOf('2025'), GENERATED_MARKER_COLUMN]);
    assert.ok(!header.includes('ref_number'));
    const resolver = new AmendmentResolver();
    const summary = await readGrantsCsv(file, (r) => resolver.add(r));
    assert.equal(summary.schema, '2025');
    assert.equal(summary.referenceColumn, 'agreement_number');
    assert.equal(resolver.size, gen.agreements);
    let total = 0;
    for (const g of resolver.values()) total += g.agreement_value_cents;
    assert.equal(total, gen.currentValueTotalCents);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the same seed gives the same bytes; another seed does not', async () => {
  const digest = async (seed: string | number): Promise<string> => {
    const hash = createHash('sha256');
    const sink = new Writable({
      write(chunk, _e, cb) {
        hash.update(chunk);
        cb();
      },
    });
    await writeGrantsCsv(sink, { rows: 1_500, seed });
    return hash.digest('hex');
  };
  const a = await digest('same');
  assert.equal(await digest('same'), a);
  assert.notEqual(await digest('other'), a);
});

test('writing waits for a slow consumer (backpressure) and still delivers every row', async () => {
  let buffered = 0;
  let maxBuffered = 0;
  let rows = 0;
  const slow = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _e, cb) {
      buffered = slow.writableLength;
      maxBuffered = Math.max(maxBuffered, buffered);
      rows += chunk.toString('utf8').split('\r\n').length - 1;
      setTimeout(cb, 1);
    },
  });
  const gen = await writeGrantsCsv(slow, { rows: 6_000, seed: 9, malformedRate: 0 }); // ~4 MB in all
  // quoted descriptions may contain \n but never \r\n, so CRLF counts rows exactly
  assert.equal(rows, 6_001);
  assert.equal(gen.malformedRows, 0);
  assert.ok(maxBuffered < 1024 * 1024, `the writer never queues more than a batch (${maxBuffered} bytes)`);
});

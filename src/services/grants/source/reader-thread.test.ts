// The threaded reader against readGrantsCsv on the same files: the same records in the same order, the same
// skips, summary and last progress; header errors and missing files arrive as the same errors; a consumer
// that fails stops the thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGrantsCsv } from '../generator/index.ts';
import { GrantsCsvHeaderError, readGrantsCsv } from './reader.ts';
import type { ReadProgress } from './reader.ts';
import { readGrantsCsvThreaded } from './reader-thread.ts';
import type { GrantRecord } from './record.ts';

async function readBoth(file: string) {
  const run = async (read: typeof readGrantsCsv) => {
    const records: Array<[GrantRecord, number]> = [];
    const skips: Array<[string, number]> = [];
    let last = null as ReadProgress | null;
    let headerColumns = 0;
    const summary = await read(
      file,
      async (record, rowNumber) => {
        records.push([record, rowNumber]);
        if (records.length % 997 === 0) await new Promise((resolve) => setTimeout(resolve, 1)); // a slow consumer now and then
      },
      { onSkip: (reason, row) => skips.push([reason, row]), onProgress: (p) => (last = p), onHeader: (m) => (headerColumns = m.columnCount) },
    );
    return { records, skips, summary, last, headerColumns };
  };
  return [await run(readGrantsCsv), await run(readGrantsCsvThreaded)];
}

test('the threaded reader gives what readGrantsCsv gives, in the same order', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-reader-thread-'));
  try {
    const file = join(dir, 'g.csv');
    await writeGrantsCsv(file, { rows: 6000, seed: 'reader-thread' });
    const [direct, threaded] = await readBoth(file);
    assert.ok(direct.records.length > 5000 && direct.skips.length > 0);
    assert.deepEqual(threaded.records, direct.records);
    assert.deepEqual(threaded.skips, direct.skips);
    assert.deepEqual(threaded.summary, direct.summary);
    assert.deepEqual(threaded.last, direct.last);
    assert.equal(threaded.last?.done, true);
    assert.equal(threaded.headerColumns, direct.headerColumns);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the threaded reader rejects as readGrantsCsv does: a missing column by name, a missing file, a failing consumer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-reader-thread-'));
  try {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'ref_number,owner_org,agreement_start_date\r\nX-1,org,2020-01-01\r\n');
    const error = await readGrantsCsvThreaded(file, () => {}).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrantsCsvHeaderError);
    assert.match(error.message, /agreement_value/);
    assert.ok(error.missing.includes('agreement_value'));
    await assert.rejects(readGrantsCsvThreaded(join(dir, 'missing.csv'), () => {}), /ENOENT/);
    const good = join(dir, 'g.csv');
    await writeGrantsCsv(good, { rows: 3000, seed: 'reader-thread' });
    let seen = 0;
    await assert.rejects(
      readGrantsCsvThreaded(good, () => {
        if (++seen === 1500) throw new Error('the database went away');
      }),
      /the database went away/,
    );
    assert.equal(seen, 1500, 'no row after the failure');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The importer's reader in a worker thread against the same reading on the caller's thread: the same batches
// (parameters and new texts) in the same order, the same skips, summary and last progress; header errors and
// missing files arrive as the same errors; a writer that fails stops the thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeGrantsCsv } from '../generator/index.ts';
import { GrantsCsvHeaderError } from '../source/index.ts';
import type { ReadProgress } from '../source/index.ts';
import { readAgreementBatches } from './reader.ts';
import type { RowBatch } from './rows.ts';

async function read(file: string, inThread: boolean, firstId?: number) {
  const batches: RowBatch[] = [];
  const skips: Array<[string, number]> = [];
  let last = null as ReadProgress | null;
  const { summary, aggregates } = await readAgreementBatches(
    file,
    {
      dialect: 'sqlite',
      inThread,
      onSkip: (reason, row) => skips.push([reason, row]),
      onProgress: (p) => (last = p),
      aggregates: firstId === undefined ? undefined : { firstId },
    },
    async (batch) => {
      batches.push(batch);
      if (batches.length % 3 === 0) await new Promise((resolve) => setTimeout(resolve, 2)); // a slow writer now and then
    },
  );
  return { batches, skips, summary, last, aggregates: await aggregates };
}

test('the reader thread gives the batches, skips, summary and progress of reading on this thread', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-import-reader-'));
  try {
    const file = join(dir, 'g.csv');
    await writeGrantsCsv(file, { rows: 6000, seed: 'import-reader' });
    const here = await read(file, true);
    const threaded = await read(file, false);
    assert.ok(here.batches.length > 5 && here.skips.length > 0);
    assert.deepEqual(threaded.batches, here.batches);
    assert.deepEqual(threaded.skips, here.skips);
    assert.deepEqual(threaded.summary, here.summary);
    assert.deepEqual(threaded.last, here.last);
    assert.equal(threaded.last?.done, true);
    // every agreement once: the rows of all batches equal the mapped records less the merged amendments
    const rows = here.batches.reduce((n, b) => n + b.rows.length, 0);
    assert.ok(rows <= here.summary.recordsMapped && rows > 0);
    assert.equal(here.aggregates, null);
    // a first import: ids from firstId on, in order of first appearance, and the aggregates, both ways alike
    const numbered = await read(file, true, 7);
    const numberedThreaded = await read(file, false, 7);
    assert.deepEqual(numberedThreaded.batches, numbered.batches);
    assert.deepEqual(numberedThreaded.aggregates, numbered.aggregates);
    const ids = numbered.batches.flatMap((b) => b.rows.map((r) => r[r.length - 1] as number));
    const firstSeen = [...new Set(ids)];
    assert.deepEqual(
      firstSeen,
      Array.from({ length: firstSeen.length }, (_, i) => 7 + i),
    );
    assert.equal(numbered.aggregates?.stats.total_grants, firstSeen.length);
    assert.ok(ids.length > firstSeen.length, 'some agreement is amended in a later batch');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the reader thread rejects as reading here does: a missing column by name, a missing file, a failing writer', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'grants-import-reader-'));
  const options = { dialect: 'sqlite' as const };
  try {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'ref_number,owner_org,agreement_start_date\r\nX-1,org,2020-01-01\r\n');
    const error = await readAgreementBatches(file, options, async () => {}).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrantsCsvHeaderError);
    assert.match(error.message, /agreement_value/);
    assert.ok(error.missing.includes('agreement_value'));
    await assert.rejects(
      readAgreementBatches(join(dir, 'missing.csv'), options, async () => {}),
      /ENOENT/,
    );
    const good = join(dir, 'g.csv');
    await writeGrantsCsv(good, { rows: 3000, seed: 'import-reader' });
    let seen = 0;
    await assert.rejects(
      readAgreementBatches(good, options, async () => {
        if (++seen === 3) throw new Error('the database went away');
      }),
      /the database went away/,
    );
    assert.equal(seen, 3, 'no batch after the failure');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

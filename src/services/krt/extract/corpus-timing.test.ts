// Parsing versus extracting the whole corpus once, reported and not asserted (timing is for benchmarks).
// It takes about a minute of CPU, so it runs only when asked: PDI_KRT_TIMING=1.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { extractMany } from './extract-many.ts';
import { corpusFiles, corpusMissing } from './test-corpus.ts';

test('time to parse and to extract all corpus files (reported)', { skip: process.env.PDI_KRT_TIMING === '1' ? false : 'set PDI_KRT_TIMING=1 to time the whole corpus' }, async (t) => {
  const skip = corpusMissing();
  if (skip) { t.skip(skip); return; }
  const files = corpusFiles();
  const workers = Number(process.env.PDI_KRT_WORKERS ?? Math.min(2, availableParallelism()));
  const t0 = performance.now();
  const results = await extractMany(files, { workers });
  const wall = (performance.now() - t0) / 1000;
  let parse = 0;
  let extract = 0;
  let rows = 0;
  let tables = 0;
  for (const r of results) {
    if (!r.ok) continue;
    parse += r.extraction.parseSeconds;
    extract += r.extraction.extractSeconds;
    rows += r.extraction.rows.length;
    if (r.extraction.provider === 'jats-table') tables++;
  }
  t.diagnostic(`${files.length} files, ${workers} workers: wall ${wall.toFixed(1)} s; CPU in parsing ${parse.toFixed(1)} s (${(1000 * parse / files.length).toFixed(1)} ms/file), in extracting ${extract.toFixed(1)} s (${(1000 * extract / files.length).toFixed(1)} ms/file); ${tables} author tables, ${rows} rows`);
  assert.equal(results.filter((r) => r.ok).length, files.length);
});

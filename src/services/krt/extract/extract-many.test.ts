import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractMany } from './extract-many.ts';
import { TABLE_EXTRACTOR_MODEL } from './extract-article.ts';
import { corpusFiles, corpusMissing } from '../../../../test/support/krt/corpus.ts';

test('worker threads and the single-thread mode give the same results, in input order, with per-file errors', async (t) => {
  const skip = corpusMissing();
  if (skip) {
    t.skip(skip);
    return;
  }
  const all = corpusFiles();
  // A spread of papers (every 60th) plus two that carry author tables, a malformed file and a missing one.
  const sample = all.filter((_f, i) => i % 60 === 0);
  sample.push(...all.filter((f) => /2021\.09\.08\.459408|2022\.10\.21\.513016/.test(f)));
  const dir = mkdtempSync(join(tmpdir(), 'krt-many-'));
  const broken = join(dir, 'broken.xml');
  writeFileSync(broken, '<article><body><p>unclosed</body></article>');
  const files = [...sample, broken, join(dir, 'missing.xml')];
  try {
    const progress: number[] = [];
    const single = await extractMany(files, { workers: 1, onProgress: (done) => progress.push(done) });
    const parallel = await extractMany(files, { workers: 2 });
    assert.deepEqual(
      progress,
      files.map((_f, i) => i + 1),
    );
    assert.equal(single.length, files.length);
    assert.deepEqual(
      parallel.map((r) => r.file),
      files,
    );
    for (let i = 0; i < files.length; i++) {
      const a = single[i];
      const b = parallel[i];
      assert.equal(a.ok, b.ok, files[i]);
      if (a.ok && b.ok) {
        assert.deepEqual(b.extraction.rows, a.extraction.rows, files[i]);
        assert.equal(b.extraction.provider, a.extraction.provider);
        assert.equal(b.extraction.model, a.extraction.model);
        assert.deepEqual(b.extraction.metadata, a.extraction.metadata);
        assert.ok(a.extraction.processingTime >= 0 && a.extraction.processingTime >= a.extraction.parseSeconds);
      }
    }
    const byFile = new Map(single.map((r) => [r.file, r]));
    const tableResult = byFile.get(sample.find((f) => f.includes('459408'))!)!;
    assert.ok(tableResult.ok && tableResult.extraction.provider === 'jats-table' && tableResult.extraction.model === TABLE_EXTRACTOR_MODEL);
    const brokenResult = byFile.get(broken)!;
    assert.ok(!brokenResult.ok && /not well-formed/.test(brokenResult.error));
    assert.equal(byFile.get(join(dir, 'missing.xml'))!.ok, false);
    const text = single.filter((r) => r.ok && r.extraction.provider === 'text-pattern').length;
    t.diagnostic(
      `${files.length} files: ${single.filter((r) => r.ok).length} extracted (${text} by text), ${single.filter((r) => !r.ok).length} errors; identical in 1 and 2 workers`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

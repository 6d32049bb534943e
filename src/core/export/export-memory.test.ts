import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { FormatFigures } from '../../../test/support/export/memory-probe.ts';

const ROWS = 200_000;
const BOUND_MB = 50;

// The probe runs in its own process with --expose-gc: a forced GC before each sample measures live memory
// only, so the check does not depend on when the collector happens to run (no flakiness from timing).
test(
  `streaming ${ROWS.toLocaleString('en')} rows x 16 columns keeps the live heap within ${BOUND_MB} MB`,
  { timeout: 240_000 },
  async (t) => {
    const probe = fileURLToPath(new URL('../../../test/support/export/memory-probe.ts', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', probe, String(ROWS)], { maxBuffer: 1024 * 1024 });
    const figures = JSON.parse(stdout) as Record<'xlsx' | 'csv' | 'json', FormatFigures> & { heldRowsMBEstimate: number; maxRssMB: number };
    t.diagnostic(stdout.trim());

    // The bound means something only if holding the rows would break it.
    assert.ok(figures.heldRowsMBEstimate > 2 * BOUND_MB, `holding the rows would take ~${figures.heldRowsMBEstimate.toFixed(0)} MB`);
    for (const format of ['xlsx', 'csv', 'json'] as const) {
      const f = figures[format];
      assert.equal(f.rows, ROWS, `${format}: every row written`);
      assert.equal(f.samples, ROWS / 10_000, `${format}: heap sampled throughout`);
      assert.ok(f.bytesWritten > 10 * 1024 * 1024, `${format}: ${f.bytesWritten} bytes written`);
      assert.ok(f.peakGrowthMB < BOUND_MB, `${format}: live heap grew ${f.peakGrowthMB.toFixed(1)} MB`);
    }
  },
);

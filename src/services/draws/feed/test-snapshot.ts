// Where tests find the real IRCC snapshot: $PDI_SHARED_DATA, else <repo>/../shared/data. Absent data skips
// the test with a message outside CI and fails it in CI.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';

export const SNAPSHOT_NAME = 'ee_rounds_123_en.2025-12-17.json';
/** The date the snapshot was taken: the as-of date of tests on it. */
export const SNAPSHOT_AS_OF = '2025-12-17';

export function snapshotPath(): string {
  const shared = process.env.PDI_SHARED_DATA ?? fileURLToPath(new URL('../../../../../shared/data/', import.meta.url));
  return path.join(shared, 'draws', SNAPSHOT_NAME);
}

/** The snapshot's decoded JSON, or null after marking the test skipped (throws in CI). */
export function loadSnapshot(t: TestContext): unknown {
  const file = snapshotPath();
  if (!existsSync(file)) {
    if (process.env.CI === 'true') throw new Error(`shared data missing: ${file}`);
    t.skip(`shared data missing: ${file}`);
    return null;
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

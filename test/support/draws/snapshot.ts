// Where tests find the real IRCC snapshot: $PDI_SHARED_DATA, else <repo>/../shared/data. Absent data skips
// the test with a message outside CI and fails it in CI.
import { existsSync, readFileSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { SNAPSHOT_AS_OF, SNAPSHOT_NAME } from '../../../src/services/draws/feed/reference-snapshot.ts';
import { sharedData } from '../databases.ts';

export { SNAPSHOT_AS_OF, SNAPSHOT_NAME };
export const SNAPSHOT_FILE = sharedData('draws', SNAPSHOT_NAME);

/** The snapshot's decoded JSON, or null after marking the test skipped (throws in CI). */
export function loadSnapshot(t: TestContext): unknown {
  if (!existsSync(SNAPSHOT_FILE)) {
    if (process.env.CI === 'true') throw new Error(`shared data missing: ${SNAPSHOT_FILE}`);
    t.skip(`shared data missing: ${SNAPSHOT_FILE}`);
    return null;
  }
  return JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8'));
}

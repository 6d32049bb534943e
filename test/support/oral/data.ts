// Where the oral tests find ../shared/data/oral. Outside CI a missing folder skips the data tests (with the
// reason shown); with CI=true it is an error, so a CI run never passes by skipping.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { sharedData } from '../databases.ts';

export function oralDataDir(): string | null {
  const dir = sharedData('oral');
  if (existsSync(join(dir, 'uk_guidelines.json'))) return dir;
  if (process.env.CI === 'true') throw new Error(`oral test data not found at ${dir} (set PDI_SHARED_DATA)`);
  return null;
}

/** The `skip` option of a data test: false when the data is there, else the reason. */
export function skipWithoutData(dir: string | null): string | false {
  return dir === null ? 'skipped: ../shared/data/oral not found (set PDI_SHARED_DATA)' : false;
}

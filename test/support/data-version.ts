// A new data version of a service, recorded as an import would record it: what tests use to say "the data changed".
import { recordDataVersion } from '../../src/core/db/datasets.ts';
import type { AnyDatabase } from '../../src/core/db/tables.ts';

let recorded = 0;

/** Records a new, never-seen version of `service`'s data (dataset `test`, real, no source). */
export async function recordNewVersion(db: AnyDatabase, service: string): Promise<string> {
  const version = `test-${Date.now()}-${++recorded}`;
  await recordDataVersion(db, { service, dataset: 'test', version, source: null, isDemo: false, report: {} });
  return version;
}

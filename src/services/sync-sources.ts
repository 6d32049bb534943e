// Each service's sync source (src/services/<service>/sync.ts), for `pdi sync` and `serve --sync-every`. B has none:
// its papers come by DOI (`pdi fetch krt`, src/services/krt/sync.ts).
import type { ServiceName } from '../core/config.ts';
import type { SyncDefinition } from '../core/sync/source.ts';
import { oralSync } from './oral/sync.ts';
import { grantsSync } from './grants/sync.ts';
import { drawsSync } from './draws/sync.ts';
import { retractionSync } from './retraction/sync.ts';

export const SYNC_SOURCES: Partial<Record<ServiceName, SyncDefinition>> = {
  oral: oralSync,
  grants: grantsSync,
  draws: drawsSync,
  retraction: retractionSync,
};

export function syncSourceOf(name: string): SyncDefinition {
  const found = SYNC_SOURCES[name as ServiceName];
  if (!found) {
    throw new Error(
      name === 'krt'
        ? 'krt has no bulk source to sync: fetch papers by DOI with `pdi fetch krt <doi…>`'
        : `no sync source for "${name}"; available: ${Object.keys(SYNC_SOURCES).join(', ')}`,
    );
  }
  return found;
}

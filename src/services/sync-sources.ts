// Each service's sync source (src/services/<service>/sync.ts), for `pdi sync` and `serve --sync-every`. B's is the
// Cellosaurus registry (its papers come by DOI: `pdi fetch krt`, src/services/krt/sync.ts).
import type { ServiceName } from '../core/config.ts';
import type { SyncDefinition } from '../core/sync/source.ts';
import { oralSync } from './oral/sync.ts';
import { grantsSync } from './grants/sync.ts';
import { drawsSync } from './draws/sync.ts';
import { retractionSync } from './retraction/sync.ts';
import { krtSync } from './krt/sync.ts';

export const SYNC_SOURCES: Partial<Record<ServiceName, SyncDefinition>> = {
  oral: oralSync,
  krt: krtSync,
  grants: grantsSync,
  draws: drawsSync,
  retraction: retractionSync,
};

export function syncSourceOf(name: string): SyncDefinition {
  const found = SYNC_SOURCES[name as ServiceName];
  if (!found) {
    throw new Error(`no sync source for "${name}"; available: ${Object.keys(SYNC_SOURCES).join(', ')}`);
  }
  return found;
}

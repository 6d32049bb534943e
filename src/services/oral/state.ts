// What Service A's routes and pages share in a server process (ServiceModule.createState): the typed database, and
// every recommendation and every document of the evidence search held in memory per data version (A's data is
// small and changes only by import), read through the service's data-version watcher: a search costs no query.
import { serviceDataVersion } from '../../core/db/datasets.ts';
import type { Db } from '../../core/db/database.ts';
import { HeldPerVersion } from '../../core/held.ts';
import type { DataVersionWatcher, ServiceContext } from '../../core/service.ts';
import { loadDocuments } from './evidence-search.ts';
import type { HeldDocuments } from './evidence-search.ts';
import { loadRecommendations } from './repository.ts';
import type { HeldRecommendation } from './repository.ts';
import { oralDatabase } from './tables.ts';
import type { OralDatabase } from './tables.ts';
import type { Kysely } from 'kysely';

export interface OralState {
  db: Kysely<OralDatabase>;
  recommendations: HeldPerVersion<HeldRecommendation[]>;
  documents: HeldPerVersion<HeldDocuments>;
}

/** The state over `database`, its data version read through `versions`. */
export function oralState(database: Db, versions: DataVersionWatcher): OralState {
  const db = oralDatabase(database);
  const storedVersion = () => serviceDataVersion(db, 'oral');
  const recommendations = new HeldPerVersion(versions, { storedVersion, read: () => loadRecommendations(db) });
  const documents = new HeldPerVersion(versions, {
    storedVersion,
    read: async (version) => ({ version, docs: await loadDocuments(db, await recommendations.current()) }),
  });
  return { db, recommendations, documents };
}

export const createOralState = (ctx: ServiceContext): OralState => oralState(ctx.db, ctx.dataVersion);

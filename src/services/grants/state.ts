// C's state: what its routes and pages share, created once per process (per app) and handed to both. Today the
// search (search/grants-search.ts: the in-memory index of the current data version's agreements).
import type { ServiceContext } from '../../core/service.ts';
import { GrantsSearch } from './search/grants-search.ts';
import type { GrantsTables } from './tables.ts';

export interface GrantsState {
  search: GrantsSearch;
}

export function createGrantsState(ctx: ServiceContext): GrantsState {
  return { search: new GrantsSearch(ctx.db.kysely.withTables<GrantsTables>(), ctx.dataVersion) };
}

// What every grants route plugin gets: the typed database, C's search (from C's state, shared with the pages),
// and the aggregates stored at import (a 503 saying how to load data when there are none).
import type { Kysely } from 'kysely';
import { afterStartupCollection } from '../../../core/gc.ts';
import { HttpError } from '../../../core/http/errors.ts';
import type { ServiceApp, ServiceContext } from '../../../core/service.ts';
import type { GrantsAggregates } from '../aggregates.ts';
import type { GrantsSearch } from '../search/grants-search.ts';
import type { GrantsState } from '../state.ts';
import { readAggregate, readCalculator } from '../repository.ts';
import type { CalculatorData } from '../repository.ts';
import type { GrantsDatabase, GrantsTables } from '../tables.ts';

const NO_DATA = 'no grants data has been imported yet; run `pdi import grants <csv>` (or start the server with demo data)';

// A type alias: Fastify's plugin options must be an object type with an index signature.
export type GrantsRoutes = {
  db: Kysely<GrantsDatabase>;
  search: GrantsSearch;
  /** A stored aggregate served as it is. */
  aggregate<N extends ServedAggregate>(name: N): Promise<GrantsAggregates[N]>;
  /** The calculator's aggregates and French texts, read once per data version (POST responses are not cached). */
  calculatorAggregates(): Promise<CalculatorData>;
};

/** The aggregates a GET serves as they are stored. */
type ServedAggregate = 'stats' | 'recipients' | 'comprehensive';

async function storedValue<N extends ServedAggregate>(db: Kysely<GrantsDatabase>, name: N): Promise<GrantsAggregates[N]> {
  const stored = await readAggregate(db, name);
  if (!stored) throw new HttpError(503, NO_DATA);
  return stored.value;
}

/** What the routes share, for the app `app` (C's search index loads when it is ready). */
export function routeContext(app: ServiceApp, ctx: ServiceContext, state: GrantsState): GrantsRoutes {
  const db = ctx.db.kysely.withTables<GrantsTables>();
  // Searches count and order their matches in memory (search/memory-search.ts): loaded in the background once the
  // server has started (a load of seconds at full size), else by the first search; closing waits for it.
  const { search } = state;
  let warming: Promise<void> | null = null;
  app.addHook('onReady', async () => {
    afterStartupCollection(() => {
      warming = search.ready().catch((error) => ctx.log.warn({ err: error }, 'in-memory search not loaded; the first search will load it'));
    });
  });
  app.addHook('onClose', async () => {
    await warming;
  });

  let calculatorMemo: CalculatorData | null = null;
  async function calculatorAggregates(): Promise<CalculatorData> {
    const row = await db
      .selectFrom('aggregates')
      .select('data_version')
      .where('service', '=', 'grants')
      .where('name', '=', 'calculator')
      .executeTakeFirst();
    if (!row) throw new HttpError(503, NO_DATA);
    const memo = calculatorMemo;
    if (memo !== null && memo.data_version === row.data_version) return memo;
    const stored = await readCalculator(db);
    if (!stored) throw new HttpError(503, NO_DATA);
    calculatorMemo = stored;
    return stored;
  }

  return { db, search, aggregate: (name) => storedValue(db, name), calculatorAggregates };
}

// What Service D's routes and pages share in a server process (ServiceModule.createState): the typed database, the
// as-of date, the data_source of a body, the category named by a path or query parameter (400 when it is not a
// whole number, 404 when no category has it), and the record of the forecasts served.
import type { Kysely } from 'kysely';
import { badRequest, notFound } from '../../core/http/errors.ts';
import type { ServiceContext } from '../../core/service.ts';
import { resolveAsOf } from './as-of.ts';
import { staleAfterDays } from './freshness.ts';
import { dataSource, findCategory } from './repository.ts';
import { recordCurrentForecasts } from './track-record.ts';
import type { CategoryRecord, DataSource } from './repository.ts';
import type { DrawsDatabase, DrawsTables } from './tables.ts';

export interface DrawsState {
  db: Kysely<DrawsDatabase>;
  /** The as-of date now (PDI_DRAWS_AS_OF, else today in Toronto). */
  asOf(): string;
  /** data_source of a response; `forecastsAsOf` is read from the stored forecasts unless given. */
  source(forecastsAsOf?: string | null): Promise<DataSource>;
  /** The category a parameter names: 400 for a value that is not a whole number, 404 for an unknown id. */
  requireCategory(raw: string, parameter: string): Promise<CategoryRecord>;
  /** Adds the forecasts served now to the track record, once per data version and process (a failure is logged, not thrown). */
  recordServed(): Promise<void>;
}

function categoryId(raw: string, parameter: string): number {
  const id = Number(raw);
  if (!Number.isSafeInteger(id)) throw badRequest(`${parameter} must be a positive whole number`);
  return id;
}

/** Throws at start on a malformed PDI_DRAWS_AS_OF or PDI_DRAWS_STALE_DAYS, rather than failing every request. */
export function createDrawsState(ctx: ServiceContext): DrawsState {
  const db = ctx.db.kysely.withTables<DrawsTables>();
  const asOf = () => resolveAsOf(ctx.config.env);
  asOf();
  staleAfterDays(ctx.config.env);
  let recordedVersion: string | null = null;
  return {
    async recordServed() {
      const version = await ctx.dataVersion.current();
      if (version === null || version === recordedVersion) return;
      try {
        await recordCurrentForecasts(db, 'request');
        recordedVersion = version;
      } catch (error) {
        ctx.log.error({ err: error }, 'could not add the served forecasts to the track record');
      }
    },
    db,
    asOf,
    source: async (forecastsAsOf) => dataSource(db, asOf(), ctx.config.env, forecastsAsOf),
    async requireCategory(raw, parameter) {
      const id = categoryId(raw, parameter);
      const category = await findCategory(db, id);
      if (!category) throw notFound(`category ${id} not found; see /api/categories/ for the ids`);
      return category;
    },
  };
}

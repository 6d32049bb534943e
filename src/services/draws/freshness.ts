// How old Service D's data is at its source: the newest draw held, counted in days to the as-of date. IRCC draws
// every few weeks, so a feed whose newest draw is more than PDI_DRAWS_STALE_DAYS (default 30) days old has
// almost certainly missed draws, however recently it was imported.
import type { Kysely } from 'kysely';
import { coreTables } from '../../core/db/tables.ts';
import type { NewestObservationReader } from '../../core/sync/status.ts';
import { resolveAsOf } from './as-of.ts';
import { dayNumber } from './feed/ircc-dates.ts';
import type { DrawsDatabase, DrawsTables } from './tables.ts';

export const STALE_DAYS_VARIABLE = 'PDI_DRAWS_STALE_DAYS';
const DEFAULT_STALE_DAYS = 30;

/** PDI_DRAWS_STALE_DAYS: a whole number of days (default 30), or "off" (never stale by the draws' age). */
export function staleAfterDays(env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env): number | null {
  const raw = env[STALE_DAYS_VARIABLE]?.trim();
  if (!raw) return DEFAULT_STALE_DAYS;
  if (/^(off|never|none)$/i.test(raw)) return null;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 36_500)
    throw new Error(`${STALE_DAYS_VARIABLE} must be a whole number of days from 1 to 36500, or "off"; got "${raw}"`);
  return Number(raw);
}

export interface NewestDraw {
  date: string;
  round_number: string;
}

/** The newest draw dated on or before `through` (by date, then round), or null. */
export async function newestDrawThrough(db: Kysely<DrawsDatabase>, through: string): Promise<NewestDraw | null> {
  const row = await db
    .selectFrom('draws_draws')
    .select(['date', 'round_number'])
    .where('date', '<=', through)
    .orderBy('date', 'desc')
    .orderBy('round_sort_key', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

export interface DrawsAge {
  newest: NewestDraw | null;
  /** Days from the newest draw to the as-of date. */
  ageDays: number | null;
  staleAfterDays: number | null;
  /** True when the newest draw is more than staleAfterDays before the as-of date; null without draws or with the limit off. */
  stale: boolean | null;
}

export async function drawsAge(
  db: Kysely<DrawsDatabase>,
  asOf: string,
  env: NodeJS.ProcessEnv | Record<string, string | undefined>,
): Promise<DrawsAge> {
  const newest = await newestDrawThrough(db, asOf);
  const limit = staleAfterDays(env);
  const ageDays = newest ? Math.max(0, dayNumber(asOf) - dayNumber(newest.date)) : null;
  return { newest, ageDays, staleAfterDays: limit, stale: ageDays === null || limit === null ? null : ageDays > limit };
}

/** The kernel's reading of D's newest observation (/api/sync-status/, /metrics, the pages' notice). */
export const drawsNewestObservation: NewestObservationReader = async (database, env, now) => {
  const today = resolveAsOf(env, now);
  const newest = await newestDrawThrough(coreTables(database).withTables<DrawsTables>(), today);
  return { noun: 'draw', date: newest?.date ?? null, today, staleAfterDays: staleAfterDays(env) };
};

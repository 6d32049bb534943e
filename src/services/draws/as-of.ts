// The as-of date of Service D: the day "recent", "dormant" and the forecasts are computed for. IRCC runs
// Express Entry from Ottawa, so "today" is the calendar date in America/Toronto; PDI_DRAWS_AS_OF fixes it
// (tests, reproducible reports, replaying an old snapshot).
import { isValidIsoDate } from './feed/ircc-dates.ts';

export const AS_OF_VARIABLE = 'PDI_DRAWS_AS_OF';
const AS_OF_TIME_ZONE = 'America/Toronto';

const torontoDate = new Intl.DateTimeFormat('en-CA', { timeZone: AS_OF_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The calendar date (YYYY-MM-DD) in Toronto at `now`. */
export function torontoToday(now: Date = new Date()): string {
  const parts = Object.fromEntries(torontoDate.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** PDI_DRAWS_AS_OF when set (must be a real YYYY-MM-DD date), else today in Toronto. */
export function resolveAsOf(env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env, now: Date = new Date()): string {
  const configured = env[AS_OF_VARIABLE]?.trim();
  if (configured) {
    if (!isValidIsoDate(configured)) throw new Error(`${AS_OF_VARIABLE} must be a date in the form YYYY-MM-DD, got "${configured}"`);
    return configured;
  }
  return torontoToday(now);
}

/** True when the as-of date is fixed by configuration (it then never moves on by itself). */
export function asOfIsFixed(env: NodeJS.ProcessEnv | Record<string, string | undefined> = process.env): boolean {
  return Boolean(env[AS_OF_VARIABLE]?.trim());
}

/** Milliseconds from `now` until the next midnight in Toronto (DST-safe: found by stepping, not by offset arithmetic). */
export function msUntilNextTorontoDay(now: Date = new Date()): number {
  const today = torontoToday(now);
  // Step forward in 15-minute increments to the first instant with a new date, then back up by minute.
  let t = now.getTime();
  while (torontoToday(new Date(t)) === today) t += 15 * 60_000;
  let lo = t - 15 * 60_000;
  while (t - lo > 1000) {
    const mid = Math.floor((lo + t) / 2);
    if (torontoToday(new Date(mid)) === today) lo = mid;
    else t = mid;
  }
  return t - now.getTime();
}

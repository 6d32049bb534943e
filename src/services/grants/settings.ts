// Service C's configuration variables.
import { parseFiscalYearLabel } from './source/index.ts';

/**
 * PDI_GRANTS_CURRENT_YEAR: the calculator's "current" fiscal year (e.g. 2023 or 2023-24). Unset: the last
 * fiscal year in the data that has a published federal revenue figure. Never the wall clock.
 */
export function currentYearSetting(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.PDI_GRANTS_CURRENT_YEAR?.trim();
  if (!raw) return undefined;
  const year = /^\d{4}$/.test(raw) ? Number(raw) : parseFiscalYearLabel(raw);
  if (year === null) throw new Error(`PDI_GRANTS_CURRENT_YEAR must be a fiscal year such as 2023 or 2023-24, got "${raw}"`);
  return year;
}

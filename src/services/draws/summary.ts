// Per-category and overall statistics of the draws, and each draw's days since the previous draw of its
// category. Pure functions over the rounds, run at import; the results are stored, requests only read them.
import { dayNumber } from './feed/ircc-dates.ts';
import { gapsBetweenDates } from './forecast/draw-dates.ts';
import { mean, median } from './forecast/statistics.ts';

export interface DrawFact {
  roundNumber: string;
  roundSortKey: number;
  date: string;
  crs: number;
  invitations: number;
}

export interface CategoryStatistics {
  total_draws: number;
  avg_crs_score: number | null;
  median_crs_score: number | null;
  min_crs_score: number | null;
  max_crs_score: number | null;
  total_invitations: number;
  avg_invitations: number | null;
  first_draw_date: string | null;
  latest_draw_date: string | null;
  /** Mean and median gap in days between consecutive distinct draw dates of the category. */
  avg_days_between_draws: number | null;
  median_days_between_draws: number | null;
  /** Round number of the newest draw (by date, then round). */
  latest_round_number: string | null;
}

export interface OverallStatistics {
  total_draws: number;
  avg_crs_score: number | null;
  avg_invitations: number | null;
  min_crs_score: number | null;
  max_crs_score: number | null;
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Oldest first: date, then round number. */
export function chronological<T extends { date: string; roundSortKey: number }>(draws: readonly T[]): T[] {
  return [...draws].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0) || a.roundSortKey - b.roundSortKey);
}

export function categoryStatistics(draws: readonly DrawFact[]): CategoryStatistics {
  if (draws.length === 0) {
    return {
      total_draws: 0,
      avg_crs_score: null,
      median_crs_score: null,
      min_crs_score: null,
      max_crs_score: null,
      total_invitations: 0,
      avg_invitations: null,
      first_draw_date: null,
      latest_draw_date: null,
      avg_days_between_draws: null,
      median_days_between_draws: null,
      latest_round_number: null,
    };
  }
  const sorted = chronological(draws);
  const crs = sorted.map((d) => d.crs);
  const invitations = sorted.map((d) => d.invitations);
  const gaps = gapsBetweenDates(sorted.map((d) => d.date));
  const totalInvitations = invitations.reduce((s, n) => s + n, 0);
  return {
    total_draws: sorted.length,
    avg_crs_score: round2(mean(crs)),
    median_crs_score: median(crs),
    min_crs_score: Math.min(...crs),
    max_crs_score: Math.max(...crs),
    total_invitations: totalInvitations,
    avg_invitations: round2(totalInvitations / sorted.length),
    first_draw_date: sorted[0].date,
    latest_draw_date: sorted[sorted.length - 1].date,
    avg_days_between_draws: gaps.length > 0 ? round2(mean(gaps)) : null,
    median_days_between_draws: gaps.length > 0 ? median(gaps) : null,
    latest_round_number: sorted[sorted.length - 1].roundNumber,
  };
}

export function overallStatistics(draws: readonly DrawFact[]): OverallStatistics {
  if (draws.length === 0) return { total_draws: 0, avg_crs_score: null, avg_invitations: null, min_crs_score: null, max_crs_score: null };
  const crs = draws.map((d) => d.crs);
  return {
    total_draws: draws.length,
    avg_crs_score: round2(mean(crs)),
    avg_invitations: round2(mean(draws.map((d) => d.invitations))),
    min_crs_score: Math.min(...crs),
    max_crs_score: Math.max(...crs),
  };
}

/**
 * Days since the previous draw of the same category, by round number: 0 for a second draw on the same
 * day, null for the category's first draw. `draws` are one category's draws, in any order.
 */
export function daysSinceLastDraw(draws: readonly DrawFact[]): Map<string, number | null> {
  const result = new Map<string, number | null>();
  let previous: string | null = null;
  for (const d of chronological(draws)) {
    result.set(d.roundNumber, previous === null ? null : dayNumber(d.date) - dayNumber(previous));
    previous = d.date;
  }
  return result;
}

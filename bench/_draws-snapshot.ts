// The real snapshot's categories as the forecasting code takes them, for D's benchmark scripts.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/core/config.ts';
import { categoriseRounds } from '../src/services/draws/feed/categories.ts';
import { SNAPSHOT_NAME } from '../src/services/draws/feed/reference-snapshot.ts';
import { parseRoundsFeed } from '../src/services/draws/feed/rounds-feed.ts';
import type { CategoryDrawsInput } from '../src/services/draws/forecast/forecast-panel.ts';

/** The snapshot file in the shared data. */
export const SNAPSHOT_FILE = path.join(loadConfig().sharedDataDir, 'draws', SNAPSHOT_NAME);

/** Every category of the snapshot with its draws, numbered from 1 in the feed's category order. */
export function snapshotCategories(): CategoryDrawsInput[] {
  const { rounds } = parseRoundsFeed(fs.readFileSync(SNAPSHOT_FILE, 'utf8'));
  return categoriseRounds(rounds).map((g, k) => ({
    id: k + 1,
    slug: g.category.slug,
    draws: g.rounds.map((r) => ({ date: r.date, crs: r.crs, invitations: r.invitations, roundSortKey: r.roundSortKey })),
  }));
}

// Service D's import tests: the snapshot as editable JSON, feed files in a temporary directory, and the whole
// stored state (draws, categories, predictions, data versions) to compare before and after an import.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { listDataVersions } from '../../../src/core/db/datasets.ts';
import { readJson } from '../../../src/core/db/dialect.ts';
import type { DrawsDatabase } from '../../../src/services/draws/tables.ts';
import { SNAPSHOT_FILE } from './snapshot.ts';

export type FeedJson = { rounds: Record<string, string>[] };
/** The snapshot, decoded afresh (edit it freely). */
export const readFeed = (): FeedJson => JSON.parse(fs.readFileSync(SNAPSHOT_FILE, 'utf8'));

/** Writes `content` to a new temporary directory as `name`; the file's path. */
export function tempFile(name: string, content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pdi-draws-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, content);
  return file;
}

/** Everything an import may change, normalised across the two databases. */
export async function storedState(db: Kysely<DrawsDatabase>) {
  const draws = await db.selectFrom('draws_draws').selectAll().orderBy('id').execute();
  const categories = await db.selectFrom('draws_categories').selectAll().orderBy('id').execute();
  const predictions = await db.selectFrom('draws_predictions').selectAll().orderBy('category_id').orderBy('rank').execute();
  const normalise = (rows: Record<string, unknown>[]) =>
    rows.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k,
          k === 'pool_distribution' ? readJson(v) : typeof v === 'bigint' || (typeof v === 'string' && k === 'id') ? Number(v) : v,
        ]),
      ),
    );
  return {
    draws: normalise(draws),
    categories: normalise(categories),
    predictions: normalise(predictions),
    versions: await listDataVersions(db, 'draws'),
  };
}

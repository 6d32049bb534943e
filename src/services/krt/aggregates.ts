// What Service B computes at import and stores with the data version: the RRID knowledge base (the pure base is
// rrid/knowledge-base.ts). It is built from the best built-in table of every article in the store (author tables,
// else the text extractor; tables written by a language model are left out, so that no RRID enters the base that a
// paper did not write), calibrated (rrid/calibration.ts), and stored as the aggregate `rrid_kb` with the data
// version it was built from. Serving processes keep one copy in memory (served-knowledge.ts).
import type { Kysely } from 'kysely';
import { getAggregate, putAggregate } from '../../core/db/datasets.ts';
import { RridKnowledgeBase, calibrate, isCurrentSnapshot, suggestionIndexOf } from './rrid/index.ts';
import { storeSuggestionIndex } from './store.ts';
import type { KbPaper, KbSnapshot } from './rrid/index.ts';
import { bestBuiltinTables, rowsOfSessions, sessionsOfDoi, pickBestSession, BUILTIN_PROVIDERS } from './repository.ts';
import type { KrtDatabase } from './tables.ts';

export const KB_AGGREGATE = 'rrid_kb';

export interface StoredKnowledgeBase {
  snapshot: KbSnapshot;
  /** Papers of the base that are generated demo articles (their evidence is labelled as such). */
  demo_dois: string[];
  built_at: string;
  papers: number;
  entries: number;
  rrids: number;
  /** False after an incremental update (one paper re-extracted): the calibration is the last full build's. */
  calibrated_on_current_papers: boolean;
}

/** The base as a serving process holds it. */
export interface LoadedKnowledgeBase {
  kb: RridKnowledgeBase;
  demo: ReadonlySet<string>;
  /** When the base was built (keys the validation cache; an import that changes nothing keeps it). */
  version: string;
}

function stored(kb: RridKnowledgeBase, demo: Iterable<string>, calibrated: boolean): StoredKnowledgeBase {
  let rrids = 0;
  for (const entry of kb.entries()) if (entry.rrid) rrids++;
  return {
    snapshot: kb.toJSON(),
    demo_dois: [...new Set(demo)].sort(),
    built_at: new Date().toISOString(),
    papers: kb.paperCount,
    entries: kb.size,
    rrids,
    calibrated_on_current_papers: calibrated,
  };
}

/** The stored base, or null when nothing has been imported. */
export async function readKnowledgeBase(db: Kysely<KrtDatabase>): Promise<LoadedKnowledgeBase | null> {
  const found = await getAggregate<StoredKnowledgeBase>(db, 'krt', KB_AGGREGATE);
  // A base stored by an older version (which kept repaired identifiers) is not served; the next import rebuilds it.
  if (!found || !isCurrentSnapshot(found.value.snapshot)) return null;
  return { kb: RridKnowledgeBase.fromJSON(found.value.snapshot), demo: new Set(found.value.demo_dois), version: found.value.built_at };
}

/** A base that keeps the entry ids of the previous one (ids are part of the API), with no papers yet. */
async function emptyBaseKeepingIds(db: Kysely<KrtDatabase>, keepDemoIds: boolean): Promise<RridKnowledgeBase> {
  const previous = await getAggregate<StoredKnowledgeBase>(db, 'krt', KB_AGGREGATE);
  if (!previous) return new RridKnowledgeBase();
  const ids = keepDemoIds ? previous.value.snapshot.ids : withoutDemoKeys(previous.value);
  // Only the ids are kept, so an older snapshot's ids serve as well.
  return RridKnowledgeBase.fromJSON({ ...previous.value.snapshot, ids, format: 'krt-rrid-kb', version: 2, papers: {}, calibration: null });
}

/**
 * The ids of a stored base without the keys that only its generated demo papers used: when real data replaces the
 * demo data, nothing of the demo stays in the base (the next id is kept, so a dropped id is never given again).
 */
function withoutDemoKeys(previous: StoredKnowledgeBase): Record<string, number> {
  const demo = new Set(previous.demo_dois);
  const keysOf = (paper: KbPaper) => paper.observations.flatMap((o) => (o.repair ? [o.key, `RRID:${o.repair}`] : [o.key]));
  const real = new Set<string>();
  const demoOnly = new Set<string>();
  for (const [doi, paper] of Object.entries(previous.snapshot.papers))
    for (const key of keysOf(paper)) (demo.has(doi) ? demoOnly : real).add(key);
  return Object.fromEntries(Object.entries(previous.snapshot.ids).filter(([key]) => !demoOnly.has(key) || real.has(key)));
}

/** Rebuilds the base from every article's best built-in table and calibrates it (call inside the import transaction). */
export async function rebuildKnowledgeBase(trx: Kysely<KrtDatabase>, dataVersion: string): Promise<StoredKnowledgeBase> {
  const tables = await bestBuiltinTables(trx);
  const kb = await emptyBaseKeepingIds(
    trx,
    tables.some((t) => t.is_demo),
  );
  const demo: string[] = [];
  for (const table of tables) {
    if (table.rows.length === 0) continue;
    kb.addPaper(table.doi, table.rows, table.provider);
    if (table.is_demo) demo.push(table.doi);
  }
  // Without calibration every confidence would be 1/2 (rrid/calibration.ts).
  calibrate(kb);
  const value = stored(kb, demo, true);
  await putAggregate(trx, 'krt', KB_AGGREGATE, dataVersion, value);
  // What suggestion reads, stored now so that no request has to build it (rrid/suggestion-index.ts).
  await storeSuggestionIndex(trx, suggestionIndexOf(kb, new Set(demo), value.built_at), dataVersion);
  return value;
}

/**
 * Stores the previous base again under a new data version (an import that changed nothing); null when there is
 * none, or when it was stored by an older version of the base (the caller rebuilds it then).
 */
export async function carryKnowledgeBase(trx: Kysely<KrtDatabase>, dataVersion: string): Promise<StoredKnowledgeBase | null> {
  const previous = await getAggregate<StoredKnowledgeBase>(trx, 'krt', KB_AGGREGATE);
  if (!previous || !isCurrentSnapshot(previous.value.snapshot)) return null;
  await putAggregate(trx, 'krt', KB_AGGREGATE, dataVersion, previous.value);
  return previous.value;
}

/**
 * After one paper was re-extracted over HTTP: its observations are replaced in the stored base without a new
 * calibration (leave-one-paper-out over the whole base takes seconds; the next import or `extract` recalibrates).
 */
export async function updateKnowledgeBasePaper(trx: Kysely<KrtDatabase>, dataVersion: string, doi: string): Promise<void> {
  const previous = await getAggregate<StoredKnowledgeBase>(trx, 'krt', KB_AGGREGATE);
  if (previous && !isCurrentSnapshot(previous.value.snapshot)) {
    await rebuildKnowledgeBase(trx, dataVersion);
    return;
  }
  const kb = previous ? RridKnowledgeBase.fromJSON(previous.value.snapshot) : new RridKnowledgeBase();
  const demo = new Set(previous?.value.demo_dois ?? []);
  const builtin = (await sessionsOfDoi(trx, doi)).filter((s) => (BUILTIN_PROVIDERS as readonly string[]).includes(s.provider));
  const best = pickBestSession(builtin);
  const rows = best ? ((await rowsOfSessions(trx, [best.session_id])).get(best.session_id) ?? []) : [];
  if (best && rows.length) {
    kb.addPaper(doi, rows, best.provider);
    if (best.is_demo) demo.add(doi);
    else demo.delete(doi);
  } else {
    kb.removePaper(doi);
    demo.delete(doi);
  }
  const value = stored(kb, demo, false);
  await putAggregate(trx, 'krt', KB_AGGREGATE, dataVersion, value);
  await storeSuggestionIndex(trx, suggestionIndexOf(kb, demo, value.built_at), dataVersion);
}

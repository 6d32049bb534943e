// The RRID knowledge base of the service: built from the best built-in table of every article in the store
// (author tables, else the text extractor; tables written by a language model are left out, so that no RRID
// enters the base that a paper did not write), calibrated (rrid/calibration.ts), and stored as the aggregate
// `rrid_kb` with the data version it was built from. Serving processes keep one copy in memory and reload it
// when the data version changes.
import type { Kysely } from 'kysely';
import { getAggregate, putAggregate } from '../../core/db/datasets.ts';
import type { ServiceContext } from '../../core/service.ts';
import { RridKnowledgeBase, calibrate } from './rrid/index.ts';
import type { KbSnapshot, RridSuggestion, RridValidation } from './rrid/index.ts';
import { bestBuiltinTables, rowsOfSessions, sessionsOfDoi, pickBestSession, BUILTIN_PROVIDERS } from './repository.ts';

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

/** A base that keeps the entry ids of the previous one (ids are part of the API), with no papers yet. */
async function emptyBaseKeepingIds(db: Kysely<any>): Promise<RridKnowledgeBase> {
  const previous = await getAggregate<StoredKnowledgeBase>(db, 'krt', KB_AGGREGATE);
  if (!previous) return new RridKnowledgeBase();
  return RridKnowledgeBase.fromJSON({ ...previous.value.snapshot, papers: {}, calibration: null });
}

/** Rebuilds the base from every article's best built-in table and calibrates it (call inside the import transaction). */
export async function rebuildKnowledgeBase(trx: Kysely<any>, dataVersion: string): Promise<StoredKnowledgeBase> {
  const kb = await emptyBaseKeepingIds(trx);
  const demo: string[] = [];
  for (const table of await bestBuiltinTables(trx)) {
    if (table.rows.length === 0) continue;
    kb.addPaper(table.doi, table.rows, table.provider);
    if (table.is_demo) demo.push(table.doi);
  }
  // Without calibration every confidence would be 1/2 (rrid/calibration.ts).
  calibrate(kb);
  const value = stored(kb, demo, true);
  await putAggregate(trx, 'krt', KB_AGGREGATE, dataVersion, value);
  return value;
}

/** Stores the previous base again under a new data version (an import that changed nothing). */
export async function carryKnowledgeBase(trx: Kysely<any>, dataVersion: string): Promise<StoredKnowledgeBase | null> {
  const previous = await getAggregate<StoredKnowledgeBase>(trx, 'krt', KB_AGGREGATE);
  if (!previous) return null;
  await putAggregate(trx, 'krt', KB_AGGREGATE, dataVersion, previous.value);
  return previous.value;
}

/**
 * After one paper was re-extracted over HTTP: its observations are replaced in the stored base without a new
 * calibration (leave-one-paper-out over the whole base takes seconds; the next import or `extract` recalibrates).
 */
export async function updateKnowledgeBasePaper(trx: Kysely<any>, dataVersion: string, doi: string): Promise<void> {
  const previous = await getAggregate<StoredKnowledgeBase>(trx, 'krt', KB_AGGREGATE);
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
  await putAggregate(trx, 'krt', KB_AGGREGATE, dataVersion, stored(kb, demo, false));
}

export interface LoadedKnowledgeBase {
  kb: RridKnowledgeBase;
  demo: ReadonlySet<string>;
  /** When the base was built (keys the validation cache; an import that changes nothing keeps it). */
  version: string;
}

/** The serving process's copy of the base, reloaded when the service's data version changes. */
export class KnowledgeBaseHolder {
  private loaded: { key: string; value: LoadedKnowledgeBase | null } | null = null;
  private pending: Promise<LoadedKnowledgeBase | null> | null = null;
  private readonly ctx: ServiceContext;

  constructor(ctx: ServiceContext) {
    this.ctx = ctx;
  }

  /** The current base, or null when nothing has been imported. */
  async get(): Promise<LoadedKnowledgeBase | null> {
    const key = (await this.ctx.dataVersion.current()) ?? 'none';
    if (this.loaded?.key === key) return this.loaded.value;
    this.pending ??= this.load(key).finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async load(key: string): Promise<LoadedKnowledgeBase | null> {
    const found = await getAggregate<StoredKnowledgeBase>(this.ctx.db.kysely, 'krt', KB_AGGREGATE);
    const value = found
      ? { kb: RridKnowledgeBase.fromJSON(found.value.snapshot), demo: new Set(found.value.demo_dois), version: found.value.built_at }
      : null;
    this.loaded = { key, value };
    return value;
  }
}

// ---- honesty about generated demo articles ------------------------------------------------------------------------

function demoOnly(papers: Iterable<string>, demo: ReadonlySet<string>): boolean {
  let any = false;
  for (const doi of papers) {
    if (!demo.has(doi)) return false;
    any = true;
  }
  return any;
}

/**
 * A validation whose only evidence is generated demo articles is not a validation: such an RRID is reported as
 * `unverified` (is_valid false), and the recommendation says where its "evidence" came from.
 */
export function labelDemoValidation(validation: RridValidation, loaded: LoadedKnowledgeBase | null): RridValidation {
  if (!loaded || loaded.demo.size === 0) return validation;
  const id = validation.rrid.replace(/^RRID:/, '');
  const entry = loaded.kb.entryByRrid(id);
  if (validation.status === 'valid' && entry && demoOnly(entry.papers.keys(), loaded.demo)) {
    return {
      ...validation,
      is_valid: false,
      status: 'unverified',
      confidence_score: 0.5,
      recommendations: [
        `${validation.rrid} appears only in generated demo articles of this installation, which are not real papers; it is not evidence of a real resource. Check it at https://scicrunch.org/resolver/${validation.rrid}.`,
      ],
      papers: 0,
    };
  }
  return {
    ...validation,
    recommendations: validation.recommendations.map((text) => {
      const m = /^RRID:(\S+) is written by \d+ papers? of the local store\.$/.exec(text);
      const known = m ? loaded.kb.entryByRrid(m[1]) : undefined;
      return known && demoOnly(known.papers.keys(), loaded.demo)
        ? text.replace(/\.$/, ' (generated demo articles only, not real papers).')
        : text;
    }),
  };
}

/** Suggestions whose evidence is generated demo articles say so in their reasoning. */
export function labelDemoSuggestions(suggestions: RridSuggestion[], loaded: LoadedKnowledgeBase | null): RridSuggestion[] {
  if (!loaded || loaded.demo.size === 0) return suggestions;
  return suggestions.map((s) => {
    const entry = loaded.kb.entryById(s.id);
    if (!entry || !demoOnly(entry.papers.keys(), loaded.demo)) return s;
    return {
      ...s,
      reasoning: `${s.reasoning} Evidence comes only from generated demo articles of this installation, not from real papers.`,
    };
  });
}

export function demoEvidence(entryPapers: Iterable<string>, loaded: LoadedKnowledgeBase | null): boolean {
  return loaded ? demoOnly(entryPapers, loaded.demo) : false;
}

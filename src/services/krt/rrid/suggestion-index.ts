// What RRID suggestion needs, built once when the knowledge base is built (at import) and stored, so that a
// suggestion reads a few indexed rows instead of loading and rebuilding the whole base: the first suggestion after
// a start or an import costs what later ones cost.
//
// Rows: one per entry with an RRID (names, vendors, catalog numbers, counts, whether only generated demo articles
// write it); retrieval keys (the entry's catalog numbers and name tokens); each token's document frequency over
// all entries (for the IDF weights of name similarity); and the number of entries and the calibration. Ranking is
// suggest.ts's, on the entries the keys retrieve: the answers are the same as from the base in memory.

import type { ResourceType } from '../extract/krt-row.ts';
import { catalogKey } from '../extract/identifier.ts';
import type { Calibration } from './calibration-map.ts';
import type { RridKnowledgeBase } from './knowledge-base.ts';
import { idfWeight } from './similarity.ts';
import {
  comparedNames,
  MAX_RETRIEVAL_FREQUENCY,
  planQuery,
  retrievalTokens,
  answerFromPool,
  answerJoinedName,
  joinedNameParts,
  type NameLookUp,
  type RridQuery,
  type SuggestAnswer,
  type RridSuggestion,
  type SuggestableEntry,
  type SuggestOptions,
} from './suggest.ts';

export interface StoredEntryDetail {
  names: [string, number][];
  vendors: [string, number][];
  catalogs: [string, number][];
  repairedFrom: [string, number][];
}

export interface StoredEntry {
  id: number;
  rrid: string;
  resource_type: ResourceType;
  papers: number;
  mentions: number;
  demo_only: boolean;
  detail: StoredEntryDetail;
}

type IndexKeyKind = 'catalog' | 'token';

interface StoredKey {
  kind: IndexKeyKind;
  key: string;
  entry_id: number;
}

export interface SuggestionIndexMeta {
  /** Entries the document frequencies count (all entries of the base, with or without an RRID). */
  documents: number;
  calibration: Calibration | null;
  built_at: string;
}

export interface SuggestionIndexRows {
  entries: StoredEntry[];
  keys: StoredKey[];
  tokenStats: { token: string; df: number }[];
  meta: SuggestionIndexMeta;
}

/** The stored form of a base's suggestion index. `demo`: DOIs of generated demo articles. */
export function suggestionIndexOf(kb: RridKnowledgeBase, demo: ReadonlySet<string>, builtAt: string): SuggestionIndexRows {
  const entries: StoredEntry[] = [];
  const keys: StoredKey[] = [];
  const df = new Map<string, number>();
  let documents = 0;
  for (const entry of kb.entries()) {
    if (entry.tokens.size > 0) documents++;
    for (const t of entry.tokens) df.set(t, (df.get(t) ?? 0) + 1);
    if (!entry.rrid) continue;
    let demoOnly = entry.papers.size > 0;
    for (const doi of entry.papers.keys()) if (!demo.has(doi)) demoOnly = false;
    entries.push({
      id: entry.id,
      rrid: entry.rrid,
      resource_type: entry.type,
      papers: entry.papers.size,
      mentions: entry.mentions,
      demo_only: demoOnly,
      detail: {
        names: [...entry.names],
        vendors: [...entry.vendors],
        catalogs: [...entry.catalogs],
        repairedFrom: [...entry.repairedFrom],
      },
    });
    for (const key of new Set([...entry.catalogs.keys()].map(catalogKey))) if (key) keys.push({ kind: 'catalog', key, entry_id: entry.id });
    for (const token of entry.tokens) keys.push({ kind: 'token', key: token, entry_id: entry.id });
  }
  entries.sort((a, b) => a.id - b.id);
  return {
    entries,
    keys,
    tokenStats: [...df].map(([token, n]) => ({ token, df: n })).sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0)),
    meta: { documents, calibration: kb.calibration, built_at: builtAt },
  };
}

/** Reads a stored index (the repository implements it over the database; tests over the rows). */
export interface SuggestionIndexReader {
  meta(): Promise<SuggestionIndexMeta | null>;
  documentFrequencies(tokens: readonly string[]): Promise<Map<string, number>>;
  entryIds(kind: IndexKeyKind, keys: readonly string[]): Promise<number[]>;
  entries(ids: readonly number[]): Promise<StoredEntry[]>;
}

/** A stored entry as ranking reads it. */
function suggestableOf(stored: StoredEntry): SuggestableEntry {
  return {
    id: stored.id,
    rrid: stored.rrid,
    type: stored.resource_type,
    names: new Map(stored.detail.names),
    vendors: new Map(stored.detail.vendors),
    catalogs: new Map(stored.detail.catalogs),
    papers: { size: stored.papers },
    mentions: stored.mentions,
    repairedFrom: new Map(stored.detail.repairedFrom),
  };
}

export interface IndexedSuggestion extends RridSuggestion {
  /** Only generated demo articles write this RRID. */
  demoOnly: boolean;
}

/** Suggestions from the stored index; null when no index is stored (the caller uses the base in memory). */
export async function suggestFromIndex(
  reader: SuggestionIndexReader,
  query: RridQuery,
  options: SuggestOptions = {},
): Promise<IndexedSuggestion[] | null> {
  return (await answerFromIndex(reader, query, options))?.suggestions ?? null;
}

/** suggestFromIndex with the reason when it abstains (the same answer as answerRrids on the base in memory). */
export async function answerFromIndex(
  reader: SuggestionIndexReader,
  query: RridQuery,
  options: SuggestOptions = {},
): Promise<SuggestAnswer<IndexedSuggestion> | null> {
  const meta = await reader.meta();
  if (!meta) return null;
  const demo = new Map<number, boolean>();
  const answer = (l: IndexLookUp) => answerFromPool(l.pool, l.plan, l.query, l.weight, meta.calibration, options);
  const parts = joinedNameParts(query);
  const whole = await lookUp(reader, meta, query, demo);
  const looked = parts ? await Promise.all(parts.map((part) => lookUp(reader, meta, part, demo))) : [];
  const found = parts
    ? answerJoinedName(
        looked,
        () => answer(whole),
        (i) => answer(looked[i]),
      )
    : answer(whole);
  return { ...found, suggestions: found.suggestions.map((s) => ({ ...s, demoOnly: demo.get(s.id) ?? false })) };
}

interface IndexLookUp extends NameLookUp {
  weight: (token: string) => number;
}

/** The entries a query retrieves from the stored index, and the IDF weights of the tokens ranking will weigh. */
async function lookUp(
  reader: SuggestionIndexReader,
  meta: SuggestionIndexMeta,
  query: RridQuery,
  demo: Map<number, boolean>,
): Promise<IndexLookUp> {
  const plan = planQuery(query);
  const queryDf = await reader.documentFrequencies(plan.tokens);
  const frequency = (t: string) => queryDf.get(t) ?? 0;
  const retrieving = retrievalTokens(plan, frequency).filter((t) => frequency(t) > 0 && frequency(t) <= MAX_RETRIEVAL_FREQUENCY);
  const ids = new Set<number>([
    ...(plan.catalog ? await reader.entryIds('catalog', [plan.catalog]) : []),
    ...(retrieving.length ? await reader.entryIds('token', retrieving) : []),
  ]);
  const stored = ids.size ? await reader.entries([...ids]) : [];
  for (const e of stored) demo.set(e.id, e.demo_only);
  const pool = stored.map(suggestableOf);
  // Document frequencies of every token ranking will weigh.
  const needed = new Set(plan.tokens);
  for (const entry of pool) for (const { tokens } of comparedNames(entry, plan)) for (const t of tokens) needed.add(t);
  const df = await reader.documentFrequencies([...needed]);
  return { query, plan, pool, weight: (t: string) => idfWeight(meta.documents, df.get(t) ?? 0) };
}

/** A reader over rows held in memory (tests, and a check that the stored index answers as the base does). */
export function rowsReader(rows: SuggestionIndexRows): SuggestionIndexReader {
  const df = new Map(rows.tokenStats.map((s) => [s.token, s.df]));
  const byKey = new Map<string, number[]>();
  for (const k of rows.keys) {
    const list = byKey.get(`${k.kind}\n${k.key}`) ?? [];
    list.push(k.entry_id);
    byKey.set(`${k.kind}\n${k.key}`, list);
  }
  const entries = new Map(rows.entries.map((e) => [e.id, e]));
  return {
    meta: () => Promise.resolve(rows.meta),
    documentFrequencies: (tokens) => Promise.resolve(new Map(tokens.filter((t) => df.has(t)).map((t) => [t, df.get(t)!]))),
    entryIds: (kind, keys) => Promise.resolve([...new Set(keys.flatMap((k) => byKey.get(`${kind}\n${k}`) ?? []))]),
    entries: (ids) => Promise.resolve(ids.map((id) => entries.get(id)).filter((e): e is StoredEntry => e !== undefined)),
  };
}

// What the knowledge base proposes for the empty identifier cells of a table built from text: the RRID and the
// catalog number that other papers wrote for the same resource, found by the row's name (the papers' consensus,
// consensus.ts keys: case, Greek letters, separators, kind words and word order aside) or, for an RRID, by the
// catalog number the text gave (suggest.ts ranking); when the text names the row's supplier, a catalog number or an
// antibody's RRID comes only from papers that wrote that supplier. Every proposal is an identifier a paper wrote verbatim, with
// the papers that wrote it, and the features the fill model (fill-model.ts) turns into a probability of being right:
// how clearly the papers agree, how many wrote it, whether type and vendor agree, how sure the extractor was of the
// row. Registries are not asked here: their entries are facts checked by validation, the papers are the votes.

import { catalogKey, parseIdentifierText } from '../extract/identifier.ts';
import type { KrtRow, ResourceType } from '../extract/krt-row.ts';
import { vendorKey } from '../extract/vendors.ts';
import { nameKeys } from './consensus.ts';
import { cleanResourceName, majority, type KbEntry, type RridKnowledgeBase } from './knowledge-base.ts';
import { nameTokens } from './similarity.ts';
import { answerRrids } from './suggest.ts';

type ProposalKind = 'rrid' | 'catalog';

export interface FillProposal {
  /** The row's position in the table. */
  row: number;
  kind: ProposalKind;
  /** As a paper wrote it: "CVCL_0063" (no "RRID:"), "11668019". */
  value: string;
  /** The vendor the papers name with a catalog number (empty for an RRID or when none). */
  vendor: string;
  /** How it was found: the catalog number the row carries, or the row's name. */
  by: 'catalog' | 'name';
  /** Its place among the row's proposals of its kind, by mentions (0: the one most mentions vote for). */
  rank: number;
  /** Mentions of the name with this identifier; with any identifier of this kind. */
  agreeing: number;
  total: number;
  /** DOIs of the papers that write the identifier for this resource. */
  evidence: string[];
  /** Sparse binary features of the fill model. */
  features: string[];
}

/** Query tokens found in more entries than this do not retrieve (as in suggest.ts). */
const MAX_RETRIEVAL = 2000;

function compatibleType(row: ResourceType, entry: ResourceType): 'same' | 'other' | 'different' {
  if (row === entry) return 'same';
  return row === 'Other' || entry === 'Other' ? 'other' : 'different';
}

function bucket(value: number, edges: readonly number[]): string {
  let i = 0;
  while (i < edges.length && value >= edges[i]) i++;
  return String(i);
}

/**
 * Tokens that retrieve a name's entries: its own, each split where letters meet digits, and all of them joined, so that
 * "HEK293T" finds "HEK-293T cells" and "HEK-293T" finds "HEK293T" (the consensus keys then decide).
 */
function retrievalTokensOf(name: string): string[] {
  const tokens = nameTokens(name);
  const out = new Set(tokens);
  for (const t of tokens) for (const piece of t.split(/(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])/)) if (piece.length >= 2) out.add(piece);
  if (tokens.length > 1) out.add(tokens.join(''));
  return [...out];
}

/** Entries sharing a rare retrieval token of the name (any entry: with an RRID, a catalog number or neither). */
function namePool(kb: RridKnowledgeBase, name: string): KbEntry[] {
  const frequency = (t: string) => kb.tokenStats.documentFrequency(t);
  const rare = retrievalTokensOf(name)
    .filter((t) => frequency(t) > 0)
    .sort((a, b) => frequency(a) - frequency(b))
    .slice(0, 4);
  const pool = new Map<number, KbEntry>();
  for (const t of rare) {
    const hits = kb.entriesWithToken(t);
    if (hits.length > MAX_RETRIEVAL) continue;
    for (const e of hits) pool.set(e.id, e);
  }
  return [...pool.values()];
}

interface NameVote {
  entry: KbEntry;
  /** Mentions of the name with this entry's identifier. */
  mentions: number;
  /** Some paper wrote the name exactly as the row does (case and spacing aside). */
  exact: boolean;
  /** The papers that wrote the name with it. */
  papers: Set<string>;
  /** What each of those mentions wrote beside the name: its supplier and catalog numbers. */
  written: { doi: string; vendor: string; catalogs: readonly string[] }[];
}

// Keys of the names the base writes, kept between rows (the same entries come back for many rows).
const keyCache = new Map<string, string[]>();
function keysOf(name: string): string[] {
  let keys = keyCache.get(name);
  if (!keys) {
    if (keyCache.size > 100_000) keyCache.clear();
    keys = nameKeys(name);
    keyCache.set(name, keys);
  }
  return keys;
}

const plain = (name: string) => cleanResourceName(name).toLowerCase().replace(/\s+/g, ' ');

/**
 * Entries whose papers write the name (by its keys), with the mentions that do: each mention a paper's observation
 * that writes the name with the entry's identifier, so that what a vote carries was written for this resource and not
 * for another one the entry also gathers (an RRID's entry holds every name papers wrote with it: "HEK293" written once
 * with HEK293T's RRID does not make HEK293T's catalog numbers and papers HEK293's). `exceptPaper`'s mentions are left
 * out.
 */
function votesForName(kb: RridKnowledgeBase, pool: readonly KbEntry[], name: string, exceptPaper?: string): NameVote[] {
  const wanted = new Set(nameKeys(name));
  if (wanted.size === 0) return [];
  const asWritten = plain(name);
  const names = (written: string) => keysOf(written).some((k) => wanted.has(k));
  const out: NameVote[] = [];
  for (const entry of pool) {
    if (![...entry.names.keys()].some(names)) continue;
    const vote: NameVote = { entry, mentions: 0, exact: false, papers: new Set(), written: [] };
    for (const { doi, observation } of kb.observationsOf(entry)) {
      if (doi === exceptPaper || !names(observation.name)) continue;
      vote.mentions++;
      if (plain(observation.name) === asWritten) vote.exact = true;
      vote.papers.add(doi);
      vote.written.push({ doi, vendor: observation.vendor, catalogs: observation.catalogs });
    }
    if (vote.mentions > 0) out.push(vote);
  }
  return out;
}

function features(
  kind: ProposalKind,
  by: 'catalog' | 'name',
  agreeing: number,
  total: number,
  papers: number,
  rowType: ResourceType,
  entryType: ResourceType,
  vendor: 'same' | 'different' | 'none',
  exact: boolean,
  rowConfidence: number | undefined,
  rowHasIdentifier: boolean,
): string[] {
  const share = agreeing / (total + 1);
  const f = [
    `kind:${kind}`,
    `by:${kind}:${by}`,
    `share:${kind}:${bucket(share, [0.25, 0.4, 0.5, 0.6, 0.67, 0.75, 0.8, 0.9])}`,
    `agree:${bucket(agreeing, [2, 3, 5, 10])}`,
    `papers:${bucket(papers, [2, 3, 5, 10])}`,
    `split:${agreeing === total ? 'none' : 'some'}`,
    `rowtype:${rowType}`,
    `type:${compatibleType(rowType, entryType)}`,
    `vendor:${vendor}`,
    `exact:${exact}`,
    `rowid:${rowHasIdentifier}`,
  ];
  if (rowConfidence !== undefined) f.push(`rowconf:${bucket(rowConfidence, [0.3, 0.5, 0.7, 0.9])}`);
  return f;
}

/** The papers of an entry that wrote this catalog number in it (an RRID's entry gathers papers that wrote none). */
function papersWriting(kb: RridKnowledgeBase, entry: KbEntry, catalog: string): string[] {
  const wanted = catalogKey(catalog);
  return [...entry.papers.keys()].filter((doi) =>
    kb
      .paper(doi)
      ?.observations.some(
        (o) =>
          (o.key === entry.key || (entry.rrid !== null && o.repair === entry.rrid)) && o.catalogs.some((c) => catalogKey(c) === wanted),
      ),
  );
}

/**
 * The catalog numbers papers wrote beside the name, most mentions first: one vote per mention for each catalog number
 * it wrote (as written: the spelling most mentions use; with the supplier most of them name). A catalog number
 * belongs to its supplier: when the text names the row's supplier (`rowVendor`), only mentions that name it vote.
 */
function catalogsByName(
  votes: readonly NameVote[],
  rowVendor: string,
): { value: string; vendor: string; mentions: number; total: number; papers: Set<string>; vote: NameVote }[] {
  interface Option {
    spellings: Map<string, number>;
    vendors: Map<string, number>;
    mentions: number;
    papers: Set<string>;
    votes: Map<NameVote, number>;
  }
  const byCatalog = new Map<string, Option>();
  let total = 0;
  for (const v of votes)
    for (const w of v.written) {
      if (w.catalogs.length === 0 || (rowVendor && vendorKey(w.vendor) !== rowVendor)) continue;
      total++;
      for (const [key, value] of new Map(w.catalogs.map((c) => [catalogKey(c), c]))) {
        let o = byCatalog.get(key);
        if (!o) byCatalog.set(key, (o = { spellings: new Map(), vendors: new Map(), mentions: 0, papers: new Set(), votes: new Map() }));
        o.mentions++;
        o.papers.add(w.doi);
        o.spellings.set(value, (o.spellings.get(value) ?? 0) + 1);
        if (w.vendor) o.vendors.set(w.vendor, (o.vendors.get(w.vendor) ?? 0) + 1);
        o.votes.set(v, (o.votes.get(v) ?? 0) + 1);
      }
    }
  return [...byCatalog.values()]
    .map((o) => ({
      value: majority(o.spellings)!,
      vendor: majority(o.vendors) ?? '',
      mentions: o.mentions,
      total,
      papers: o.papers,
      // The entry most of its mentions were counted in (for the type and the supplier of the proposal's features).
      vote: majority(o.votes)!,
    }))
    .sort((a, b) => b.mentions - a.mentions || b.papers.size - a.papers.size || a.vote.entry.id - b.vote.entry.id);
}

/** The RRID of the entry the catalog number the text gave finds (the ranking of suggest.ts, with the row's vendor). */
function rridByCatalog(
  kb: RridKnowledgeBase,
  row: KrtRow,
  i: number,
  catalog: string,
  vendorOf: (e: KbEntry) => 'same' | 'different' | 'none',
  conf: number | undefined,
  exceptPaper: string | undefined,
): FillProposal | null {
  const same = kb.entriesWithCatalog(catalog).filter((e) => e.rrid);
  // Only an entry that writes this catalog number with an RRID can be proposed: without one, no ranking is needed.
  if (same.length === 0) return null;
  const rowType = row['RESOURCE TYPE'];
  const first = answerRrids(
    kb,
    { resourceName: row['RESOURCE NAME'], resourceType: rowType, catalogNumber: catalog, vendor: row.SOURCE },
    { limit: 1, minConfidence: 0 },
  ).suggestions[0];
  const entry = first && first.id !== undefined ? kb.entryById(first.id) : undefined;
  if (!entry?.rrid || ![...entry.catalogs.keys()].some((c) => catalogKey(c) === catalogKey(catalog))) return null;
  // The evidence: the papers that wrote this catalog number with the RRID (the entry's other papers wrote the RRID for
  // whatever name they gave it).
  const evidence = papersWriting(kb, entry, catalog)
    .filter((doi) => doi !== exceptPaper)
    .sort();
  if (evidence.length === 0) return null;
  const agreeing = entry.mentions;
  const total = same.reduce((s, e) => s + e.mentions, 0);
  return {
    row: i,
    kind: 'rrid',
    value: entry.rrid,
    vendor: '',
    by: 'catalog',
    rank: 0,
    agreeing,
    total,
    evidence,
    features: features(
      'rrid',
      'catalog',
      agreeing,
      total,
      evidence.length,
      rowType,
      entry.type,
      vendorOf(entry),
      [...entry.names.keys()].some((n) => plain(n) === plain(row['RESOURCE NAME'])),
      conf,
      true,
    ),
  };
}

/**
 * Proposals for the rows' empty identifier cells (rows with an RRID get no RRID proposal; rows with a catalog
 * number get no catalog proposal). `rowConfidence[i]`: the extractor's probability that row i is a resource.
 * `perKind`: how many identifiers of each kind a row gets at most, most mentions first (the fills write the first;
 * the served candidates list the others too). `exceptPaper`: the paper the rows come from, whose own mentions are
 * not evidence for its rows (see identifierCandidates).
 */
export function fillProposals(
  kb: RridKnowledgeBase,
  rows: readonly KrtRow[],
  rowConfidence?: readonly number[],
  perKind = 1,
  exceptPaper?: string,
): FillProposal[] {
  const out: FillProposal[] = [];
  rows.forEach((row, i) => {
    const parts = parseIdentifierText(row.IDENTIFIER, { source: row.SOURCE });
    const hasRrid = parts.some((p) => p.kind === 'rrid');
    const catalog = parts.find((p) => p.kind === 'catalog')?.value ?? '';
    const rowType = row['RESOURCE TYPE'];
    const rowVendor = row.SOURCE.trim() ? vendorKey(row.SOURCE) : '';
    const vendorOf = (e: KbEntry): 'same' | 'different' | 'none' =>
      !rowVendor || e.vendors.size === 0 ? 'none' : [...e.vendors.keys()].some((v) => vendorKey(v) === rowVendor) ? 'same' : 'different';
    const conf = rowConfidence?.[i];
    const votes = votesForName(kb, namePool(kb, row['RESOURCE NAME']), row['RESOURCE NAME'], exceptPaper).filter(
      (v) => compatibleType(rowType, v.entry.type) !== 'different',
    );

    if (!hasRrid) {
      const byCatalog = catalog ? rridByCatalog(kb, row, i, catalog, vendorOf, conf, exceptPaper) : null;
      if (byCatalog) out.push(byCatalog);
      const proposed = byCatalog !== null;
      // An antibody's RRID names one supplier's product: with the supplier in the text, the entries papers wrote with
      // it decide, and none from another supplier is proposed. A cell line or a tool has one RRID whoever supplied it.
      const named = votes.filter((v) => v.entry.rrid);
      const sameVendor = named.filter((v) => vendorOf(v.entry) === 'same');
      const withRrid = sameVendor.length ? sameVendor : rowType === 'Antibody' ? named.filter((v) => vendorOf(v.entry) === 'none') : named;
      if (!proposed && withRrid.length) {
        const total = withRrid.reduce((s, v) => s + v.mentions, 0);
        const ranked = [...withRrid].sort((a, b) => b.mentions - a.mentions || b.papers.size - a.papers.size || a.entry.id - b.entry.id);
        ranked.slice(0, perKind).forEach((best, rank) =>
          out.push({
            row: i,
            kind: 'rrid',
            value: best.entry.rrid!,
            vendor: '',
            by: 'name',
            rank,
            agreeing: best.mentions,
            total,
            evidence: [...best.papers].sort(),
            features: features(
              'rrid',
              'name',
              best.mentions,
              total,
              best.papers.size,
              rowType,
              best.entry.type,
              vendorOf(best.entry),
              best.exact,
              conf,
              catalog !== '',
            ),
          }),
        );
      }
    }

    if (!catalog) {
      const ranked = catalogsByName(votes, rowVendor);
      ranked.slice(0, perKind).forEach((best, rank) =>
        out.push({
          row: i,
          kind: 'catalog',
          value: best.value,
          vendor: best.vendor,
          by: 'name',
          rank,
          agreeing: best.mentions,
          total: best.total,
          evidence: [...best.papers].sort(),
          features: features(
            'catalog',
            'name',
            best.mentions,
            best.total,
            best.papers.size,
            rowType,
            best.vote.entry.type,
            vendorOf(best.vote.entry),
            best.vote.exact,
            conf,
            hasRrid,
          ),
        }),
      );
    }
  });
  return out;
}

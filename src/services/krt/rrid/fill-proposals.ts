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
  /** Mentions of the name in this entry. */
  mentions: number;
  /** Some paper wrote the name exactly as the row does (case and spacing aside). */
  exact: boolean;
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

/** Entries whose papers write the name (by its keys), with the mentions that do. */
function votesForName(pool: readonly KbEntry[], name: string): NameVote[] {
  const wanted = new Set(nameKeys(name));
  if (wanted.size === 0) return [];
  const asWritten = plain(name);
  const out: NameVote[] = [];
  for (const entry of pool) {
    let mentions = 0;
    let exact = false;
    for (const [written, count] of entry.names)
      if (keysOf(written).some((k) => wanted.has(k))) {
        mentions += count;
        if (plain(written) === asWritten) exact = true;
      }
    if (mentions > 0) out.push({ entry, mentions, exact });
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
 * The catalog numbers mentions of a name vote for, most votes first: one vote per mention, for its entry's most
 * written catalog number. A catalog number belongs to its supplier: when the text names the row's supplier, the
 * caller passes only the entries papers wrote with that supplier.
 */
function catalogsByName(
  kb: RridKnowledgeBase,
  votes: readonly NameVote[],
): { value: string; vendor: string; mentions: number; total: number; papers: Set<string>; vote: NameVote }[] {
  const byCatalog = new Map<string, { value: string; vendor: string; mentions: number; papers: Set<string>; vote: NameVote }>();
  for (const v of votes) {
    const value = majority(v.entry.catalogs);
    if (!value) continue;
    const vendor = majority(v.entry.vendors) ?? '';
    const key = `${vendorKey(vendor)}:${catalogKey(value)}`;
    const current = byCatalog.get(key) ?? { value, vendor, mentions: 0, papers: new Set<string>(), vote: v };
    current.mentions += v.mentions;
    for (const doi of papersWriting(kb, v.entry, value)) current.papers.add(doi);
    if (v.mentions > current.vote.mentions) current.vote = v;
    byCatalog.set(key, current);
  }
  const options = [...byCatalog.values()];
  const total = options.reduce((s, o) => s + o.mentions, 0);
  return options
    .sort((a, b) => b.mentions - a.mentions || b.papers.size - a.papers.size || a.vote.entry.id - b.vote.entry.id)
    .map((o) => ({ ...o, total }));
}

/** The RRID of the entry the catalog number the text gave finds (the ranking of suggest.ts, with the row's vendor). */
function rridByCatalog(
  kb: RridKnowledgeBase,
  row: KrtRow,
  i: number,
  catalog: string,
  vendorOf: (e: KbEntry) => 'same' | 'different' | 'none',
  conf: number | undefined,
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
    evidence: [...entry.papers.keys()].sort(),
    features: features(
      'rrid',
      'catalog',
      agreeing,
      total,
      entry.papers.size,
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
 * the served candidates list the others too).
 */
export function fillProposals(
  kb: RridKnowledgeBase,
  rows: readonly KrtRow[],
  rowConfidence?: readonly number[],
  perKind = 1,
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
    const votes = votesForName(namePool(kb, row['RESOURCE NAME']), row['RESOURCE NAME']).filter(
      (v) => compatibleType(rowType, v.entry.type) !== 'different',
    );

    if (!hasRrid) {
      const byCatalog = catalog ? rridByCatalog(kb, row, i, catalog, vendorOf, conf) : null;
      if (byCatalog) out.push(byCatalog);
      const proposed = byCatalog !== null;
      // An antibody's RRID names one supplier's product: with the supplier in the text, the entries papers wrote with
      // it decide, and none from another supplier is proposed. A cell line or a tool has one RRID whoever supplied it.
      const named = votes.filter((v) => v.entry.rrid);
      const sameVendor = named.filter((v) => vendorOf(v.entry) === 'same');
      const withRrid = sameVendor.length ? sameVendor : rowType === 'Antibody' ? named.filter((v) => vendorOf(v.entry) === 'none') : named;
      if (!proposed && withRrid.length) {
        const total = withRrid.reduce((s, v) => s + v.mentions, 0);
        const ranked = [...withRrid].sort(
          (a, b) => b.mentions - a.mentions || b.entry.papers.size - a.entry.papers.size || a.entry.id - b.entry.id,
        );
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
            evidence: [...best.entry.papers.keys()].sort(),
            features: features(
              'rrid',
              'name',
              best.mentions,
              total,
              best.entry.papers.size,
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
      const ranked = catalogsByName(kb, rowVendor ? votes.filter((vote) => vendorOf(vote.entry) === 'same') : votes);
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

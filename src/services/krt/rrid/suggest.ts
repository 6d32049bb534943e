// RRID suggestions: knowledge-base entries that carry an RRID, ranked by how well they match what the client
// knows about a resource (catalog number, vendor, name, type). Only RRIDs that papers in the base actually
// wrote are ever returned; nothing matches → no suggestions.
//
// Ranking score (raw, unbounded): a weighted sum of
//   3.0 × name similarity (IDF-weighted Dice of name tokens, synonym-aware, best of the entry's names)
//   2.0 × catalog number equal (normalised: case, spaces and dashes ignored)
//   1.0 × catalog equal and vendor equal, 0.8 × vendor equal, −0.8 × vendor different
//   0.3 × type agreement (−0.3 when the client's type differs), 0.15 × ln(1 + papers)
// A candidate needs an equal catalog number or a name similarity of at least 0.35.
// confidence_score is that raw score mapped through the base's calibration (calibration.ts): the observed
// share of correct suggestions at that score in a leave-one-paper-out experiment, isotonic in the score.

import { catalogKey, parseIdentifierText } from '../extract/identifier.ts';
import { resourceTypeFromText, type ResourceType } from '../extract/krt-row.ts';
import { vendorKey } from '../extract/vendors.ts';
import { calibratedProbability } from './calibration.ts';
import { cleanResourceName, type KbEntry, type RridKnowledgeBase } from './knowledge-base.ts';
import { nameTokens, weightedDice } from './similarity.ts';

export interface RridQuery {
  resourceName: string;
  resourceType?: string;
  vendor?: string;
  catalogNumber?: string;
}

export interface RridSuggestion {
  /** Knowledge-base entry id. */
  id: number;
  suggested_rrid: string;
  confidence_score: number;
  reasoning: string;
  vendor: string;
  catalog_number: string;
  resource_name: string;
  resource_type: ResourceType;
  /** The ranking score before calibration. */
  raw_score: number;
  papers: number;
  mentions: number;
}

export interface ScoredCandidate {
  entry: KbEntry;
  raw: number;
  catalogMatch: boolean;
  vendorMatch: boolean | null;
  nameSimilarity: number;
  bestName: string;
}

const MIN_NAME_SIMILARITY = 0.35;

/** The catalog number in what a client sent ("Cat# ab290", "ab290", "#9706S"). */
export function queryCatalogKey(catalogNumber: string | undefined): string {
  if (!catalogNumber?.trim()) return '';
  const parts = parseIdentifierText(catalogNumber);
  const catalog = parts.find((p) => p.kind === 'catalog')?.value ?? catalogNumber.trim().replace(/^#/, '');
  return catalogKey(catalog);
}

/** Candidates with their raw scores, best first (no calibration, no cut-off but eligibility). */
export function scoreCandidates(kb: RridKnowledgeBase, query: RridQuery): ScoredCandidate[] {
  const type = query.resourceType ? resourceTypeFromText(query.resourceType) : null;
  const software = type === 'Software/code';
  const name = cleanResourceName(query.resourceName ?? '');
  const qTokens = nameTokens(name, { dropVersions: software });
  const qCatalog = queryCatalogKey(query.catalogNumber);
  const qVendor = query.vendor?.trim() ? vendorKey(query.vendor) : '';
  const weight = (t: string) => kb.tokenStats.weight(t);

  const pool = new Map<number, KbEntry>();
  if (qCatalog) for (const e of kb.entriesWithCatalog(qCatalog)) if (e.rrid) pool.set(e.id, e);
  // Retrieval by the rarest query tokens (common ones such as "antibody" would pull in half the base).
  const rare = [...qTokens].sort((a, b) => kb.tokenStats.documentFrequency(a) - kb.tokenStats.documentFrequency(b)).slice(0, 4);
  for (const t of rare) {
    const hits = kb.entriesWithToken(t);
    if (hits.length > 2000) continue;
    for (const e of hits) if (e.rrid) pool.set(e.id, e);
  }

  const scored: ScoredCandidate[] = [];
  for (const entry of pool.values()) {
    const catalogMatch = qCatalog !== '' && [...entry.catalogs.keys()].some((c) => catalogKey(c) === qCatalog);
    let nameSimilarity = 0;
    let bestName = '';
    const names = [...entry.names].sort((a, b) => b[1] - a[1]).slice(0, 6);
    for (const [n] of names) {
      const sim = weightedDice(qTokens, nameTokens(n, { dropVersions: software || entry.type === 'Software/code' }), weight);
      if (sim > nameSimilarity) {
        nameSimilarity = sim;
        bestName = n;
      }
    }
    if (!bestName) bestName = names[0]?.[0] ?? '';
    if (!catalogMatch && nameSimilarity < MIN_NAME_SIMILARITY) continue;
    let vendorMatch: boolean | null = null;
    if (qVendor && entry.vendors.size > 0) vendorMatch = [...entry.vendors.keys()].some((v) => vendorKey(v) === qVendor);
    const typeAgreement = type ? (entry.type === type ? 1 : -1) : 0;
    const raw =
      3.0 * nameSimilarity +
      (catalogMatch ? 2.0 : 0) +
      (catalogMatch && vendorMatch === true ? 1.0 : 0) +
      (vendorMatch === true ? 0.8 : vendorMatch === false ? -0.8 : 0) +
      0.3 * typeAgreement +
      0.15 * Math.log1p(entry.papers.size);
    scored.push({ entry, raw, catalogMatch, vendorMatch, nameSimilarity, bestName });
  }
  scored.sort((a, b) => b.raw - a.raw || b.entry.papers.size - a.entry.papers.size || a.entry.id - b.entry.id);
  return scored;
}

function topKey<K>(map: Map<K, number>): K | undefined {
  let best: K | undefined;
  let count = -1;
  for (const [k, c] of map)
    if (c > count) {
      best = k;
      count = c;
    }
  return best;
}

function reasoningOf(c: ScoredCandidate, query: RridQuery, competitors: number): string {
  const e = c.entry;
  const bits: string[] = [];
  if (c.catalogMatch) bits.push(`catalog number ${query.catalogNumber?.trim()} is listed with this RRID`);
  if (c.vendorMatch === true) bits.push(`vendor ${query.vendor?.trim()} matches`);
  if (c.vendorMatch === false) bits.push(`vendor differs (papers name ${[...e.vendors.keys()].slice(0, 2).join(', ')})`);
  if (c.nameSimilarity > 0) bits.push(`name similarity ${c.nameSimilarity.toFixed(2)} to "${c.bestName}"`);
  bits.push(
    `RRID:${e.rrid} written in ${e.papers.size} paper${e.papers.size === 1 ? '' : 's'} (${e.mentions} mention${e.mentions === 1 ? '' : 's'})`,
  );
  if (competitors > 0)
    bits.push(`${competitors} other RRID${competitors === 1 ? '' : 's'} share this catalog number in the base, with fewer papers`);
  return `${bits.join('; ')}.`;
}

export interface SuggestOptions {
  limit?: number;
}

/** Ranked RRID suggestions with calibrated confidence; [] when nothing in the base matches. */
export function suggestRrids(kb: RridKnowledgeBase, query: RridQuery, options: SuggestOptions = {}): RridSuggestion[] {
  const limit = Math.max(1, Math.min(options.limit ?? 5, 50));
  const scored = scoreCandidates(kb, query).slice(0, limit);
  const catalogHits = scored.filter((c) => c.catalogMatch).length;
  return scored.map((c, rank) => {
    const e = c.entry;
    const catalogs = [...e.catalogs].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    const matchingCatalog = c.catalogMatch ? catalogs.find((k) => catalogKey(k) === queryCatalogKey(query.catalogNumber)) : undefined;
    return {
      id: e.id,
      suggested_rrid: `RRID:${e.rrid}`,
      confidence_score: calibratedProbability(kb.calibration, c.raw),
      reasoning: reasoningOf(c, query, c.catalogMatch && rank === 0 ? catalogHits - 1 : 0),
      vendor: topKey(e.vendors) ?? '',
      catalog_number: matchingCatalog ?? catalogs[0] ?? '',
      resource_name: topKey(e.names) ?? c.bestName,
      resource_type: e.type,
      raw_score: Number(c.raw.toFixed(4)),
      papers: e.papers.size,
      mentions: e.mentions,
    };
  });
}

// RRID suggestions: knowledge-base entries that carry an RRID, ranked by how well they match what the client
// knows about a resource (catalog number, vendor, name, type). Only RRIDs that papers in the base actually
// wrote are ever returned; nothing matches, or nothing is likely enough to be right → no suggestions.
//
// Ranking, in tiers (a higher tier always comes first):
//   2  the catalog number is equal (normalised: case, spaces and dashes ignored) and the vendor is the same
//      (or the same company group: Invitrogen = Thermo Fisher)
//   1  the catalog number is equal and one side names no vendor
//   0  everything else (a name match; an equal catalog number from another vendor)
// so an exact catalog-number match with a compatible vendor outranks any name similarity. Within a tier, a raw
// score, a weighted sum of
//   3.0 × name similarity (IDF-weighted Dice of name tokens, synonym-aware, best of the entry's names)
//   2.0 × catalog number equal, 1.0 × catalog and vendor equal, 0.8 × vendor equal, −0.8 × vendor different
//   0.3 × type agreement (−0.3 when the client's type differs), 0.15 × ln(1 + papers)
// then more papers, then the older entry. Ties on tier and raw score are said in `reasoning`.
// The type asked is also a hard filter where it is certain (registry.ts kindOfType, rridCanBe): an antibody asked is
// never answered with a fly stock's BDSC_ nor a cell line asked with an AB_, whatever the name says. Without such a
// type, a name the papers write for resources of different kinds (an antibody's AB_ and a fly stock's BDSC_) is not
// answered, and the reason asks for the type (kindsOfName).
// A name-only query is answered by the papers' consensus on the name (consensus.ts); one whose name joins names
// that papers write apart with different RRIDs ("FIJI/ ImageJ") is not answered (answerJoinedName).
// A candidate needs an equal catalog number or a name similarity of at least 0.35.
// confidence_score is the rank score (10 × tier + raw) mapped through the base's calibration (calibration.ts):
// the share of right suggestions at that score when each paper in turn is left out of the base and asked about.
// Suggestions below 1/2 are not shown (a wrong suggestion is then likelier than a right one): abstaining is
// better than a wrong first suggestion.

import { catalogKey, parseIdentifierText } from '../extract/identifier.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { resourceTypeFromText } from '../extract/classify.ts';
import { vendorKey } from '../extract/vendors.ts';
import { calibratedProbability, type Calibration } from './calibration-map.ts';
import { cleanResourceName, majority, type RridKnowledgeBase, type SuggestableEntry } from './knowledge-base.ts';

export type { SuggestableEntry } from './knowledge-base.ts';
import { antibodiesAgainst, consensusBins, consensusProbability, nameConsensus, nameKeys } from './consensus.ts';
import { kindsDiffer, registryOf, rridCanBe, typeSaysKind } from './registry.ts';
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
  /** The rank score before calibration (10 × tier + raw). */
  raw_score: number;
  papers: number;
  mentions: number;
}

type MatchTier = 0 | 1 | 2;

/** What ranking reads of a knowledge-base entry (a KbEntry, or one read back from the stored index). */
export interface ScoredCandidate {
  entry: SuggestableEntry;
  tier: MatchTier;
  raw: number;
  /** 10 × tier + raw: one number that orders candidates as the ranking does (raw stays within (−2, 10)). */
  rankScore: number;
  catalogMatch: boolean;
  vendorMatch: boolean | null;
  nameSimilarity: number;
  bestName: string;
}

const MIN_NAME_SIMILARITY = 0.35;
/** Query tokens found in more entries than this do not retrieve candidates (they would pull in half the base). */
export const MAX_RETRIEVAL_FREQUENCY = 2000;
/** Suggestions whose calibrated probability of being right is below this are not shown. */
export const ABSTAIN_BELOW = 0.5;

/** The catalog number in what a client sent ("Cat# ab290", "ab290", "#9706S"). */
function queryCatalogKey(catalogNumber: string | undefined): string {
  if (!catalogNumber?.trim()) return '';
  const parts = parseIdentifierText(catalogNumber);
  const catalog = parts.find((p) => p.kind === 'catalog')?.value ?? catalogNumber.trim().replace(/^#/, '');
  return catalogKey(catalog);
}

/** A query as ranking reads it. */
export interface QueryPlan {
  type: ResourceType | null;
  software: boolean;
  tokens: string[];
  catalog: string;
  vendor: string;
}

export function planQuery(query: RridQuery): QueryPlan {
  const type = query.resourceType ? resourceTypeFromText(query.resourceType) : null;
  const software = type === 'Software/code';
  return {
    type,
    software,
    tokens: nameTokens(cleanResourceName(query.resourceName ?? ''), { dropVersions: software }),
    catalog: queryCatalogKey(query.catalogNumber),
    vendor: query.vendor?.trim() ? vendorKey(query.vendor) : '',
  };
}

/** The (up to four) rarest query tokens, which retrieve candidates by name. */
export function retrievalTokens(plan: QueryPlan, documentFrequency: (token: string) => number): string[] {
  return [...plan.tokens].sort((a, b) => documentFrequency(a) - documentFrequency(b)).slice(0, 4);
}

/** The names of an entry that ranking compares (its six most frequent) and their tokens. */
export function comparedNames(entry: SuggestableEntry, plan: QueryPlan): { name: string; tokens: string[] }[] {
  return [...entry.names]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([name]) => ({ name, tokens: nameTokens(name, { dropVersions: plan.software || entry.type === 'Software/code' }) }));
}

/** Ranks retrieved entries (those with an RRID): eligibility, tiers, raw scores; best first. */
function scorePool(pool: Iterable<SuggestableEntry>, plan: QueryPlan, weight: (token: string) => number): ScoredCandidate[] {
  const scored: ScoredCandidate[] = [];
  for (const entry of pool) {
    if (!entry.rrid) continue;
    const catalogMatch = plan.catalog !== '' && [...entry.catalogs.keys()].some((c) => catalogKey(c) === plan.catalog);
    let nameSimilarity = 0;
    let bestName = '';
    const names = comparedNames(entry, plan);
    for (const { name, tokens } of names) {
      const sim = weightedDice(plan.tokens, tokens, weight);
      if (sim > nameSimilarity) {
        nameSimilarity = sim;
        bestName = name;
      }
    }
    if (!bestName) bestName = names[0]?.name ?? '';
    if (!catalogMatch && nameSimilarity < MIN_NAME_SIMILARITY) continue;
    let vendorMatch: boolean | null = null;
    if (plan.vendor && entry.vendors.size > 0) vendorMatch = [...entry.vendors.keys()].some((v) => vendorKey(v) === plan.vendor);
    const typeAgreement = plan.type ? (entry.type === plan.type ? 1 : -1) : 0;
    const raw =
      3.0 * nameSimilarity +
      (catalogMatch ? 2.0 : 0) +
      (catalogMatch && vendorMatch === true ? 1.0 : 0) +
      (vendorMatch === true ? 0.8 : vendorMatch === false ? -0.8 : 0) +
      0.3 * typeAgreement +
      0.15 * Math.log1p(entry.papers.size);
    const tier: MatchTier = catalogMatch ? (vendorMatch === true ? 2 : vendorMatch === null ? 1 : 0) : 0;
    scored.push({ entry, tier, raw, rankScore: 10 * tier + raw, catalogMatch, vendorMatch, nameSimilarity, bestName });
  }
  scored.sort((a, b) => b.tier - a.tier || b.raw - a.raw || b.entry.papers.size - a.entry.papers.size || a.entry.id - b.entry.id);
  return scored;
}

/** The entries with an RRID a query retrieves: by its catalog number and its rarest name tokens. */
export function candidatePool(kb: RridKnowledgeBase, plan: QueryPlan): SuggestableEntry[] {
  const pool = new Map<number, SuggestableEntry>();
  if (plan.catalog) for (const e of kb.entriesWithCatalog(plan.catalog)) if (e.rrid) pool.set(e.id, e);
  for (const t of retrievalTokens(plan, (token) => kb.tokenStats.documentFrequency(token))) {
    const hits = kb.entriesWithToken(t);
    if (hits.length > MAX_RETRIEVAL_FREQUENCY) continue;
    for (const e of hits) if (e.rrid) pool.set(e.id, e);
  }
  return [...pool.values()];
}

/**
 * Candidates with their scores, best first (no calibration, no cut-off but eligibility and the kind asked): what the
 * ranking calibration (calibration.ts) is fitted on, as answerFromPool ranks them.
 */
export function scoreCandidates(kb: RridKnowledgeBase, query: RridQuery): ScoredCandidate[] {
  const plan = planQuery(query);
  return scorePool(ofKindAsked(candidatePool(kb, plan), plan), plan, (t) => kb.tokenStats.weight(t));
}

/** A name-only query: nothing but the name (and perhaps the type) to go by, so the papers' consensus answers it. */
function isNameOnly(query: RridQuery): boolean {
  return !query.catalogNumber?.trim() && !query.vendor?.trim();
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const TIER_TEXT: Record<MatchTier, string> = {
  2: 'catalog number and vendor match',
  1: 'catalog number matches (no vendor to compare)',
  0: 'name similarity',
};

function reasoningOf(c: ScoredCandidate, query: RridQuery, rank: number, all: readonly ScoredCandidate[]): string {
  const e = c.entry;
  const bits: string[] = [];
  if (c.catalogMatch) bits.push(`catalog number ${query.catalogNumber?.trim()} is listed with this RRID`);
  if (c.vendorMatch === true) bits.push(`vendor ${query.vendor?.trim()} matches`);
  if (c.vendorMatch === false) bits.push(`vendor differs (papers name ${[...e.vendors.keys()].slice(0, 2).join(', ')})`);
  if (c.nameSimilarity > 0) bits.push(`name similarity ${c.nameSimilarity.toFixed(2)} to "${c.bestName}"`);
  bits.push(`RRID:${e.rrid} written in ${plural(e.papers.size, 'paper')} (${plural(e.mentions, 'mention')})`);
  if (e.repairedFrom.size > 0)
    bits.push(
      `also written broken as ${[...e.repairedFrom.keys()].map((w) => `"${w}"`).join(', ')}, read as RRID:${e.rrid} because papers write it so`,
    );
  if (rank === 0) {
    const sameCatalog = c.catalogMatch ? all.filter((o) => o !== c && o.catalogMatch).length : 0;
    if (sameCatalog > 0)
      bits.push(`${plural(sameCatalog, 'other RRID')} share this catalog number in the base, with fewer papers or another vendor`);
    // A better-named candidate ranked lower: say why.
    const betterNamed = all.find((o) => o.tier < c.tier && o.nameSimilarity > c.nameSimilarity);
    if (betterNamed)
      bits.push(
        `ranked above RRID:${betterNamed.entry.rrid} (name similarity ${betterNamed.nameSimilarity.toFixed(2)}) because the ${TIER_TEXT[c.tier]}`,
      );
  }
  // Ties on everything the ranking weighs: say what decided the order.
  const tiedWith = all.filter((o) => o !== c && o.tier === c.tier && Math.abs(o.raw - c.raw) < 1e-9);
  if (tiedWith.length > 0) {
    const other = tiedWith[0].entry;
    const why =
      other.papers.size !== e.papers.size
        ? `${e.papers.size > other.papers.size ? 'more' : 'fewer'} papers write it (${e.papers.size} vs ${other.papers.size})`
        : `no evidence separates them; the older knowledge-base entry comes first`;
    bits.push(
      `tied with ${tiedWith.map((o) => `RRID:${o.entry.rrid}`).join(', ')} on catalog number, vendor, name and type; order: ${why}`,
    );
  }
  return `${bits.join('; ')}.`;
}

export interface SuggestOptions {
  limit?: number;
  /** Suggestions with a lower calibrated probability are left out (default ABSTAIN_BELOW; 0 shows every candidate). */
  minConfidence?: number;
}

/** Suggestions, or why there are none. */
export interface SuggestAnswer<S extends RridSuggestion = RridSuggestion> {
  suggestions: S[];
  abstained: boolean;
  /** Why nothing is suggested (null when something is). */
  reason: string | null;
}

/** Ranked RRID suggestions with calibrated confidence; [] when nothing in the base matches well enough. */
export function suggestRrids(kb: RridKnowledgeBase, query: RridQuery, options: SuggestOptions = {}): RridSuggestion[] {
  return answerRrids(kb, query, options).suggestions;
}

/** suggestRrids with the reason when it abstains. */
export function answerRrids(kb: RridKnowledgeBase, query: RridQuery, options: SuggestOptions = {}): SuggestAnswer {
  const weight = (t: string) => kb.tokenStats.weight(t);
  const retrieve = (q: RridQuery): NameLookUp => {
    const plan = planQuery(q);
    return { query: q, plan, pool: candidatePool(kb, plan) };
  };
  const answer = (l: NameLookUp) => answerFromPool(l.pool, l.plan, l.query, weight, kb.calibration, options);
  const parts = joinedNameParts(query);
  if (!parts) return answer(retrieve(query));
  const looked = parts.map(retrieve);
  return answerJoinedName(
    looked,
    () => answer(retrieve(query)),
    (i) => answer(looked[i]),
  );
}

/** A query, as ranking reads it, and the entries it retrieves. */
export interface NameLookUp {
  query: RridQuery;
  plan: QueryPlan;
  pool: readonly SuggestableEntry[];
}

// Two names joined into one: "FIJI/ ImageJ", "Fiji or ImageJ", "goat anti-mouse and anti-rabbit".
const JOINS = /\s*\/\s*|\s+(?:or|and)\s+/i;
// A genotype's notation (a fly's "w1118; UAS-x/CyO", "wg[Sp-1]/CyO", "TI{FLP}fru[FLP]/TM3"): its slashes join
// homologous chromosomes of one stock, not two resources.
const GENOTYPE = /[;[\]{}]/;

/**
 * The parts of a name-only query whose name joins two or more names ("FIJI/ ImageJ"), each asked as its own query
 * (with the type asked); null when the name is not so written. Every part needs a name of three or more letters
 * or digits once separators are left out: "C57BL/6J", "HEK293T/17" or "Alexa Fluor 488/555" are one resource
 * each, and the slash in "Oct-3/4" or "Na+/K+" joins no names the papers write apart (answerJoinedName).
 */
export function joinedNameParts(query: RridQuery): RridQuery[] | null {
  const name = query.resourceName ?? '';
  if (!isNameOnly(query) || GENOTYPE.test(name)) return null;
  const parts = name.split(JOINS).map((p) => p.trim());
  if (parts.length < 2) return null;
  const named = (part: string) => nameKeys(part).some((k) => !k.startsWith(' ') && k.length > 2);
  if (!parts.every(named)) return null;
  return parts.map((part) => ({ ...query, resourceName: part }));
}

/**
 * The answer to a name that joins names (joinedNameParts). When the papers write every part as a name of its own
 * with an RRID (written as asked, not a longer name that ends with it), the parts decide: if their consensus RRIDs
 * differ, the name names several resources and no answer is given ("FIJI/ ImageJ": Fiji's RRID or ImageJ's?); if
 * they are the same, that RRID is the answer (the whole name's answer when it gives it first, else the first
 * part's). When some part is not such a name, the slash or the word is part of one name, answered whole.
 */
export function answerJoinedName(
  parts: readonly NameLookUp[],
  whole: () => SuggestAnswer,
  part: (index: number) => SuggestAnswer,
): SuggestAnswer {
  const tops: { name: string; rrid: string }[] = [];
  for (const p of parts) {
    const top = nameConsensus(ofKindAsked(p.pool, p.plan), p.query.resourceName, { exact: true })[0];
    if (!top) return whole();
    tops.push({ name: p.query.resourceName, rrid: top.entry.rrid! });
  }
  const rrids = [...new Set(tops.map((t) => t.rrid))];
  if (rrids.length === 1) {
    const answer = whole();
    if (answer.suggestions[0]?.suggested_rrid === `RRID:${rrids[0]}`) return answer;
    return part(0);
  }
  return {
    suggestions: [],
    abstained: true,
    reason: `the name joins ${parts.length} resources that papers write apart: ${tops.map((t) => `"${t.name}" (RRID:${t.rrid})`).join(', ')}; ask for one of them`,
  };
}

/** The entries whose RRID can name a resource of the type asked (registry.ts rridCanBe): the type as a hard filter. */
function ofKindAsked(pool: readonly SuggestableEntry[], plan: QueryPlan): SuggestableEntry[] {
  return pool.filter((e) => !e.rrid || rridCanBe(e.rrid, plan.type));
}

/**
 * The answer from retrieved entries, the same from the base in memory and from the stored index: a name-only query
 * by the papers' consensus on the name (consensus.ts), any other by ranking (scorePool).
 */
export function answerFromPool(
  pool: readonly SuggestableEntry[],
  plan: QueryPlan,
  query: RridQuery,
  weight: (token: string) => number,
  calibration: Pick<Calibration, 'bins' | 'consensus' | 'consensusDistinctive'> | null,
  options: SuggestOptions = {},
): SuggestAnswer {
  const fits = ofKindAsked(pool, plan);
  const answer = answerOfKind(fits, plan, query, weight, calibration, options);
  if (!answer.abstained) {
    // Every suggestion that would be shown, whatever the limit (recommend asks for one, suggest-rrid for five), and at
    // least as likely right as wrong: a caller that asks for every candidate does not make a long shot a reading.
    const minConfidence = Math.max(options.minConfidence ?? NAME_ONLY_ANSWER_FROM, ABSTAIN_BELOW);
    const shown = () => answerOfKind(fits, plan, query, weight, calibration, { ...options, limit: 50, minConfidence }).suggestions;
    const first = answer.suggestions[0].suggested_rrid.replace(/^RRID:/, '');
    const split = isNameOnly(query) && !typeSaysKind(plan.type) ? kindsOfName(fits, query, first, shown) : null;
    return split ? { suggestions: [], abstained: true, reason: split } : answer;
  }
  if (isNameOnly(query) && !typeSaysKind(plan.type)) {
    // No answer either way; say when a type would help.
    const name = query.resourceName ?? '';
    const top = nameConsensus(fits, name)[0]?.entry ?? antibodiesAgainst(fits, name)[0];
    const split = top?.rrid ? kindsOfName(fits, query, top.rrid, () => []) : null;
    return split ? { ...answer, reason: `${answer.reason}; ${split}` } : answer;
  }
  if (fits.length === pool.length) return answer;
  // Say which candidates of another kind were left out, when one matched what was asked.
  const left = pool.filter((e) => !fits.includes(e));
  const other = isNameOnly(query) ? nameConsensus(left, query.resourceName ?? '')[0]?.entry : undefined;
  const best = other ?? scorePool(left, plan, weight)[0]?.entry;
  if (!best?.rrid) return answer;
  return {
    ...answer,
    reason: `${answer.reason}; left out as of another kind: RRID:${best.rrid} matches, but ${registryOf(best.rrid)?.authority ?? 'its registry'} lists ${registryOf(best.rrid)?.kinds.join(' or ') ?? 'other kinds'}, and the type asked is ${plan.type}`,
  };
}

/**
 * Why a name alone is not answered when the papers write it for resources of different kinds (registry.ts kinds: an
 * anti-mCherry antibody's AB_ and a fly stock's BDSC_): the name does not say which one is meant; a resource_type
 * would (ofKindAsked). What the name reads as: the RRIDs the papers write with it (consensus.ts), the antibodies named
 * after it as their target, and the suggestions that would be shown. Null when all of them can be of the first
 * answer's kind (`first`: the RRID answered, or the first the papers write with the name when nothing is answered).
 */
function kindsOfName(
  pool: readonly SuggestableEntry[],
  query: RridQuery,
  first: string,
  shown: () => readonly RridSuggestion[],
): string | null {
  const name = query.resourceName ?? '';
  const other =
    [...nameConsensus(pool, name).map((c) => c.entry), ...antibodiesAgainst(pool, name)]
      .map((e) => e.rrid!)
      .find((rrid) => kindsDiffer(first, rrid)) ??
    shown()
      .map((s) => s.suggested_rrid.replace(/^RRID:/, ''))
      .find((rrid) => kindsDiffer(first, rrid));
  if (!other) return null;
  const kindOf = (rrid: string) => {
    const registry = registryOf(rrid);
    const kinds = registry?.kinds.join(' or ') ?? 'resource';
    return `${/^[aeiou]/i.test(kinds) ? 'an' : 'a'} ${kinds} (RRID:${rrid}, ${registry?.authority ?? 'its registry'})`;
  };
  return `the name is written for resources of different kinds: ${kindOf(first)} and ${kindOf(other)}; give resource_type to say which is meant`;
}

/** answerFromPool on the entries of the kind asked. */
function answerOfKind(
  pool: readonly SuggestableEntry[],
  plan: QueryPlan,
  query: RridQuery,
  weight: (token: string) => number,
  calibration: Pick<Calibration, 'bins' | 'consensus' | 'consensusDistinctive'> | null,
  options: SuggestOptions,
): SuggestAnswer {
  const nameOnly = isNameOnly(query);
  if (nameOnly) {
    const answer = consensusAnswer(pool, query, calibration, options);
    if (answer) return answer;
  }
  // No paper writes the name with an RRID: the most similar names, by ranking; a bare name needs more certainty.
  const scored = scorePool(pool, plan, weight);
  const rankingOptions = nameOnly ? { ...options, minConfidence: options.minConfidence ?? NAME_ONLY_ANSWER_FROM } : options;
  const suggestions = suggestionsOf(scored, query, calibration, rankingOptions);
  if (suggestions.length) return { suggestions, abstained: false, reason: null };
  return {
    suggestions,
    abstained: true,
    reason: scored.length
      ? `${nameOnly ? 'no paper of the knowledge base writes an RRID next to this name; ' : ''}the best candidate (RRID:${scored[0].entry.rrid}, "${scored[0].bestName}") is right with probability ${calibratedProbability(calibration, scored[0].rankScore).toFixed(2)}, below ${(rankingOptions.minConfidence ?? ABSTAIN_BELOW).toFixed(2)}`
      : `no RRID in the knowledge base matches this ${nameOnly ? 'name' : 'catalog number or name'}`,
  };
}

/**
 * Name-only answers need this calibrated probability: a wrong answer to a bare name misleads more than none. Chosen by
 * cross-validation by paper on the tuning papers (bench cv): from 0.8, 2% of the answers were wrong.
 */
const NAME_ONLY_ANSWER_FROM = 0.8;

function consensusAnswer(
  pool: readonly SuggestableEntry[],
  query: RridQuery,
  calibration: Pick<Calibration, 'consensus' | 'consensusDistinctive'> | null,
  options: SuggestOptions,
): SuggestAnswer | null {
  const candidates = nameConsensus(pool, query.resourceName ?? '');
  if (candidates.length === 0) return null;
  const minConfidence = Math.max(options.minConfidence ?? NAME_ONLY_ANSWER_FROM, 0);
  const limit = Math.max(1, Math.min(options.limit ?? 5, 50));
  const suggestions: RridSuggestion[] = [];
  for (const c of candidates) {
    if (suggestions.length >= limit) break;
    const confidence = consensusProbability(consensusBins(calibration, c.entry.type), c.score);
    if (confidence < minConfidence) continue;
    const e = c.entry;
    const others = candidates.filter((o) => o !== c);
    suggestions.push({
      id: e.id,
      suggested_rrid: `RRID:${e.rrid}`,
      confidence_score: confidence,
      reasoning:
        `name-only query: "${c.name}" is written with RRID:${e.rrid} in ${plural(c.agreeing, 'mention')} of ${c.total} with an RRID` +
        (others.length
          ? ` (also with ${others
              .slice(0, 3)
              .map((o) => `RRID:${o.entry.rrid} ×${o.agreeing}`)
              .join(', ')})`
          : '') +
        `; RRID:${e.rrid} written in ${plural(e.papers.size, 'paper')}.`,
      vendor: majority(e.vendors) ?? '',
      catalog_number: [...e.catalogs].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
      resource_name: majority(e.names) ?? c.name,
      resource_type: e.type,
      raw_score: Number(c.score.toFixed(4)),
      papers: e.papers.size,
      mentions: e.mentions,
    });
  }
  if (suggestions.length) return { suggestions, abstained: false, reason: null };
  const top = candidates[0];
  return {
    suggestions,
    abstained: true,
    reason:
      top.agreeing < top.total
        ? `papers disagree on this name: RRID:${top.entry.rrid} in ${top.agreeing} of ${top.total} mentions with an RRID (a clear consensus is needed when only a name is given)`
        : `too little evidence: RRID:${top.entry.rrid} is written with this name in ${plural(top.agreeing, 'mention')} only (right with probability ${consensusProbability(consensusBins(calibration, top.entry.type), top.score).toFixed(2)}, below ${minConfidence.toFixed(2)})`,
  };
}

/** Suggestions from ranked candidates: calibrated, below-threshold ones withheld, reasoning written. */
export function suggestionsOf(
  all: readonly ScoredCandidate[],
  query: RridQuery,
  calibration: Pick<Calibration, 'bins'> | null,
  options: SuggestOptions = {},
): RridSuggestion[] {
  const limit = Math.max(1, Math.min(options.limit ?? 5, 50));
  const minConfidence = options.minConfidence ?? ABSTAIN_BELOW;
  const out: RridSuggestion[] = [];
  for (const [rank, c] of all.entries()) {
    if (out.length >= limit) break;
    const confidence = calibratedProbability(calibration, c.rankScore);
    if (confidence < minConfidence) continue;
    const e = c.entry;
    const catalogs = [...e.catalogs].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    const matchingCatalog = c.catalogMatch ? catalogs.find((k) => catalogKey(k) === queryCatalogKey(query.catalogNumber)) : undefined;
    out.push({
      id: e.id,
      suggested_rrid: `RRID:${e.rrid}`,
      confidence_score: confidence,
      reasoning: reasoningOf(c, query, rank, all.slice(0, Math.max(limit, 10))),
      vendor: majority(e.vendors) ?? '',
      catalog_number: matchingCatalog ?? catalogs[0] ?? '',
      resource_name: majority(e.names) ?? c.bestName,
      resource_type: e.type,
      raw_score: Number(c.rankScore.toFixed(4)),
      papers: e.papers.size,
      mentions: e.mentions,
    });
  }
  return out;
}

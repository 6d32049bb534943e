// Alternatives to a resource, from the knowledge base: resources of the same type that papers used for the same
// purpose. Antibodies: same target antigen (and host, clonality, conjugate when known); software: the same
// function (lexicon.ts), or a newer version of the same tool; cell lines: the same line from another source;
// organisms: the same strain background; everything else: a near-identical name from another supplier.
//
// recommendation_type: alternative_vendor (same resource, other supplier), alternative_clone (same target and
// host, other clone), updated_version (same tool, newer version), functional_equivalent (serves the same purpose).
// availability_status is always `unknown`: the base knows what papers used, not what is in stock.
// confidence_score = attribute agreement (0–1, listed per type below) × evidence n/(n+1), n = papers using the
// alternative. It ranks alternatives; it is not a calibrated probability (there is no ground truth for
// "a good substitute" to calibrate against).

import { typeByContent } from '../extract/classify.ts';
import { catalogKey } from '../extract/identifier.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { resourceTypeFromText } from '../extract/classify.ts';
import { SOFTWARE, STRAIN_BACKGROUND } from '../extract/lexicon.ts';
import { vendorKey } from '../extract/vendors.ts';
import { cleanResourceName, majority, type KbEntry, type RridKnowledgeBase } from './knowledge-base.ts';
import { antibodyAttributes, nameTokens, weightedDice, type AntibodyAttributes } from './similarity.ts';

type RecommendationType = 'functional_equivalent' | 'alternative_vendor' | 'alternative_clone' | 'updated_version';

export interface RecommendQuery {
  resourceName: string;
  resourceType?: string;
  /** Free-form context; `vendor` and `catalog_number` (or `catalogNumber`) are used when present. */
  context?: Record<string, unknown>;
}

export interface Recommendation {
  id: number;
  recommended_resource: string;
  recommended_vendor: string;
  recommended_catalog: string;
  recommended_rrid: string | null;
  recommendation_type: RecommendationType;
  confidence_score: number;
  reasoning: string;
  availability_status: 'unknown';
  resource_type: ResourceType;
  papers: number;
}

function textOfContext(context: Record<string, unknown> | undefined, ...keys: string[]): string {
  for (const key of keys) {
    const value = context?.[key];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return '';
}

function softwareFunction(name: string): { fn: string; name: string } | null {
  for (const entry of SOFTWARE) if (entry.pattern.test(name)) return { fn: entry.fn, name: entry.name };
  return null;
}

function versionOf(name: string): number[] | null {
  const m = /(?:\bv(?:ersion)?\.?\s*|\s)(\d+(?:\.\d+){0,3})[a-z]?\b/i.exec(name);
  return m ? m[1].split('.').map(Number) : null;
}

function newer(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x > y;
  }
  return false;
}

const evidence = (entry: KbEntry) => entry.papers.size / (entry.papers.size + 1);
const papersText = (entry: KbEntry) => `used in ${entry.papers.size} paper${entry.papers.size === 1 ? '' : 's'} of the store`;

interface Candidate {
  entry: KbEntry;
  type: RecommendationType;
  agreement: number;
  why: string;
}

/** Alternatives of the same type as the described resource; [] when the base has none. */
export function recommendAlternatives(
  kb: RridKnowledgeBase,
  query: RecommendQuery,
  options: { limit?: number; exclude?: readonly number[] } = {},
): Recommendation[] {
  const limit = Math.max(1, Math.min(options.limit ?? 10, 50));
  const excluded = new Set(options.exclude ?? []);
  const name = cleanResourceName(query.resourceName ?? '');
  if (!name) return [];
  const inferred = typeByContent(name, '', '');
  const type: ResourceType = (query.resourceType ? resourceTypeFromText(query.resourceType) : null) ?? inferred;
  const queryVendor = textOfContext(query.context, 'vendor', 'source', 'supplier');
  const queryCatalog = catalogKey(textOfContext(query.context, 'catalog_number', 'catalogNumber', 'catalog'));
  const isQueryItself = (entry: KbEntry) => queryCatalog !== '' && [...entry.catalogs.keys()].some((c) => catalogKey(c) === queryCatalog);
  const sameVendor = (entry: KbEntry) =>
    queryVendor !== '' && [...entry.vendors.keys()].some((v) => vendorKey(v) === vendorKey(queryVendor));
  // The resource itself (its catalog number, or the entry suggest-rrid identifies it as) is no alternative to itself.
  const ofType = [...kb.entries()].filter((e) => e.type === type && !isQueryItself(e) && !excluded.has(e.id));
  const candidates: Candidate[] = [];

  if (type === 'Antibody') {
    const q = antibodyAttributes(name);
    if (!q.target) return [];
    const cache = new Map<number, AntibodyAttributes>();
    const qTokens = nameTokens(name).sort().join(' ');
    for (const entry of ofType) {
      const names = [...entry.names.keys()];
      // The query's own product (same supplier, same name) is not an alternative to itself.
      if (sameVendor(entry) && names.some((n) => nameTokens(n).sort().join(' ') === qTokens)) continue;
      const attrs = names.map((n) => cache.get(entry.id) ?? antibodyAttributes(n)).find((a) => a.target === q.target);
      if (!attrs) continue;
      cache.set(entry.id, attrs);
      const sameHost = q.host !== '' && attrs.host === q.host;
      const hostConflict = q.host !== '' && attrs.host !== '' && attrs.host !== q.host;
      const agreement =
        0.6 +
        (sameHost ? 0.2 : 0) +
        (q.clonality && attrs.clonality === q.clonality ? 0.1 : 0) +
        (q.conjugate ? (attrs.conjugate === q.conjugate ? 0.1 : -0.1) : 0);
      let recType: RecommendationType = 'functional_equivalent';
      if (!hostConflict && q.clone && attrs.clone && attrs.clone !== q.clone) recType = 'alternative_clone';
      else if (!hostConflict && queryVendor && !sameVendor(entry)) recType = 'alternative_vendor';
      const details = [
        `target ${q.target}`,
        sameHost ? `host ${q.host}` : attrs.host ? `host ${attrs.host}` : '',
        attrs.clone ? `clone ${attrs.clone}` : '',
        attrs.conjugate ? `conjugate ${attrs.conjugate}` : '',
      ]
        .filter(Boolean)
        .join(', ');
      candidates.push({ entry, type: recType, agreement: Math.min(1, agreement), why: `Same ${details}` });
    }
  } else if (type === 'Software/code') {
    const q = softwareFunction(name);
    const qTokens = nameTokens(name, { dropVersions: true });
    const qVersion = versionOf(name);
    for (const entry of ofType) {
      const entryName = majority(entry.names) ?? '';
      const same = weightedDice(qTokens, nameTokens(entryName, { dropVersions: true }), (t) => kb.tokenStats.weight(t)) >= 0.9;
      if (same) {
        const v = versionOf(entryName);
        if (qVersion && v && newer(v, qVersion)) {
          candidates.push({
            entry,
            type: 'updated_version',
            agreement: 0.9,
            why: `Newer version of the same tool (${v.join('.')} vs ${qVersion.join('.')})`,
          });
        }
        continue;
      }
      const fn = softwareFunction(entryName);
      if (q && fn && fn.fn === q.fn && fn.name !== q.name) {
        candidates.push({ entry, type: 'functional_equivalent', agreement: 0.7, why: `Also used for ${q.fn}` });
      }
    }
  } else if (type === 'Experimental model: Organism/strain') {
    const background = STRAIN_BACKGROUND.exec(name)?.[0]?.toLowerCase().replace(/\s+/g, '');
    if (!background) return genericAlternatives(kb, name, ofType, queryVendor, sameVendor, limit, type);
    for (const entry of ofType) {
      const entryName = majority(entry.names) ?? '';
      const b = STRAIN_BACKGROUND.exec(entryName)?.[0]?.toLowerCase().replace(/\s+/g, '');
      if (b !== background) continue;
      const sameName = weightedDice(nameTokens(name), nameTokens(entryName), (t) => kb.tokenStats.weight(t)) >= 0.9;
      candidates.push({
        entry,
        type: sameName ? 'alternative_vendor' : 'functional_equivalent',
        agreement: sameName ? 0.9 : 0.6,
        why: sameName ? 'Same strain from another source' : `Same strain background (${STRAIN_BACKGROUND.exec(entryName)?.[0]})`,
      });
    }
  } else {
    return genericAlternatives(kb, name, ofType, queryVendor, sameVendor, limit, type);
  }
  return finish(candidates, limit);
}

function genericAlternatives(
  kb: RridKnowledgeBase,
  name: string,
  ofType: KbEntry[],
  queryVendor: string,
  sameVendor: (e: KbEntry) => boolean,
  limit: number,
  type: ResourceType,
): Recommendation[] {
  const qTokens = nameTokens(name, { dropVersions: type === 'Software/code' });
  const candidates: Candidate[] = [];
  for (const entry of ofType) {
    let best = 0;
    for (const n of entry.names.keys())
      best = Math.max(
        best,
        weightedDice(qTokens, nameTokens(n), (t) => kb.tokenStats.weight(t)),
      );
    if (best < 0.7) continue;
    const otherVendor = queryVendor !== '' && entry.vendors.size > 0 && !sameVendor(entry);
    // The same name from no other supplier is the queried resource, not an alternative to it.
    if (best >= 0.95 && !otherVendor) continue;
    candidates.push({
      entry,
      type: otherVendor ? 'alternative_vendor' : 'functional_equivalent',
      agreement: best,
      why: `Name similarity ${best.toFixed(2)}${otherVendor ? `, from ${majority(entry.vendors)} instead of ${queryVendor}` : ''}`,
    });
  }
  return finish(candidates, limit);
}

/** One recommendation per product: entries of the same supplier catalog number (or, without one, the same
 *  name and supplier) are the same product written with and without its RRID; the RRID-bearing one is kept. */
function productKey(entry: KbEntry): string {
  const vendor = vendorKey(majority(entry.vendors) ?? '');
  const catalog = majority(entry.catalogs);
  return catalog
    ? `${vendor}|${catalogKey(catalog)}`
    : `${vendor}|${nameTokens(majority(entry.names) ?? '', { dropVersions: entry.type === 'Software/code' })
        .sort()
        .join(' ')}`;
}

function finish(candidates: Candidate[], limit: number): Recommendation[] {
  const ranked = candidates
    .map((c) => ({ c, score: Number((c.agreement * evidence(c.entry)).toFixed(4)) }))
    .sort((a, b) => b.score - a.score || b.c.entry.papers.size - a.c.entry.papers.size || a.c.entry.id - b.c.entry.id);
  const byProduct = new Map<string, (typeof ranked)[number]>();
  for (const item of ranked) {
    const key = productKey(item.c.entry);
    const kept = byProduct.get(key);
    if (!kept) byProduct.set(key, item);
    else if (!kept.c.entry.rrid && item.c.entry.rrid) byProduct.set(key, { c: item.c, score: Math.max(kept.score, item.score) });
  }
  return [...byProduct.values()]
    .sort((a, b) => b.score - a.score || b.c.entry.papers.size - a.c.entry.papers.size || a.c.entry.id - b.c.entry.id)
    .slice(0, limit)
    .map(({ c, score }) => ({
      id: c.entry.id,
      recommended_resource: majority(c.entry.names) ?? '',
      recommended_vendor: majority(c.entry.vendors) ?? '',
      recommended_catalog: majority(c.entry.catalogs) ?? '',
      recommended_rrid: c.entry.rrid ? `RRID:${c.entry.rrid}` : null,
      recommendation_type: c.type,
      confidence_score: score,
      reasoning: `${c.why}; ${papersText(c.entry)}.`,
      availability_status: 'unknown' as const,
      resource_type: c.entry.type,
      papers: c.entry.papers.size,
    }));
}

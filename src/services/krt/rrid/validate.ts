// RRID validation against the registries' identifier shapes, the imported registries' own dumps (registry/) and the
// local knowledge base. `valid` needs an attestation, never the shape alone:
//   valid       the registry that issues the identifier lists it (its dump is imported: Cellosaurus for CVCL_,
//               the Antibody Registry for AB_), and the papers that write it do not contradict the listing; or,
//               where no dump of that registry is imported, at least two papers of the base write it (one paper
//               alone can carry a mistyped or cut identifier: "RRID:AB_287022 2" read as AB_287022)
//   unverified  well-formed but not attested so: is_valid false, and the recommendation says why (not in the
//               registry's release; listed for another product than the one the papers write beside it; written by
//               one paper only; written by none) and where to check it (the RRID portal's resolver)
//   invalid     malformed or of an unknown registry, with the reason; when the intended form is obvious
//               ("AB-123" → "AB_123", "AB 303395" → "AB_303395") a recommendation offers it
// An imported registry is authoritative for its own prefix: an identifier it does not list is unverified however
// many papers write it (a release can lag a new identifier, so not invalid). A former accession the registry merged
// into another entry is valid, with the current one named.
// What the client sent is never shortened or padded: `rrid` is the input (without its "RRID:" label, letter
// case of a well-formed one aside), and a status is always about that input, never about a corrected form.
// confidence_score is the share of four checks passed: well-formed, registry known, attested (as above), attested
// consistently (the papers agree on one resource type, and with the registry's catalog numbers). It is a rule, not a
// fitted probability.

import { catalogKey } from '../extract/identifier.ts';
import type { KbEntry, RridKnowledgeBase } from './knowledge-base.ts';
import { parseRrid, resolverUrl } from './registry.ts';
import type { RegistryEntry, RegistryEvidence } from './registry-knowledge.ts';

/** Papers of the base that must write an identifier for it to be valid when its registry's dump is not imported. */
const MIN_ATTESTING_PAPERS = 2;

export type RridStatus = 'valid' | 'unverified' | 'invalid';

export interface RridValidation {
  rrid: string;
  is_valid: boolean;
  status: RridStatus;
  confidence_score: number;
  recommendations: string[];
  last_checked: string;
  source: 'fresh' | 'cache';
  /** Issuing registry when recognised (e.g. "Antibody Registry"). */
  registry: string | null;
  /** Papers of the base that write this RRID. */
  papers: number;
}

export function validateRrid(
  kb: RridKnowledgeBase | null,
  input: string,
  now: Date = new Date(),
  registry: RegistryEvidence | null = null,
): RridValidation {
  const parsed = parseRrid(input ?? '');
  const lastChecked = now.toISOString();
  if (parsed.wellFormed && parsed.normalized) {
    const id = parsed.normalized;
    const entry = kb?.entryByRrid(id);
    const rrid = `RRID:${id}`;
    const paperCount = entry?.papers.size ?? 0;
    const answer = (status: 'valid' | 'unverified', confidence: number, recommendations: string[]): RridValidation => ({
      rrid,
      is_valid: status === 'valid',
      status,
      confidence_score: confidence,
      recommendations,
      last_checked: lastChecked,
      source: 'fresh',
      registry: parsed.registry?.authority ?? null,
      papers: paperCount,
    });
    const written = entry ? [writtenBy(rrid, entry)] : [];
    const typesAgree = !entry || entry.types.size <= 1;
    const disagreement = typesAgree
      ? []
      : [`Papers disagree on its resource type (${[...entry!.types.keys()].join(', ')}); confirm at ${resolverUrl(id)}.`];

    if (registry?.release) {
      const { title, release } = registry.release;
      const listed = registry.entry;
      if (!listed)
        return answer('unverified', 0.5, [
          `${rrid} is well-formed but not listed in ${title} (release ${release}) as imported here; check it at ${resolverUrl(id)}.`,
          ...written,
        ]);
      const conflict = entry ? catalogConflict(entry, listed) : null;
      if (conflict)
        return answer('unverified', 0.5, [
          `${rrid} is listed in ${title} (release ${release}) as ${describe(listed)}, but the papers that write it give it as ${conflict}: ` +
            `the identifier may be mistyped or cut; check it at ${resolverUrl(id)}.`,
          ...written,
        ]);
      const recommendations = [
        registry.secondary
          ? `${rrid} is a former accession of ${title} (release ${release}), merged into RRID:${listed.identifier} (${describe(listed)}); cite RRID:${listed.identifier}.`
          : `${rrid} is listed in ${title} (release ${release}) as ${describe(listed)}.`,
        ...written,
        ...disagreement,
      ];
      return answer('valid', registry.secondary || !typesAgree ? 0.75 : 1, recommendations);
    }

    if (entry && paperCount >= MIN_ATTESTING_PAPERS) return answer('valid', typesAgree ? 1 : 0.75, [...written, ...disagreement]);
    if (entry)
      return answer('unverified', 0.5, [
        `${writtenBy(rrid, entry)} One paper alone does not attest an identifier (it may be mistyped or cut, e.g. a digit lost at a line break), ` +
          `and no dump of ${parsed.registry?.authority ?? 'its registry'} is imported here; check it at ${resolverUrl(id)}.`,
        ...disagreement,
      ]);
    return answer('unverified', 0.5, [
      `${rrid} is well-formed (${parsed.registry?.authority ?? 'registry'}) but no paper of the local store writes it; check it at ${resolverUrl(id)}.`,
    ]);
  }
  const recommendations: string[] = [`"${parsed.input}" is malformed: ${parsed.problem}.`];
  if (parsed.corrected) {
    const known = kb?.entryByRrid(parsed.corrected);
    recommendations.push(`Did you mean RRID:${parsed.corrected}? (the same letters and digits, written in the registry's form)`);
    recommendations.push(
      known
        ? `RRID:${parsed.corrected} is written by ${known.papers.size} paper${known.papers.size === 1 ? '' : 's'} of the local store.`
        : `Check RRID:${parsed.corrected} at ${resolverUrl(parsed.corrected)}.`,
    );
  } else {
    recommendations.push(
      'RRIDs look like RRID:AB_2107436 (antibodies), RRID:SCR_002285 (software), RRID:CVCL_0030 (cell lines), RRID:Addgene_12260 (plasmids), RRID:IMSR_JAX:000664 (mice).',
    );
  }
  const registryKnown = parsed.corrected !== null || (parsed.problem !== null && !/unknown registry|empty/.test(parsed.problem));
  return {
    rrid: parsed.input,
    is_valid: false,
    status: 'invalid',
    confidence_score: registryKnown ? 0.25 : 0,
    recommendations,
    last_checked: lastChecked,
    source: 'fresh',
    registry: parsed.registry?.authority ?? null,
    papers: 0,
  };
}

function writtenBy(rrid: string, entry: KbEntry): string {
  const names = [...entry.names]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 2)
    .map(([n]) => `"${n}"`)
    .join(', ');
  return `${rrid} is written by ${entry.papers.size} paper${entry.papers.size === 1 ? '' : 's'} of the local store (as ${names}).`;
}

function describe(listed: RegistryEntry): string {
  const product = listed.vendor && listed.catalog ? `, ${listed.vendor} ${listed.catalog}` : '';
  const species = listed.species ? `, ${listed.species}` : '';
  return `"${listed.name}"${product}${species}`;
}

/**
 * The catalog numbers the papers write beside an identifier, when none of them is one the registry lists for it
 * (null when they agree, or when either side gives none): the identifier then names another product than the one
 * the papers used.
 */
function catalogConflict(entry: KbEntry, listed: RegistryEntry): string | null {
  const listedKeys = new Set(
    [listed.catalog, ...(listed.detail.suppliers ?? []).map((s) => s.catalog)].filter((c): c is string => !!c).map(catalogKey),
  );
  const written = [...entry.catalogs.keys()].filter((c) => catalogKey(c).length > 0);
  if (listedKeys.size === 0 || written.length === 0) return null;
  if (written.some((c) => listedKeys.has(catalogKey(c)))) return null;
  const vendors = [...entry.vendors.keys()].slice(0, 1);
  return `${vendors.length ? `${vendors[0]} ` : ''}${written.slice(0, 2).join(', ')}`;
}

/**
 * A 24-hour cache of validations (by normalised input), storage-agnostic: the service keeps one per process or
 * backs it with its store. Entries served from it say `source: "cache"`.
 */
export class ValidationCache {
  private readonly entries = new Map<string, { at: number; value: RridValidation }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs = 24 * 3600 * 1000, maxEntries = 10_000) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  validate(kb: RridKnowledgeBase | null, input: string, now: Date = new Date(), registry: RegistryEvidence | null = null): RridValidation {
    const key = (input ?? '')
      .trim()
      .replace(/^RRID\s*:?\s*/i, '')
      .toUpperCase();
    const hit = this.entries.get(key);
    if (hit && now.getTime() - hit.at < this.ttlMs) return { ...hit.value, source: 'cache' };
    const value = validateRrid(kb, input, now, registry);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: now.getTime(), value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

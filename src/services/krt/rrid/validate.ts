// RRID validation against the registries' identifier shapes and the local knowledge base.
//   valid       well-formed and written by at least one paper of the base
//   unverified  well-formed, but no paper of the base writes it: is_valid false, and the recommendation says
//               where to check it (the RRID portal's resolver)
//   invalid     malformed or of an unknown registry, with the reason; when the intended form is obvious
//               ("AB-123" → "AB_123", "AB 303395" → "AB_303395") a recommendation offers it
// What the client sent is never shortened or padded: `rrid` is the input (without its "RRID:" label, letter
// case of a well-formed one aside), and a status is always about that input, never about a corrected form.
// confidence_score is the share of four checks passed: well-formed, registry known, attested by a paper of the
// base, attested consistently (every paper naming it agrees on one resource type). It is a rule, not a fitted
// probability: the base cannot tell how many unattested identifiers are real.

import type { RridKnowledgeBase } from './knowledge-base.ts';
import { parseRrid, resolverUrl } from './registry.ts';

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

export function validateRrid(kb: RridKnowledgeBase | null, input: string, now: Date = new Date()): RridValidation {
  const parsed = parseRrid(input ?? '');
  const lastChecked = now.toISOString();
  if (parsed.wellFormed && parsed.normalized) {
    const entry = kb?.entryByRrid(parsed.normalized);
    const rrid = `RRID:${parsed.normalized}`;
    if (entry) {
      const consistent = entry.types.size <= 1;
      const names = [...entry.names]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 2)
        .map(([n]) => `"${n}"`)
        .join(', ');
      const recommendations = [
        `${rrid} is written by ${entry.papers.size} paper${entry.papers.size === 1 ? '' : 's'} of the local store (as ${names}).`,
      ];
      if (!consistent)
        recommendations.push(
          `Papers disagree on its resource type (${[...entry.types.keys()].join(', ')}); confirm at ${resolverUrl(parsed.normalized)}.`,
        );
      return {
        rrid,
        is_valid: true,
        status: 'valid',
        confidence_score: consistent ? 1 : 0.75,
        recommendations,
        last_checked: lastChecked,
        source: 'fresh',
        registry: parsed.registry?.authority ?? null,
        papers: entry.papers.size,
      };
    }
    return {
      rrid,
      is_valid: false,
      status: 'unverified',
      confidence_score: 0.5,
      recommendations: [
        `${rrid} is well-formed (${parsed.registry?.authority ?? 'registry'}) but no paper of the local store writes it; check it at ${resolverUrl(parsed.normalized)}.`,
      ],
      last_checked: lastChecked,
      source: 'fresh',
      registry: parsed.registry?.authority ?? null,
      papers: 0,
    };
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

  validate(kb: RridKnowledgeBase | null, input: string, now: Date = new Date()): RridValidation {
    const key = (input ?? '')
      .trim()
      .replace(/^RRID\s*:?\s*/i, '')
      .toUpperCase();
    const hit = this.entries.get(key);
    if (hit && now.getTime() - hit.at < this.ttlMs) return { ...hit.value, source: 'cache' };
    const value = validateRrid(kb, input, now);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { at: now.getTime(), value });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}

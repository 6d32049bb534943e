// The ceilings of B's benchmark (bench/_krt-cv.ts): how many of the authors' identifiers a table built from a paper's
// text with a knowledge base of the other papers could carry at best.
// - The issue's ceiling counts an authors' identifier when any training paper's text has it as a token: a bare
//   number of a few digits ("0281") is then found in some paper whatever it numbers there.
// - The knowledge-base ceiling counts it when the base built from the training papers attests it as an identifier,
//   through the base's own reading: an RRID that some paper of the base writes verbatim (in a table's row or in its
//   text: RridKnowledgeBase.isAttested), a catalog number that an entry of the base lists (entriesWithCatalog, which
//   compares catalog numbers as the base does). An RRID is looked up as an RRID and a catalog number as a catalog
//   number, each in the form the authors wrote it.
// Both are split by how the authors wrote the identifier (identifierForm), the form read from the comparison key.

import { formatEstimate, pooledEstimate } from '../src/services/krt/extract/evaluation.ts';
import { parseIdentifierText } from '../src/services/krt/extract/identifier.ts';
import type { KrtRow } from '../src/services/krt/extract/krt-row.ts';
import { identifierComparisonKey } from '../src/services/krt/extract/learned/fill-training.ts';
import type { RridKnowledgeBase } from '../src/services/krt/rrid/knowledge-base.ts';

/** An RRID or catalog number of a row: its comparison key, its kind and its value as the identifier reader gives it. */
export interface IdentifierPart {
  key: string;
  kind: 'rrid' | 'catalog';
  value: string;
}

/** A row's RRIDs and catalog numbers as the benchmark compares them (comparison keys of three characters or more). */
export function identifierParts(row: KrtRow): IdentifierPart[] {
  const out: IdentifierPart[] = [];
  for (const p of parseIdentifierText(row.IDENTIFIER, { source: row.SOURCE }))
    if (p.kind === 'rrid' || p.kind === 'catalog') {
      const key = identifierComparisonKey(p.value);
      if (key.length >= 3) out.push({ key, kind: p.kind, value: p.value });
    }
  return out;
}

export const IDENTIFIER_FORMS = [
  'RRID',
  'catalog number with letters',
  'bare number of at most 5 digits',
  'bare number of more than 5 digits',
] as const;
export type IdentifierForm = (typeof IDENTIFIER_FORMS)[number];

/** How an identifier is written: an RRID, else a catalog number whose comparison key has a letter, else its digits. */
export function identifierForm(part: Pick<IdentifierPart, 'key' | 'kind'>): IdentifierForm {
  if (part.kind === 'rrid') return 'RRID';
  if (/[A-Z]/.test(part.key)) return 'catalog number with letters';
  return part.key.length <= 5 ? 'bare number of at most 5 digits' : 'bare number of more than 5 digits';
}

/**
 * The comparison keys of the rows' identifiers that the knowledge base attests as identifiers: an RRID some paper of
 * the base writes verbatim, a catalog number an entry of the base lists.
 */
export function attestedIdentifiers(kb: RridKnowledgeBase, rows: readonly KrtRow[]): Set<string> {
  const out = new Set<string>();
  for (const row of rows)
    for (const part of identifierParts(row))
      if (part.kind === 'rrid' ? kb.isAttested(part.value) : kb.entriesWithCatalog(part.value).length > 0) out.add(part.key);
  return out;
}

/** One scored paper: the authors' rows and which of their identifiers (comparison keys) each ceiling counts. */
export interface CeilingPaper {
  paper: string;
  gold: readonly KrtRow[];
  ceilingIds: ReadonlySet<string>;
  attestedIds: ReadonlySet<string>;
}

type Hits = { paper: string; hit: boolean }[];

/**
 * The authors' identifiers by how they are written (each key once per paper, in the form of its first writing), and
 * whether each is inside the issue's ceiling and inside the knowledge base's.
 */
export function ceilingByForm(papers: readonly CeilingPaper[]): Map<IdentifierForm, { ceiling: Hits; attested: Hits }> {
  const out = new Map(IDENTIFIER_FORMS.map((form) => [form, { ceiling: [] as Hits, attested: [] as Hits }]));
  for (const p of papers) {
    const seen = new Set<string>();
    for (const row of p.gold)
      for (const part of identifierParts(row)) {
        if (seen.has(part.key)) continue;
        seen.add(part.key);
        const of = out.get(identifierForm(part))!;
        of.ceiling.push({ paper: p.paper, hit: p.ceilingIds.has(part.key) });
        of.attested.push({ paper: p.paper, hit: p.attestedIds.has(part.key) });
      }
  }
  return out;
}

/** The two ceilings by form: counts, the share of each form inside each ceiling with its 95% interval over papers. */
export function ceilingFormLines(papers: readonly CeilingPaper[]): string[] {
  const byForm = ceilingByForm(papers);
  const hits = (xs: Hits) => xs.filter((x) => x.hit).length;
  const all = [...byForm.values()];
  const total = {
    ids: all.reduce((n, f) => n + f.ceiling.length, 0),
    ceiling: all.reduce((n, f) => n + hits(f.ceiling), 0),
    attested: all.reduce((n, f) => n + hits(f.attested), 0),
  };
  const lines = [
    `the two ceilings by how the authors wrote the identifier: identifiers; in the issue's ceiling (${total.ceiling}), share of the form; attested by the knowledge base (${total.attested}), share of the form`,
  ];
  for (const [form, f] of byForm)
    lines.push(
      `  ${form.padEnd(34)} ${String(f.ceiling.length).padStart(5)}  ${String(hits(f.ceiling)).padStart(5)} ${formatEstimate(pooledEstimate(f.ceiling))}  ${String(hits(f.attested)).padStart(5)} ${formatEstimate(pooledEstimate(f.attested))}`,
    );
  const both = papers.reduce((n, p) => n + [...p.attestedIds].filter((id) => p.ceilingIds.has(id)).length, 0);
  lines.push(
    `  ${total.ids} identifiers; ${both} inside both ceilings, ${total.attested - both} attested by the knowledge base but no training paper's text token`,
  );
  return lines;
}

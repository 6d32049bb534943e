// Identifiers for the rows of a table built from text, from what the other papers of the knowledge base wrote for
// the same resource. A row without an RRID asks the base as a client would (suggest.ts): by its catalog number and
// vendor when the text gave them, else by the papers' consensus on its name (consensus.ts). The first answer is
// written into the row when its calibrated probability of being right reaches FILL_FROM and the base's entry is of
// a compatible type; the RRID is the one the papers wrote, verbatim. Every row that asked keeps its candidates and,
// when filled, the papers that wrote the identifier: the evidence.

import { formatIdentifier, parseIdentifierText, type IdentifierPart } from '../extract/identifier.ts';
import type { KrtRow, ResourceType } from '../extract/krt-row.ts';
import type { RridKnowledgeBase } from './knowledge-base.ts';
import { answerRrids } from './suggest.ts';

/** Identifiers are filled from this calibrated probability of being right. */
export const FILL_FROM = 0.5;

export interface FillCandidate {
  rrid: string;
  confidence: number;
  papers: number;
}

export interface IdentifierFill {
  /** The row's position in the table. */
  row: number;
  filled: boolean;
  /** The identifiers written into the row ("RRID:CVCL_0063"); [] when not filled. */
  identifiers: string[];
  /** Calibrated probability that the first candidate is right (0 when there is none). */
  confidence: number;
  /** DOIs of the papers that write the filled identifier. */
  evidence: string[];
  /** What the base offered, best first (also when nothing was filled). */
  candidates: FillCandidate[];
  /** How the base was asked: by catalog number and vendor, or by name alone. */
  by: 'catalog' | 'name';
}

/** Types a row from text and a base entry may disagree on without being different resources. */
function compatible(row: ResourceType, entry: ResourceType): boolean {
  return row === entry || row === 'Other' || entry === 'Other';
}

/** The rows with identifiers filled where the base attests one (see the file comment), and what each row asked. */
export function fillIdentifiers(
  kb: RridKnowledgeBase,
  rows: readonly KrtRow[],
  options: { fillFrom?: number } = {},
): { rows: KrtRow[]; fills: IdentifierFill[] } {
  const fillFrom = options.fillFrom ?? FILL_FROM;
  const fills: IdentifierFill[] = [];
  const out = rows.map((row, i) => {
    const parts = parseIdentifierText(row.IDENTIFIER, { source: row.SOURCE });
    if (parts.some((p) => p.kind === 'rrid')) return row;
    const catalog = parts.find((p) => p.kind === 'catalog')?.value ?? '';
    const answer = answerRrids(
      kb,
      { resourceName: row['RESOURCE NAME'], resourceType: row['RESOURCE TYPE'], catalogNumber: catalog, vendor: catalog ? row.SOURCE : '' },
      { limit: 5, minConfidence: 0 },
    );
    const candidates = answer.suggestions
      .filter((s) => compatible(row['RESOURCE TYPE'], s.resource_type))
      .map((s) => ({ rrid: s.suggested_rrid, confidence: s.confidence_score, papers: s.papers, id: s.id }));
    if (candidates.length === 0) return row;
    const first = candidates[0];
    const fill: IdentifierFill = {
      row: i,
      filled: first.confidence >= fillFrom,
      identifiers: [],
      confidence: first.confidence,
      evidence: [],
      candidates: candidates.map(({ rrid, confidence, papers }) => ({ rrid, confidence, papers })),
      by: catalog ? 'catalog' : 'name',
    };
    fills.push(fill);
    if (!fill.filled) return row;
    const rrid = first.rrid.replace(/^RRID:/, '');
    fill.identifiers = [`RRID:${rrid}`];
    fill.evidence = [...(kb.entryById(first.id)?.papers.keys() ?? [])].sort();
    const next: IdentifierPart[] = [...parts.filter((p) => p.kind !== 'none'), { kind: 'rrid', value: rrid, label: '' }];
    return { ...row, IDENTIFIER: formatIdentifier(next) };
  });
  return { rows: out, fills };
}

// The key resources table row of the contract (spec §2.2, contracts/b-krt.md): keys exactly as written,
// RESOURCE TYPE one of 14, NEW/REUSE `new` or `reuse`. Defined once here; every part of Service B uses it.

import { typeOfCategory } from './classify.ts';

export const RESOURCE_TYPES = [
  'Dataset',
  'Software/code',
  'Protocol',
  'Antibody',
  'Bacterial strain',
  'Viral vector',
  'Biological sample',
  'Chemical, peptide, or recombinant protein',
  'Critical commercial assay',
  'Experimental model: Cell line',
  'Experimental model: Organism/strain',
  'Oligonucleotide',
  'Recombinant DNA',
  'Other',
] as const;

export type ResourceType = (typeof RESOURCE_TYPES)[number];
export type NewReuse = 'new' | 'reuse';

export interface KrtRow {
  'RESOURCE TYPE': ResourceType;
  'RESOURCE NAME': string;
  SOURCE: string;
  IDENTIFIER: string;
  'NEW/REUSE': NewReuse;
  'ADDITIONAL INFORMATION': string;
}

/** Column order of exports and of the contract. */
export const KRT_COLUMNS = [
  'RESOURCE TYPE',
  'RESOURCE NAME',
  'SOURCE',
  'IDENTIFIER',
  'NEW/REUSE',
  'ADDITIONAL INFORMATION',
] as const satisfies readonly (keyof KrtRow)[];

const TYPE_SET: ReadonlySet<string> = new Set(RESOURCE_TYPES);

export function isResourceType(value: unknown): value is ResourceType {
  return typeof value === 'string' && TYPE_SET.has(value);
}

/**
 * Resolves a loosely written type ("antibodies", "cell line", "software") to one of the 14, or null. A table's
 * category as the author-table reader maps it comes first (classify.ts typeOfCategory: STAR's headings, eLife's
 * "Genetic reagent (D. melanogaster)" or "Sequence-based reagent", which the words below would read as chemicals).
 */
export function resourceTypeFromText(text: string): ResourceType | null {
  const t = text.trim().toLowerCase();
  if (!t) return null;
  for (const type of RESOURCE_TYPES) if (type.toLowerCase() === t) return type;
  const category = typeOfCategory(text)?.type;
  if (category) return category;
  if (/antibod|^ab$/.test(t)) return 'Antibody';
  if (/cell ?line/.test(t)) return 'Experimental model: Cell line';
  if (/organism|strain|mouse|mice|\brat\b|fly|flies|zebrafish|worm|animal|model organism/.test(t) && !/bacteri/.test(t)) {
    return 'Experimental model: Organism/strain';
  }
  if (/bacteri/.test(t)) return 'Bacterial strain';
  if (/virus|viral|aav|lentivir/.test(t)) return 'Viral vector';
  if (/software|code|algorithm|program|tool/.test(t)) return 'Software/code';
  if (/data ?set|deposited|accession|database/.test(t)) return 'Dataset';
  if (/protocol/.test(t)) return 'Protocol';
  if (/sample|tissue|specimen|biopsy/.test(t)) return 'Biological sample';
  if (/kit|assay/.test(t)) return 'Critical commercial assay';
  if (/oligo|primer|sirna|shrna|sgrna|grna|probe/.test(t)) return 'Oligonucleotide';
  if (/plasmid|recombinant dna|vector|construct/.test(t)) return 'Recombinant DNA';
  if (/chemical|peptide|protein|drug|compound|reagent|enzyme/.test(t)) return 'Chemical, peptide, or recombinant protein';
  if (/other/.test(t)) return 'Other';
  return null;
}

export function makeRow(partial: Partial<KrtRow> & Pick<KrtRow, 'RESOURCE TYPE' | 'RESOURCE NAME'>): KrtRow {
  return {
    'RESOURCE TYPE': partial['RESOURCE TYPE'],
    'RESOURCE NAME': partial['RESOURCE NAME'],
    SOURCE: partial.SOURCE ?? '',
    IDENTIFIER: partial.IDENTIFIER ?? '',
    'NEW/REUSE': partial['NEW/REUSE'] ?? 'reuse',
    'ADDITIONAL INFORMATION': partial['ADDITIONAL INFORMATION'] ?? '',
  };
}

/** SOURCE "This study", "this paper", "this work" (also "generated in this study", "present study") → new. */
export function isNewSource(source: string): boolean {
  return /\bthis (study|paper|work|manuscript|article|report|publication)\b|\b(present|current) (study|work|paper)\b/i.test(source.trim());
}

export function summarizeRows(rows: readonly KrtRow[]): { total_resources: number; new_resources: number; reused_resources: number } {
  let fresh = 0;
  for (const row of rows) if (row['NEW/REUSE'] === 'new') fresh++;
  return { total_resources: rows.length, new_resources: fresh, reused_resources: rows.length - fresh };
}

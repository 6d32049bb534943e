// The key resources table row of the contract (spec §2.2, contracts/b-krt.md): keys exactly as written,
// RESOURCE TYPE one of 14, NEW/REUSE `new` or `reuse`. Defined once here; every part of Service B uses it.

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

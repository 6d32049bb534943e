// Accession numbers of public data repositories, as they appear in identifier cells and in methods text.
// Shapes from each repository's documentation (GEO, SRA/ENA/DDBJ, BioProject, ArrayExpress, PRIDE, EMDB,
// EMPIAR, PDB, GISAID, dbGaP, EGA, MassIVE, MetaboLights, BioStudies, DOIs of Zenodo, Figshare, Dryad,
// Mendeley Data, OSF, protocols.io).

type AccessionKind = 'dataset' | 'protocol' | 'sequence';

interface AccessionPattern {
  repository: string;
  /** Global, case-sensitive unless noted; group 1 (if any) is the accession, else the whole match. */
  re: RegExp;
  kind: AccessionKind;
  /** Whether the bare pattern is specific enough to trust in running text without a label. */
  standalone: boolean;
}

const ACCESSION_PATTERNS: readonly AccessionPattern[] = [
  { repository: 'GEO', re: /\b(G(?:SE|SM|PL|DS)\d{3,8})\b/g, kind: 'dataset', standalone: true },
  { repository: 'SRA', re: /\b([SED]R[APRSXZ]\d{6,9})\b/g, kind: 'dataset', standalone: true },
  { repository: 'BioProject', re: /\b(PRJ(?:NA|EB|DB|CA)\d{3,9})\b/g, kind: 'dataset', standalone: true },
  { repository: 'BioSample', re: /\b(SAM(?:N|EA|D)\d{6,10})\b/g, kind: 'dataset', standalone: true },
  { repository: 'ArrayExpress', re: /\b(E-[A-Z]{4}-\d{1,7})\b/g, kind: 'dataset', standalone: true },
  { repository: 'PRIDE', re: /\b(PXD\d{6})\b/g, kind: 'dataset', standalone: true },
  { repository: 'EMDB', re: /\bEMD(?:B)?-(\d{4,6})\b/g, kind: 'dataset', standalone: true },
  { repository: 'EMPIAR', re: /\b(EMPIAR-\d{5})\b/g, kind: 'dataset', standalone: true },
  { repository: 'GISAID', re: /\b(EPI_ISL_\d{3,9})\b/g, kind: 'sequence', standalone: true },
  { repository: 'dbGaP', re: /\b(phs\d{6}(?:\.v\d+\.p\d+)?)\b/g, kind: 'dataset', standalone: true },
  { repository: 'EGA', re: /\b(EGA[SDC]\d{11})\b/g, kind: 'dataset', standalone: true },
  { repository: 'MassIVE', re: /\b(MSV\d{9})\b/g, kind: 'dataset', standalone: true },
  { repository: 'MetaboLights', re: /\b(MTBLS\d{1,6})\b/g, kind: 'dataset', standalone: true },
  { repository: 'BioStudies', re: /\b(S-BSST\d{1,7})\b/g, kind: 'dataset', standalone: true },
  { repository: 'RefSeq', re: /\b((?:NC|NM|NR|NP|XM|XR|XP|NG|NT|NW|NZ)_\d{5,9}(?:\.\d{1,3})?)\b/g, kind: 'sequence', standalone: true },
  { repository: 'Zenodo', re: /\b(10\.5281\/zenodo\.\d{4,10})\b/gi, kind: 'dataset', standalone: true },
  { repository: 'Zenodo', re: /\bzenodo\.org\/(?:records?|deposit)\/(\d{4,10})\b/gi, kind: 'dataset', standalone: true },
  { repository: 'Figshare', re: /\b(10\.6084\/m9\.figshare\.[\w.]+\d)\b/gi, kind: 'dataset', standalone: true },
  { repository: 'Dryad', re: /\b(10\.5061\/dryad\.[a-z0-9]+)\b/gi, kind: 'dataset', standalone: true },
  { repository: 'Mendeley Data', re: /\b(10\.17632\/[a-z0-9]+(?:\.\d+)?)\b/gi, kind: 'dataset', standalone: true },
  { repository: 'OSF', re: /\bosf\.io\/([a-z0-9]{5})\b/gi, kind: 'dataset', standalone: true },
  { repository: 'protocols.io', re: /\b(10\.17504\/protocols\.io\.[a-z0-9]+)\b/gi, kind: 'protocol', standalone: true },
  // Too generic without a label: "PDB 6VXX", "GenBank: MN908947".
  {
    repository: 'PDB',
    re: /\bPDB(?:\s*(?:ID|code|entry|accession))?s?\s*[:#]?\s*(\d[A-Za-z0-9]{3})\b/g,
    kind: 'dataset',
    standalone: true,
  },
  {
    repository: 'GenBank',
    re: /\b(?:GenBank|ENA|DDBJ|INSDC)(?:\s*(?:accession|acc\.?|ID|no\.?|number))?\s*[:#]?\s*([A-Z]{1,2}\d{5,8}(?:\.\d{1,2})?)\b/g,
    kind: 'sequence',
    standalone: true,
  },
];

export interface FoundAccession {
  repository: string;
  accession: string;
  kind: AccessionKind;
  index: number;
  length: number;
}

/** Every accession in a text, in order of position, without duplicates of the same span. */
export function findAccessions(text: string): FoundAccession[] {
  const found: FoundAccession[] = [];
  for (const pattern of ACCESSION_PATTERNS) {
    pattern.re.lastIndex = 0;
    for (let m = pattern.re.exec(text); m; m = pattern.re.exec(text)) {
      let accession = m[1] ?? m[0];
      if (pattern.repository === 'Zenodo' && /^\d+$/.test(accession)) accession = `10.5281/zenodo.${accession}`;
      if (pattern.repository === 'EMDB') accession = `EMD-${accession}`;
      found.push({ repository: pattern.repository, accession, kind: pattern.kind, index: m.index, length: m[0].length });
    }
  }
  // Lists after one label: "PDB IDs 7KDG, 7KDH and 7KDK".
  const pdbList =
    /\bPDB(?:\s*(?:IDs?|codes?|entr(?:y|ies)|accession(?:\s+(?:codes?|numbers?))?))?\s*[:#]?\s*(\d[A-Za-z0-9]{3}(?:\s*(?:,|and|&)\s*\d[A-Za-z0-9]{3}\b)+)/g;
  for (let m = pdbList.exec(text); m; m = pdbList.exec(text)) {
    const listStart = m.index + m[0].length - m[1].length;
    for (const id of m[1].matchAll(/\d[A-Za-z0-9]{3}\b/g)) {
      found.push({ repository: 'PDB', accession: id[0], kind: 'dataset', index: listStart + (id.index ?? 0), length: 4 });
    }
  }
  found.sort((a, b) => a.index - b.index || b.length - a.length);
  const out: FoundAccession[] = [];
  let end = -1;
  for (const f of found) {
    if (f.index < end) continue;
    out.push(f);
    end = f.index + f.length;
  }
  return out;
}

/** Comparison key of an accession (case and DOI prefixes folded). */
export function accessionKey(accession: string): string {
  return accession.toUpperCase().replace(/^10\.5281\/ZENODO\./, 'ZENODO.');
}

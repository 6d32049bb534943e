// Research Resource Identifier registries and their identifier shapes. Shapes follow the issuing authorities
// as published on the RRID portal (scicrunch.org/resources): antibodies AB_ (Antibody Registry), tools SCR_
// and legacy nif-/nlx_/OMICS_ ids (SciCrunch Registry), cell lines CVCL_ (Cellosaurus), plasmids Addgene_,
// organisms IMSR_<repo>: (International Mouse Strain Resource), MGI:, MMRRC_, BDSC_, FlyBase_FBst, DGRC_,
// ZFIN_ZDB-, ZIRC_, RGD_, WB-STRAIN:, NXR_, EXRC_, TSC_, NSRRC_, AGSC_, and BioSample SAMN.

import type { ResourceType } from '../extract/krt-row.ts';

export interface RridRegistry {
  key: string;
  /** Who issues the identifiers. */
  authority: string;
  /** Canonical identifier (without "RRID:"), case-sensitive as the registry writes it. */
  canonical: RegExp;
  resourceType: ResourceType;
  /**
   * The kinds of resource its identifiers can name, where that is certain: an AB_ is an antibody's, a CVCL_ a cell
   * line's. Empty where it is not (a legacy NIF id, a BioSample): a resource type then only weighs in a ranking.
   */
  kinds: readonly ResourceKind[];
  /** A canonical prefix used to build examples and corrections. */
  example: string;
}

/** What a resource is, as far as a registry's identifiers and a query's resource type can say for certain. */
type ResourceKind = 'antibody' | 'cell line' | 'organism' | 'software' | 'recombinant DNA';

/**
 * The kind a query's resource type asks for, where a registry could answer it; null for the types that no registry
 * here issues identifiers for or that authors file resources of several kinds under ("Other", "Chemical, peptide, or
 * recombinant protein", where a streptavidin conjugate with an AB_ may be written, "Biological sample", "Dataset").
 */
function kindOfType(type: ResourceType): ResourceKind | null {
  switch (type) {
    case 'Antibody':
      return 'antibody';
    case 'Experimental model: Cell line':
      return 'cell line';
    case 'Experimental model: Organism/strain':
      return 'organism';
    case 'Software/code':
      return 'software';
    // Addgene issues RRIDs for plasmids and for its viral preparations ("Addgene_104061-AAV9").
    case 'Recombinant DNA':
    case 'Viral vector':
      return 'recombinant DNA';
    default:
      return null;
  }
}

/**
 * Whether an RRID can name a resource of the type asked: false only when both are certain and differ (an antibody
 * asked, a fly stock's BDSC_ given); true when either is uncertain.
 */
export function rridCanBe(canonicalId: string, type: ResourceType | null): boolean {
  const wanted = type ? kindOfType(type) : null;
  if (!wanted) return true;
  const kinds = registryOf(canonicalId)?.kinds ?? [];
  return kinds.length === 0 || kinds.includes(wanted);
}

/** Whether the type asked settles a kind, so that it filters candidates (rridCanBe) rather than only weighing. */
export function typeSaysKind(type: ResourceType | null): boolean {
  return type !== null && kindOfType(type) !== null;
}

/** The kinds an RRID's registry can name; [] where the registry does not say (a legacy NIF id, a BioSample). */
export function kindsOfRrid(canonicalId: string): readonly ResourceKind[] {
  return registryOf(canonicalId)?.kinds ?? [];
}

/** Whether two RRIDs certainly name resources of different kinds (an AB_ and a BDSC_; not an IMSR_ and a CVCL_). */
export function kindsDiffer(a: string, b: string): boolean {
  const x = kindsOfRrid(a);
  const y = kindsOfRrid(b);
  return x.length > 0 && y.length > 0 && !x.some((k) => y.includes(k));
}

export const RRID_REGISTRIES: readonly RridRegistry[] = [
  {
    key: 'AB',
    authority: 'Antibody Registry',
    canonical: /^AB_\d{3,10}$/,
    resourceType: 'Antibody',
    kinds: ['antibody'],
    example: 'AB_2107436',
  },
  {
    key: 'SCR',
    authority: 'SciCrunch Registry',
    canonical: /^SCR_\d{6}$/,
    resourceType: 'Software/code',
    kinds: ['software'],
    example: 'SCR_002285',
  },
  {
    key: 'SCR-legacy',
    authority: 'SciCrunch Registry (legacy NIF id)',
    canonical: /^(nif-\d{4}-\d{5}|nlx_\d{3,7}|OMICS_\d{4,6}|SciRes_\d{6}|birnlex_\d{3,5}|rid_\d{6})$/,
    resourceType: 'Software/code',
    kinds: [],
    example: 'nif-0000-30467',
  },
  {
    key: 'CVCL',
    authority: 'Cellosaurus',
    canonical: /^CVCL_[A-Z0-9]{4}$/,
    resourceType: 'Experimental model: Cell line',
    kinds: ['cell line'],
    example: 'CVCL_0030',
  },
  {
    key: 'Addgene',
    authority: 'Addgene',
    canonical: /^Addgene_\d{3,7}(-(AAV[0-9A-Za-z.]{1,8}|LV|Ad\d?))?$/,
    resourceType: 'Recombinant DNA',
    kinds: ['recombinant DNA'],
    example: 'Addgene_12260',
  },
  {
    key: 'IMSR',
    authority: 'International Mouse Strain Resource',
    canonical: /^IMSR_(JAX:\d{6}|[A-Z]{2,6}:[A-Za-z0-9][A-Za-z0-9._-]{0,30})$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism', 'cell line'],
    example: 'IMSR_JAX:000664',
  },
  {
    key: 'MGI',
    authority: 'Mouse Genome Informatics',
    canonical: /^MGI:\d{4,8}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'MGI:5558070',
  },
  {
    key: 'MMRRC',
    authority: 'Mutant Mouse Resource and Research Centers',
    canonical: /^MMRRC_\d{6}-[A-Z]{2,5}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism', 'cell line'],
    example: 'MMRRC_036227-UNC',
  },
  {
    key: 'BDSC',
    authority: 'Bloomington Drosophila Stock Center',
    canonical: /^BDSC_\d{1,6}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'BDSC_5137',
  },
  {
    key: 'FlyBase',
    authority: 'FlyBase',
    canonical: /^FlyBase_FBst\d{7}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'FlyBase_FBst0000040',
  },
  {
    key: 'DGRC',
    authority: 'Drosophila Genomics Resource Center',
    canonical: /^DGRC_\d{1,6}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism', 'cell line', 'recombinant DNA'],
    example: 'DGRC_101428',
  },
  {
    key: 'TSC',
    authority: 'National Drosophila Species Stock Center',
    canonical: /^TSC_\d{5}-\d{4}\.\d{2}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'TSC_14021-0224.01',
  },
  {
    key: 'ZFIN',
    authority: 'Zebrafish Information Network',
    canonical: /^ZFIN_ZDB-[A-Z]{3,5}-\d{6}-\d{1,6}$/,
    resourceType: 'Experimental model: Organism/strain',
    // ZFIN's records are also antibodies (ZDB-ATB-) and constructs (ZDB-TGCONSTRCT-).
    kinds: ['organism', 'antibody', 'recombinant DNA'],
    example: 'ZFIN_ZDB-ALT-980203-1091',
  },
  {
    key: 'ZIRC',
    authority: 'Zebrafish International Resource Center',
    canonical: /^ZIRC_(ZL\d{1,6}|ZDB-[A-Z]{3,5}-\d{6}-\d{1,6})$/,
    resourceType: 'Experimental model: Organism/strain',
    // ZIRC_ZDB- identifiers are ZFIN's records, which are also antibodies and constructs.
    kinds: ['organism', 'antibody', 'recombinant DNA'],
    example: 'ZIRC_ZL1',
  },
  {
    key: 'RGD',
    authority: 'Rat Genome Database',
    canonical: /^RGD_\d{5,8}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'RGD_734476',
  },
  {
    key: 'WB-STRAIN',
    authority: 'WormBase',
    canonical: /^WB-STRAIN:(WBStrain\d{8}|[A-Z]{1,4}\d{0,6})$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'WB-STRAIN:WBStrain00000001',
  },
  {
    key: 'NXR',
    authority: 'National Xenopus Resource',
    canonical: /^NXR_\d{1,5}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'NXR_0031',
  },
  {
    key: 'EXRC',
    authority: 'European Xenopus Resource Centre',
    canonical: /^EXRC_\d{1,5}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'EXRC_0001',
  },
  {
    key: 'NSRRC',
    authority: 'National Swine Resource and Research Center',
    canonical: /^NSRRC_\d{4}$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'NSRRC_0001',
  },
  {
    key: 'AGSC',
    authority: 'Ambystoma Genetic Stock Center',
    canonical: /^AGSC_\d{3,6}[A-Z]?$/,
    resourceType: 'Experimental model: Organism/strain',
    kinds: ['organism'],
    example: 'AGSC_100E',
  },
  {
    key: 'SAMN',
    authority: 'NCBI BioSample',
    canonical: /^SAMN\d{8}$/,
    resourceType: 'Biological sample',
    kinds: [],
    example: 'SAMN04327544',
  },
];

// Registry prefixes as written before the identifier, case-insensitive, with the canonical spelling.
// Order matters: longer prefixes first.
const PREFIXES: readonly { re: RegExp; canonical: string; sep: string }[] = [
  { re: /^IMSR[\s_:-]*JAX[\s_:-]*/i, canonical: 'IMSR_JAX', sep: ':' },
  { re: /^IMSR[\s_:-]*(?=[A-Z]{2,6}\b|[A-Z]{2,6}[\s_:-])/i, canonical: 'IMSR', sep: '_' },
  { re: /^WB[\s_-]*STRAIN[\s_:-]*/i, canonical: 'WB-STRAIN', sep: ':' },
  { re: /^FLYBASE[\s_:-]*/i, canonical: 'FlyBase', sep: '_' },
  { re: /^ADDGENE[\s_:#-]*/i, canonical: 'Addgene', sep: '_' },
  { re: /^MMRRC[\s_:-]*/i, canonical: 'MMRRC', sep: '_' },
  { re: /^A\s?B[\s_:-]*(?=\d)/i, canonical: 'AB', sep: '_' },
  { re: /^SCR[\s_:-]*(?=\d)/i, canonical: 'SCR', sep: '_' },
  { re: /^CVCL[\s_:-]*/i, canonical: 'CVCL', sep: '_' },
  { re: /^BDSC[\s_:#-]*/i, canonical: 'BDSC', sep: '_' },
  { re: /^DGRC[\s_:#-]*/i, canonical: 'DGRC', sep: '_' },
  { re: /^ZFIN[\s_:-]*/i, canonical: 'ZFIN', sep: '_' },
  { re: /^ZIRC[\s_:-]*/i, canonical: 'ZIRC', sep: '_' },
  { re: /^RGD[\s_:-]*/i, canonical: 'RGD', sep: '_' },
  { re: /^MGI[\s_:-]*/i, canonical: 'MGI', sep: ':' },
  { re: /^NXR[\s_:-]*/i, canonical: 'NXR', sep: '_' },
  { re: /^EXRC[\s_:-]*/i, canonical: 'EXRC', sep: '_' },
  { re: /^NSRRC[\s_:-]*/i, canonical: 'NSRRC', sep: '_' },
  { re: /^AGSC[\s_:-]*/i, canonical: 'AGSC', sep: '_' },
  { re: /^TSC[\s_:-]*/i, canonical: 'TSC', sep: '_' },
  // Common confusions with an obvious target.
  { re: /^JAX[\s_:#-]*(?=\d{3,6}\b)/i, canonical: 'IMSR_JAX', sep: ':' },
  { re: /^BLOOMINGTON[\s_:#-]*(?=\d)/i, canonical: 'BDSC', sep: '_' },
];

export interface ParsedRrid {
  /** What was examined, with any "RRID:" label removed. */
  input: string;
  /** Canonical form (without "RRID:") when the input is well-formed (exactly the registry's shape, up to letter
   *  case), else null. Never longer or shorter than what was written. */
  normalized: string | null;
  /**
   * The form a malformed input obviously means, when the only faults are letter case, whitespace inside the
   * identifier, a wrong separator ("AB-123", "AB 123", "SCR002285") or a registry's other name ("JAX:000664",
   * "Bloomington 5137"). Every letter and digit of the input is kept, in order: a correction never drops,
   * adds or pads a digit. A correction is a guess about what the writer meant, not a fact (see knowledge-base.ts).
   */
  corrected: string | null;
  registry: RridRegistry | null;
  wellFormed: boolean;
  /** Why it is malformed, for recommendations. */
  problem: string | null;
}

export function registryOf(canonicalId: string): RridRegistry | null {
  for (const registry of RRID_REGISTRIES) if (registry.canonical.test(canonicalId)) return registry;
  return null;
}

/** Strips an "RRID:" / "RRID" / "rrid " label and surrounding punctuation. */
export function stripRridLabel(text: string): string {
  return text
    .trim()
    .replace(/^RRID\s*[:#]?\s*/i, '')
    .replace(/[\s.;,)\]]+$/, '')
    .replace(/^[(\[]+/, '')
    .trim();
}

/**
 * Parses an RRID as a client or author wrote it. Well-formed means: after removing the "RRID:" label, the
 * identifier is exactly a registry's canonical shape, allowing only letter case ("Flybase_", "addgene_",
 * "cvcl_0030"). Anything else is malformed, with the reason; `corrected` is set only when the intended form
 * keeps every letter and digit written (see ParsedRrid.corrected). A number with too few digits
 * ("SCR_2285", "IMSR_JAX:664") is malformed and gets no correction: padding it would be a guess.
 */
export function parseRrid(raw: string): ParsedRrid {
  const input = stripRridLabel(raw);
  const fail = (problem: string, corrected: string | null = null): ParsedRrid => {
    const registry = corrected ? registryOf(corrected) : null;
    return { input, normalized: null, corrected: registry ? corrected : null, registry, wellFormed: false, problem };
  };
  if (!input) return fail('empty identifier');
  if (input.length > 80) return fail('too long to be an RRID');

  // Exact canonical (possibly with letter-case differences).
  const casefixed = fixPrefixCase(input);
  const exact = registryOf(casefixed);
  if (exact) return { input, normalized: casefixed, corrected: null, registry: exact, wellFormed: true, problem: null };

  for (const prefix of PREFIXES) {
    const m = prefix.re.exec(input);
    if (!m) continue;
    let rest = input.slice(m[0].length).replace(/\s+/g, '');
    if (!rest) return fail(`missing the identifier after ${prefix.canonical}`);
    if (prefix.canonical === 'FlyBase' && /^fbst\d+$/i.test(rest)) rest = `FBst${rest.slice(4)}`;
    if (prefix.canonical === 'ZFIN' || prefix.canonical === 'ZIRC') rest = rest.toUpperCase().replace(/^ZDB[\s_:-]*/, 'ZDB-');
    if (prefix.canonical === 'WB-STRAIN' && /^wbstrain\d{8}$/i.test(rest)) rest = `WBStrain${rest.slice(8)}`;
    if (prefix.canonical === 'CVCL') rest = rest.toUpperCase();
    const candidate = `${prefix.canonical}${prefix.sep}${rest}`;
    // Only case, whitespace, the separator and the prefix's spelling changed: every digit is kept.
    if (registryOf(candidate)) return fail(faultOf(input, m[0], prefix.canonical, prefix.sep), candidate);
    return fail(shapeProblem(prefix.canonical, rest));
  }
  const prefixOnly = /^([A-Za-z][A-Za-z-]*?)[\s_:-]*$/.exec(input)?.[1]?.toUpperCase();
  const known = prefixOnly ? PREFIXES.find((p) => p.canonical.toUpperCase() === prefixOnly) : undefined;
  if (known) return fail(`missing the identifier after ${known.canonical}${known.sep} (e.g. ${exampleFor(known.canonical)})`);
  return fail('unknown registry prefix');
}

/** What is wrong with an input whose intended form is obvious. */
function faultOf(input: string, writtenPrefix: string, canonical: string, sep: string): string {
  const faults: string[] = [];
  if (/\s/.test(input)) faults.push('it contains a space');
  const letters = writtenPrefix.replace(/[^A-Za-z]/g, '').toUpperCase();
  if (letters !== canonical.replace(/[^A-Za-z]/g, '').toUpperCase()) faults.push(`the registry prefix is ${canonical}, not ${letters}`);
  const separator = (/[^A-Za-z]*$/.exec(writtenPrefix)?.[0] ?? '').replace(/\s+/g, '');
  if (separator !== sep && !(canonical === 'IMSR_JAX' && separator === ':'))
    faults.push(separator ? `the separator is "${separator}", not "${sep}"` : `"${sep}" is missing after ${canonical}`);
  return faults.length ? faults.join('; ') : "not in the registry's canonical form";
}

/** Why the part after a recognised prefix is not an identifier of that registry. */
function shapeProblem(prefix: string, rest: string): string {
  const digits = /^\d+$/.test(rest) ? rest.length : null;
  const expected: Record<string, number> = { SCR: 6, IMSR_JAX: 6, FlyBase: 7 };
  const wanted = expected[prefix];
  if (digits !== null && wanted && digits !== wanted)
    return `${prefix} identifiers have ${wanted} digits (e.g. ${exampleFor(prefix)}); this one has ${digits}`;
  return `does not match the ${prefix} identifier pattern (e.g. ${exampleFor(prefix)})`;
}

function exampleFor(prefix: string): string {
  const registry = RRID_REGISTRIES.find((r) => r.example.startsWith(prefix));
  return registry ? `RRID:${registry.example}` : `RRID:${prefix}_…`;
}

const CASE_PREFIXES: readonly [RegExp, string][] = [
  [/^ab_/i, 'AB_'],
  [/^scr_/i, 'SCR_'],
  [/^cvcl_/i, 'CVCL_'],
  [/^addgene_/i, 'Addgene_'],
  [/^bdsc_/i, 'BDSC_'],
  [/^imsr_/i, 'IMSR_'],
  [/^mgi:/i, 'MGI:'],
  [/^mmrrc_/i, 'MMRRC_'],
  [/^flybase_fbst/i, 'FlyBase_FBst'],
  [/^dgrc_/i, 'DGRC_'],
  [/^zfin_zdb-/i, 'ZFIN_ZDB-'],
  [/^zirc_/i, 'ZIRC_'],
  [/^rgd_/i, 'RGD_'],
  [/^wb-strain:wbstrain/i, 'WB-STRAIN:WBStrain'],
  [/^wb-strain:/i, 'WB-STRAIN:'],
  [/^nxr_/i, 'NXR_'],
  [/^exrc_/i, 'EXRC_'],
  [/^nsrrc_/i, 'NSRRC_'],
  [/^agsc_/i, 'AGSC_'],
  [/^tsc_/i, 'TSC_'],
  [/^samn/i, 'SAMN'],
];

function fixPrefixCase(id: string): string {
  for (const [re, canonical] of CASE_PREFIXES) {
    if (re.test(id)) {
      let out = id.replace(re, canonical);
      if (canonical === 'CVCL_') out = out.toUpperCase();
      if (canonical === 'IMSR_') out = out.replace(/^IMSR_([a-z]+):/i, (_m, repo: string) => `IMSR_${repo.toUpperCase()}:`);
      if (canonical === 'ZFIN_ZDB-') out = `ZFIN_${out.slice(5).toUpperCase()}`;
      return out;
    }
  }
  return id;
}

/**
 * The canonical form, or the obvious correction of a near-miss ("AB 2340770" → "AB_2340770"); null when nothing
 * sensible can be made of it. For guessing a resource type only: a correction is never stored or served as an
 * identifier (extract/identifier.ts keeps what was written).
 */
export function normalizeRrid(raw: string): string | null {
  const parsed = parseRrid(raw);
  return parsed.normalized ?? parsed.corrected;
}

/** Where a human can check an RRID (the RRID portal's resolver). */
export function resolverUrl(canonicalId: string): string {
  return `https://scicrunch.org/resolver/RRID:${encodeURIComponent(canonicalId).replace(/%3A/g, ':')}`;
}

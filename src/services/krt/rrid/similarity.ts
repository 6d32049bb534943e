// Resource names compared the way a scientist reads them: "anti-GFP" ~ "GFP antibody", "Rb" = "rabbit",
// "AF488" = "Alexa Fluor 488", "β-actin" = "beta-actin", versions ignored for software. Tokens are weighted by
// rarity in the knowledge base (IDF), so "antibody" or "mouse" alone never makes two resources similar.

const GREEK: Record<string, string> = {
  α: 'alpha',
  β: 'beta',
  γ: 'gamma',
  δ: 'delta',
  ε: 'epsilon',
  κ: 'kappa',
  λ: 'lambda',
  μ: 'mu',
  σ: 'sigma',
  τ: 'tau',
  ω: 'omega',
  ζ: 'zeta',
  η: 'eta',
  θ: 'theta',
  ι: 'iota',
  ν: 'nu',
  ξ: 'xi',
  π: 'pi',
  ρ: 'rho',
  φ: 'phi',
  χ: 'chi',
  ψ: 'psi',
};

// Written forms that mean the same thing (left → canonical token).
const SYNONYMS: Record<string, string> = {
  antibodies: 'antibody',
  ab: 'antibody',
  abs: 'antibody',
  antiserum: 'antibody',
  antisera: 'antibody',
  igg: 'igg',
  mab: 'monoclonal',
  mabs: 'monoclonal',
  moab: 'monoclonal',
  monoclonals: 'monoclonal',
  pab: 'polyclonal',
  pabs: 'polyclonal',
  polyclonals: 'polyclonal',
  rb: 'rabbit',
  rbt: 'rabbit',
  ms: 'mouse',
  mse: 'mouse',
  mice: 'mouse',
  murine: 'mouse',
  gt: 'goat',
  rt: 'rat',
  dk: 'donkey',
  dnk: 'donkey',
  ck: 'chicken',
  chk: 'chicken',
  hu: 'human',
  hum: 'human',
  gp: 'guineapig',
  shp: 'sheep',
  ham: 'hamster',
  egfp: 'gfp',
  turbogfp: 'gfp',
  mcherry: 'mcherry',
  rfp: 'rfp',
  dsred: 'rfp',
  tdtomato: 'tdtomato',
  af: 'alexa',
  alexafluor: 'alexa',
  fluor: '',
  conjugated: '',
  conjugate: '',
  labeled: '',
  labelled: '',
  cells: 'cell',
  lines: 'line',
  kits: 'kit',
  plasmids: 'plasmid',
  vectors: 'vector',
  primers: 'primer',
};

const STOPWORDS = new Set([
  'the',
  'of',
  'and',
  'for',
  'to',
  'against',
  'with',
  'in',
  'a',
  'an',
  'by',
  'from',
  'on',
  'or',
  'use',
  'used',
  'raised',
  'specific',
  'recognizing',
  'recognising',
  'reactive',
]);

/** Lower case, Greek letters spelled out, accents removed, trademark signs dropped. */
export function foldText(text: string): string {
  return (
    text
      // Before NFKD, which spells ™ and ℠ as letters: "Expi293F™" is "Expi293F", not "Expi293FTM".
      .replace(/[®™©℠]/g, ' ')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[αβγδεκλμστωζηθινξπρφχψ]/gi, (c) => GREEK[c.toLowerCase()] ?? c)
      .toLowerCase()
  );
}

const VERSION_TOKEN = /^(v|ver|version)?\d+([._]\d+)*[a-z]?$/;

export interface TokenOptions {
  /** Drop version-like tokens ("v1.53", "2.14.0"): for software names. */
  dropVersions?: boolean;
}

/** Canonical tokens of a resource name (a set: order and repetition do not matter). */
export function nameTokens(name: string, options: TokenOptions = {}): string[] {
  let text = foldText(name)
    // "AF488", "A488", "Alexa Fluor® 488" → alexa488; "anti-GFP" → "antibody gfp".
    .replace(
      /\b(?:alexa\s*fluor|alexa|af)\s*[-®™]?\s*(\d{3})\b|\ba(350|405|430|488|514|532|546|555|568|594|610|633|647|660|680|700|750|790)\b/g,
      (_m, a?: string, b?: string) => ` alexa${a ?? b} `,
    )
    .replace(/\bdylight\s*(\d{3})\b/g, ' dylight$1 ')
    .replace(/\banti[-\s]+/g, ' antibody ')
    .replace(/\b(\d+)\s*x\b/g, '$1x')
    // Names written in two words as often as in one.
    .replace(/\br\s+studio\b/g, 'rstudio')
    .replace(/\bimage\s+j\b/g, 'imagej')
    .replace(/\bflow\s*jo\b/g, 'flowjo')
    .replace(/\bgraph\s*pad\b/g, 'graphpad')
    .replace(/\bmat\s*lab\b/g, 'matlab')
    .replace(/\bcell\s*profiler\b/g, 'cellprofiler');
  const out = new Set<string>();
  for (const raw of text.split(/[^a-z0-9+]+/)) {
    if (!raw || raw === '+') continue;
    let token = SYNONYMS[raw] ?? raw;
    if (!token || STOPWORDS.has(token)) continue;
    if (options.dropVersions && VERSION_TOKEN.test(token)) continue;
    if (/^\d{1,2}$/.test(token)) continue; // bare small numbers ("1", "2") say nothing
    if (token.length === 1 && token !== 'r') continue; // "v." of a version, initials; R is a language
    token = token.replace(/\+$/, '');
    if (token) out.add(token);
  }
  return [...out];
}

/** IDF weight: log((N + 1) / (df + 1)) + 1 for a token in df of N documents; at least 1. */
export function idfWeight(documents: number, documentFrequency: number): number {
  return Math.log((documents + 1) / (documentFrequency + 1)) + 1;
}

/** Document frequencies of tokens over a collection of names, for IDF weights. */
export class TokenStats {
  private df = new Map<string, number>();
  private docs = 0;

  add(tokens: Iterable<string>, delta = 1): void {
    this.docs += delta;
    for (const t of new Set(tokens)) {
      const next = (this.df.get(t) ?? 0) + delta;
      if (next <= 0) this.df.delete(t);
      else this.df.set(t, next);
    }
  }

  /** IDF weight of a token (idfWeight). */
  weight(token: string): number {
    return idfWeight(this.docs, this.df.get(token) ?? 0);
  }

  documentFrequency(token: string): number {
    return this.df.get(token) ?? 0;
  }

  get documents(): number {
    return this.docs;
  }
}

/** IDF-weighted Dice similarity of two token sets, in [0, 1]. */
export function weightedDice(a: readonly string[], b: readonly string[], weight: (token: string) => number): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  let shared = 0;
  let total = 0;
  for (const t of a) {
    const w = weight(t);
    total += w;
    if (setB.has(t)) shared += w;
  }
  for (const t of b) total += weight(t);
  return total > 0 ? (2 * shared) / total : 0;
}

// ---------------------------------------------------------------------------------------------------------
// Antibody attributes, for "same target and host" recommendations

const HOSTS = [
  'rabbit',
  'mouse',
  'rat',
  'goat',
  'donkey',
  'chicken',
  'guineapig',
  'sheep',
  'hamster',
  'human',
  'llama',
  'alpaca',
  'horse',
  'pig',
  'bovine',
  'camel',
];
const CONJUGATES =
  /\b(alexa\d{3}|dylight\d{3}|fitc|pe|apc|percp|cy[357](\.5)?|bv\d{3}|buv\d{3}|pe-?cy7|apc-?cy7|hrp|ap|biotin|biotinylated|atto\d{3}|texas red|rhodamine|tritc|gold|qdot\d{3}|irdye\s?\d{3}\w*|af\d{3})\b/;
const NOT_TARGET = new Set([
  'antibody',
  'monoclonal',
  'polyclonal',
  'igg',
  'igm',
  'igy',
  'recombinant',
  'purified',
  'affinity',
  'secondary',
  'primary',
  'clone',
  'whole',
  'molecule',
  'cross',
  'adsorbed',
  'highly',
  'h',
  'l',
  'fc',
  'fab',
  'f',
  'ab',
  'gamma',
  'chain',
  'specific',
  'preadsorbed',
  'conjugate',
  'unconjugated',
  'flow',
  'western',
  'ihc',
  'if',
  'wb',
  'icc',
  'dilution',
  'clonal',
  'isotype',
  'control',
]);

export interface AntibodyAttributes {
  /** Canonical target tokens ("gfp", "cd45"), '' when not recognised. */
  target: string;
  host: string;
  clonality: 'monoclonal' | 'polyclonal' | '';
  clone: string;
  conjugate: string;
  /** Secondary antibodies: the target is a species' immunoglobulin ("anti-rabbit IgG"). */
  secondary: boolean;
}

export function antibodyAttributes(name: string): AntibodyAttributes {
  const folded = foldText(name).replace(/\banti[-\s]+/g, 'anti-');
  const cloneMatch = /\bclone[:\s#]*([a-z0-9][\w./-]{1,20})/.exec(folded) ?? /\[([a-z]{1,4}\d[\w-]{1,15})\]/.exec(folded);
  const conj = CONJUGATES.exec(folded.replace(/\balexa\s*fluor\s*(\d{3})/g, 'alexa$1'));
  let host = '';
  // Host: a species word right before "anti-", or written as "(rabbit polyclonal)", "rabbit monoclonal".
  const species = 'rabbit|mouse|rat|goat|donkey|chicken|guinea pig|sheep|hamster|human|llama|alpaca|horse';
  const hostBeforeAnti = new RegExp(`\\b(${species})[\\s-]+anti-`).exec(folded);
  const hostWithClonality = new RegExp(`\\b(${species})\\s+(monoclonal|polyclonal|igg|igm|igy|recombinant)`).exec(folded);
  const hostInParentheses = new RegExp(`\\((?:[^()]*\\s)?(${species})(?:\\s[^()]*)?\\)`).exec(folded);
  const hostWord = hostBeforeAnti?.[1] ?? hostWithClonality?.[1] ?? hostInParentheses?.[1] ?? '';
  host = hostWord === 'guinea pig' ? 'guineapig' : hostWord;
  const clonality = /\bmonoclonal\b|\bmab\b/.test(folded) ? 'monoclonal' : /\bpolyclonal\b|\bpab\b/.test(folded) ? 'polyclonal' : '';
  // Target: what follows "anti-", else what precedes "antibody".
  let targetText =
    /anti-([^,;()[\]]+)/.exec(folded)?.[1] ?? /([^,;()[\]]+?)\s+(?:monoclonal\s+|polyclonal\s+)?antibod/.exec(folded)?.[1] ?? folded;
  targetText = targetText.replace(CONJUGATES, ' ').replace(/\bclone\b.*$/, ' ');
  const targetTokens = nameTokens(targetText).filter((t) => !NOT_TARGET.has(t) && !HOSTS.includes(t) && !/^alexa|^dylight/.test(t));
  const secondary =
    /anti-(rabbit|mouse|rat|goat|donkey|chicken|guinea pig|sheep|hamster|human|llama)\b/.test(folded) &&
    /\b(igg|igm|igy|h\s*\+\s*l|fc|fab|secondary)\b/.test(folded);
  const targetSpecies = /anti-(rabbit|mouse|rat|goat|donkey|chicken|guinea pig|sheep|hamster|human|llama)\b/.exec(folded)?.[1];
  const target = secondary && targetSpecies ? `${targetSpecies.replace(' ', '')} igg` : targetTokens.slice(0, 3).join(' ');
  return { target, host, clonality, clone: cloneMatch?.[1] ?? '', conjugate: conj?.[1] ?? '', secondary };
}

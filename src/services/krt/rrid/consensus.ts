// What the papers of the base agree a resource name stands for. A name-only question ("HEK293T", "Fiji") carries no
// catalog number or vendor to match, so the answer is the consensus of the papers that wrote that name next to an
// RRID: the RRID most of them wrote, and how clearly. Names are compared by a compact key (folded case and Greek
// letters, no separators, no words that only say the kind of resource: "HEK-293T cells" = "HEK293T"; or the same
// words in another order), also with the parenthesised part left out ("Fiji (ImageJ)" = "Fiji").
//
// Score of an RRID for a name: a / (n + 1), a = mentions of the name with that RRID, n = mentions of the name with
// any RRID: one paper alone gives 1/2, two that agree 2/3, a split vote less. The score is mapped to the probability
// of being right by its own isotonic calibration, fitted by leaving each paper out of the base and asking its names
// (calibration.ts).

import { calibratedProbability, type Calibration, type CalibrationBin } from './calibration-map.ts';
import type { ResourceType } from '../extract/krt-row.ts';
import { cleanResourceName, type SuggestableEntry } from './knowledge-base.ts';
import { kindsOfRrid } from './registry.ts';
import { antibodyAttributes, nameTokens } from './similarity.ts';

/** Words that say which kind of resource a name is, not which one. */
const KIND_WORDS = new Set(['cell', 'line', 'software', 'program', 'package', 'version', 'tool']);
// Versions as software names carry them ("v1.53", "R2020a"); "293T" is a name, not a version.
const SOFTWARE_VERSION = /^(v|ver|version)\d+([._]\d+)*[a-z]?$|^r20\d\d[ab]?$/;

// A number of one or two digits written after a slash or a hyphen is part of the name: a subline or substrain
// ("HEK293T/17" is not HEK293T, "C57BL/6" not C57BL/10) or a line's number ("HT-29" is not HT-1080); nameTokens drops
// bare small numbers, so they are joined to the word before them first.
const NUMBERED = /([A-Za-z0-9])[/-](\d{1,2})(?![\d.,])/g;

// A capital letter written as a word after a name is a subline's or a clone's letter ("HeLa K" is HeLa Kyoto, not
// HeLa; "HEK 293 T" is HEK293T); nameTokens drops single letters (a version's "v.", initials), so it is joined first.
const SUBLINE_LETTER = /([A-Za-z0-9]) ([A-Z])(?=$|[\s),;])/g;

/** The name's distinctive tokens in order (no words of kind, no software versions); [] when nothing is left. */
function distinctiveTokens(name: string): string[] {
  const tokens = nameTokens(name.replace(NUMBERED, '$1$2').replace(SUBLINE_LETTER, '$1$2')).filter(
    (t) => !KIND_WORDS.has(t) && !SOFTWARE_VERSION.test(t),
  );
  // R, the language, is the one name of a single letter.
  if (tokens.join('').length < 2 && tokens.join('') !== 'r') return [];
  return tokens;
}

/** The name's tokens in order without separators ("hek293t"), and as a set (" antibody gfp": word order aside). */
function compact(tokens: readonly string[]): string[] {
  return tokens.length ? [tokens.join(''), ` ${[...tokens].sort().join(' ')}`] : [];
}

/** A name as written, and without its parenthesised parts ("Fiji (ImageJ)" → "Fiji"). */
function variants(name: string): string[] {
  const clean = cleanResourceName(name);
  return [clean, clean.replace(/\([^()]*\)/g, ' ')];
}

/** The keys a name is compared by (empty for a name with nothing distinctive). */
export function nameKeys(name: string): string[] {
  const keys = new Set<string>();
  for (const variant of variants(name)) for (const key of compact(distinctiveTokens(variant))) keys.add(key);
  return [...keys];
}

/**
 * Whether a written name is a description before the asked name: its last words (split at spaces) are the name, and
 * words come before them ("Mycoplasma-free U2OS cells" for "U2OS"), none of them a cell line's brand. A name glued to the word before it is part of
 * another name: "UAS-DenMark::mCherry" is a fly stock's transgene, not mCherry; "HEK293T-ACE2" is not ACE2.
 */
function describes(written: string, run: readonly string[], type: ResourceType): boolean {
  const words = written.split(/\s+/).filter(Boolean);
  for (let k = 1; k < words.length; k++) {
    const tail = distinctiveTokens(words.slice(words.length - k).join(' '));
    if (tail.length > run.length) return false;
    if (tail.length === run.length && run.every((t, j) => tail[j] === t)) {
      const before = words.slice(0, words.length - k);
      // Before a cell line, a brand makes another line: "PathHunter CHO-K1" is an engineered line sold under a name
      // written in camel case (two lower-case letters, then a capital), not CHO-K1 described; "hTERT RPE-1" is RPE-1.
      // Before a tool the brand is its maker's: "GraphPad Prism" is Prism.
      if (type === 'Experimental model: Cell line' && before.some((w) => /[a-z]{2}[A-Z]/.test(w))) return false;
      return distinctiveTokens(before.join(' ')).length > 0;
    }
  }
  return false;
}

export interface ConsensusCandidate {
  entry: SuggestableEntry;
  /** Mentions of the name (or of a longer name that describes it) with this RRID; with any RRID. */
  agreeing: number;
  total: number;
  /** agreeing / (total + 1). */
  score: number;
  /** The name as the papers wrote it. */
  name: string;
}

/**
 * RRIDs written with the name, best first (most mentions, then more papers, then the older entry). A longer name that
 * ends with the name's words is the same resource described ("Mycoplasma-free U2OS cells", "human female bone
 * osteosarcoma U2OS cells" for "U2OS": words before the name of a cell line, strain or tool say what the sample is) and
 * counts as a mention of it; words after it name another resource made from it ("HEK293T-ACE2") and do not, nor does a
 * name glued to the word before it (describes: "UAS-DenMark::mCherry" is not mCherry).
 * `exact`: only the mentions written as asked (up to the compared keys).
 */
export function nameConsensus(pool: Iterable<SuggestableEntry>, name: string, options: { exact?: boolean } = {}): ConsensusCandidate[] {
  const wanted = new Set(nameKeys(name));
  if (wanted.size === 0) return [];
  const runs = variants(name)
    .map(distinctiveTokens)
    // A name of one or two letters ("R") ends too many longer names ("DESeq2 R package") to stand for them.
    .filter((t) => t.join('').length > 2);
  const found: { entry: SuggestableEntry; agreeing: number; name: string }[] = [];
  for (const entry of pool) {
    if (!entry.rrid) continue;
    // Only a resource with a name of its own: before an antibody's target, words say which antibody ("rabbit anti-").
    const described = !options.exact && distinctiveName(entry.type);
    let agreeing = 0;
    let best = '';
    let bestCount = 0;
    let bestExact = false;
    for (const [written, count] of entry.names) {
      const exact = nameKeys(written).some((k) => wanted.has(k));
      if (!exact && !(described && variants(written).some((v) => runs.some((run) => describes(v, run, entry.type))))) continue;
      agreeing += count;
      // The name shown: the most written of those written as asked, else of the described ones.
      if ((exact && !bestExact) || (exact === bestExact && count > bestCount)) {
        best = written;
        bestCount = count;
        bestExact = exact;
      }
    }
    if (agreeing > 0) found.push({ entry, agreeing, name: best });
  }
  const total = found.reduce((sum, f) => sum + f.agreeing, 0);
  return found
    .map((f) => ({ ...f, total, score: f.agreeing / (total + 1) }))
    .sort((a, b) => b.agreeing - a.agreeing || b.entry.papers.size - a.entry.papers.size || a.entry.id - b.entry.id);
}

/**
 * Antibodies the papers name after the name's target ("anti-mCherry", "Rabbit polyclonal anti-mCherry" for "mCherry"):
 * an antibody is written as its target, so a name alone may mean one of them even where no paper writes the name
 * itself with its AB_.
 */
export function antibodiesAgainst(pool: Iterable<SuggestableEntry>, name: string): SuggestableEntry[] {
  const target = antibodyAttributes(name).target;
  if (!target) return [];
  const out: SuggestableEntry[] = [];
  for (const entry of pool)
    if (
      entry.rrid &&
      kindsOfRrid(entry.rrid).includes('antibody') &&
      [...entry.names.keys()].some((n) => antibodyAttributes(n).target === target)
    )
      out.push(entry);
  return out.sort((a, b) => b.papers.size - a.papers.size || a.id - b.id);
}

/**
 * Whether a resource of this type has a name of its own: "Fiji", "HEK293T" or a strain's genotype name one resource,
 * while "anti-GFP" or "Goat anti-rabbit Alexa Fluor 488" names a target that many catalogued antibodies share.
 * A single paper's vote is worth more for the former, so the two are calibrated apart.
 */
export function distinctiveName(type: ResourceType): boolean {
  return type === 'Software/code' || type.startsWith('Experimental model');
}

/** The consensus map that applies to an answer of this type (the shared one in snapshots without the split). */
export function consensusBins(
  calibration: Pick<Calibration, 'consensus' | 'consensusDistinctive'> | null | undefined,
  type: ResourceType,
): CalibrationBin[] | undefined {
  if (!calibration) return undefined;
  return distinctiveName(type) && calibration.consensusDistinctive ? calibration.consensusDistinctive : calibration.consensus;
}

/** Probability that the consensus RRID is right, from the base's consensus calibration (1/2 when there is none). */
export function consensusProbability(bins: readonly CalibrationBin[] | undefined, score: number): number {
  return calibratedProbability(bins ? { bins: [...bins] } : null, score);
}

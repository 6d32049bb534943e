// Which RRIDs a text writes verbatim: the evidence that lets a broken mention elsewhere be repaired
// (knowledge-base.ts), and the check that every RRID the service serves was written by a source.

import { verbatimRrid } from '../extract/identifier.ts';

// A token that starts like an RRID of some registry and runs to the next character no identifier contains.
const RRID_LIKE =
  /(?<![\w-])(?:AB|SCR|CVCL|Addgene|IMSR|MGI|MMRRC|BDSC|FlyBase|DGRC|TSC|ZFIN|ZIRC|RGD|WB-STRAIN|NXR|EXRC|NSRRC|AGSC|SAMN|nif|nlx|OMICS|SciRes|birnlex|rid)[\w:.-]*/gi;

/** Canonical forms of the RRIDs a text writes in their registry's shape (letter case aside), each once, sorted. */
export function rridsWrittenIn(text: string): string[] {
  const out = new Set<string>();
  RRID_LIKE.lastIndex = 0;
  for (let m = RRID_LIKE.exec(text); m; m = RRID_LIKE.exec(text)) {
    const token = m[0].replace(/[.:-]+$/, '');
    const rrid = verbatimRrid(token);
    if (rrid) out.add(rrid);
  }
  return [...out].sort();
}

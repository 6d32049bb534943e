// Resource names as sequences of normalised words, so that a name in one paper's key resources table can be found
// in another paper's text: case, Greek letters and accents folded, hyphens and slashes split ("anti-GFP" = "anti
// GFP", "C57BL/6J" = "C57BL 6J"), punctuation dropped.

import { foldText } from '../../rrid/similarity.ts';
import { tokenize, type Token } from './sentences.ts';

export interface Word {
  /** Normalised word. */
  norm: string;
  /** Character span in the text the words were read from. */
  start: number;
  end: number;
}

/** Normalised words of a text with their character spans. */
export function wordsOf(text: string, tokens: readonly Token[] = tokenize(text)): Word[] {
  const out: Word[] = [];
  for (const token of tokens) {
    if (!/[\p{L}\p{N}]/u.test(token.text)) continue;
    let at = token.start;
    for (const piece of token.text.split(/([-/:])/)) {
      if (piece && !/^[-/:]$/.test(piece)) {
        const norm = foldText(piece).replace(/[^\p{L}\p{N}+]/gu, '');
        if (norm) out.push({ norm, start: at, end: at + piece.length });
      }
      at += piece.length;
    }
  }
  return out;
}

/** The key of a name: its normalised words joined by spaces. */
export function nameKey(name: string): string {
  return wordsOf(name)
    .map((w) => w.norm)
    .join(' ');
}

// Words that never make a name on their own.
const ALONE_MEANINGLESS = new Set([
  'mouse',
  'mice',
  'human',
  'rat',
  'rabbit',
  'goat',
  'donkey',
  'chicken',
  'sheep',
  'antibody',
  'antibodies',
  'cells',
  'cell',
  'kit',
  'software',
  'plasmid',
  'primer',
  'primers',
  'this',
  'study',
  'paper',
  'none',
  'n',
  'a',
  'na',
  'other',
  'water',
  'control',
  'the',
  'and',
  'of',
  'in',
  'for',
  'with',
  'to',
  'v',
  'r',
]);

/** Whether a name key can stand as a gazetteer entry (not one generic word, not a lone letter or number). */
export function usableKey(key: string): boolean {
  if (!key || key.length < 2) return false;
  const words = key.split(' ');
  if (words.length > 8) return false;
  if (words.length === 1 && (ALONE_MEANINGLESS.has(words[0]) || /^\d{1,3}$/.test(words[0]))) return false;
  return true;
}

/**
 * Ways a key resources table names a resource that text may use: the name without dilutions, the part before a
 * parenthesis, what the parenthesis holds, the part after a "Species:" prefix, each side of " / ".
 */
export function nameVariants(name: string): string[] {
  const cleaned = name
    .replace(/\((?:[^()]*\b(?:1\s*:\s*\d[\d,]*|dilution|wb|if|ihc|icc|facs|ip|clone|cat|lot)\b[^()]*)\)/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const out = new Set<string>([cleaned]);
  const afterColon = /^[^:]{1,30}:\s*(.+)$/.exec(cleaned)?.[1];
  const bases = afterColon ? [cleaned, afterColon] : [cleaned];
  for (const base of bases) {
    out.add(base);
    const before = base.split('(')[0].trim();
    if (before) out.add(before);
    for (const m of base.matchAll(/\(([^()]{2,60})\)/g)) out.add(m[1].trim());
    for (const side of base.split(/\s+\/\s+|;\s*/)) if (side.trim()) out.add(side.trim());
  }
  return [...out].filter(Boolean);
}

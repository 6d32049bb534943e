// Sentences and tokens of an article's text, for the learned extractor: where a resource is mentioned and what
// surrounds the mention. Units of text come from the rule extractor's reader (text-extractor.ts collectUnits),
// so both extractors read the same parts of an article (methods, captions; not references, funding, author tables).

import type { XmlElement } from '../../jats/tree.ts';
import { collectUnits, type TextUnit } from '../text-extractor.ts';

interface Sentence {
  text: string;
  /** Index of the unit (paragraph, caption, list item) it belongs to, and its offset there. */
  unit: number;
  offset: number;
  /** Titles of the enclosing sections, innermost last. */
  sections: string[];
}

export interface Token {
  text: string;
  start: number;
  end: number;
}

// Abbreviations after which a full stop does not end a sentence.
const NO_BREAK_BEFORE =
  /(?:\b(?:e\.g|i\.e|et al|etc|vs|approx|ca|cf|Fig|Figs|Ref|Refs|Suppl|Cat|cat|no|No|nos|Dr|Inc|Ltd|Co|Corp|St|min|sec|hr|conc|Ex|Em|resp|spp|sp|var|ver|v)\.)$/;

/** Sentence spans of a text: a break after . ! ? followed by space and a capital, digit or bracket. */
function sentenceSpans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  const re = /[.!?](?=\s+[A-Z0-9(\[“"])/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + 1;
    if (NO_BREAK_BEFORE.test(text.slice(Math.max(start, end - 12), end))) continue;
    if (/\d\.$/.test(text.slice(end - 2, end)) && /^\s*\d/.test(text.slice(end))) continue;
    out.push({ start, end });
    start = end;
    while (start < text.length && /\s/.test(text[start])) start++;
  }
  if (start < text.length) out.push({ start, end: text.length });
  return out.filter((s) => s.end > s.start);
}

export interface ArticleText {
  units: TextUnit[];
  sentences: Sentence[];
  /** Generic reagent tables outside the author table (the rule extractor reads their rows). */
  tables: XmlElement[];
}

/** The article's units of text and their sentences, author tables left out. */
export function articleText(article: XmlElement, skipTables: ReadonlySet<XmlElement>): ArticleText {
  const { units, tables } = collectUnits(article, skipTables);
  const sentences: Sentence[] = [];
  units.forEach((unit, i) => {
    for (const span of sentenceSpans(unit.text))
      sentences.push({ text: unit.text.slice(span.start, span.end), unit: i, offset: span.start, sections: unit.sections });
  });
  return { units, sentences, tables };
}

// Words, with inner hyphens, slashes, dots, plus signs and apostrophes kept: "C57BL/6J", "anti-GFP", "pcDNA3.1".
const TOKEN = /[\p{L}\p{N}]+(?:['’.\/+:-][\p{L}\p{N}]+)*\+?|[^\s\p{L}\p{N}]/gu;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) out.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

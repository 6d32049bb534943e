// Candidate resources of an article's text for the learned extractor. Mentions come from three sources:
//   rules      the rule extractor's finders (text-extractor.ts: vendor/catalog parentheticals, RRIDs, stock
//              numbers, software with versions, cell lines, strains, oligos, accessions) and generic reagent tables;
//   gazetteer  names other papers' key resources tables list (gazetteer.ts);
//   patterns   sentence shapes that name resources: "rabbit anti-GFP", "GFP antibody", "HEK293T cells",
//              "Ai14 mice", "RNeasy Mini Kit", "Fiji software", "pX330", "SB431542", "… was purchased from …".
// Overlapping spans in a sentence are resolved to one (rules first, then patterns, then the longest), and the
// mentions of one resource (same name key or a shared identifier) form one candidate with all its evidence.

import { findVendor } from '../vendors.ts';
import { genericTableRows } from '../author-table.ts';
import { formatIdentifier, identifierKeys, parseIdentifierText } from '../identifier.ts';
import type { KrtRow } from '../krt-row.ts';
import { mentionRow, mentionsOfUnit, namesWrittenIn, type MentionRule } from '../text-extractor.ts';
import type { Gazetteer, PaperContribution } from './gazetteer.ts';
import { nameKey, wordsOf, type Word } from './names.ts';
import type { ArticleText } from './sentences.ts';

type PatternKind =
  | 'anti'
  | 'antibody'
  | 'cells'
  | 'organism'
  | 'kit'
  | 'software'
  | 'plasmid'
  | 'code'
  | 'purchased'
  | 'dose'
  | 'product'
  | 'construct'
  | 'instrument';
type Origin = `rule:${MentionRule}` | 'table' | 'gazetteer' | `pattern:${PatternKind}`;

export interface CandidateMention {
  origin: Origin;
  /** Sentence index (-1 for a table row). */
  sentence: number;
  start: number;
  end: number;
  surface: string;
  /** What a rule or a table row made of it (vendor, identifiers, type). */
  row: KrtRow | null;
  /** The best gazetteer entry inside the span, if any. */
  gazetteerKey: string | null;
}

export interface Candidate {
  key: string;
  mentions: CandidateMention[];
  /** Identifier keys of its rows (catalog numbers, RRIDs, accessions, stock numbers). */
  identifiers: Set<string>;
}

const PRIORITY: Record<string, number> = { rule: 3, table: 3, pattern: 2, gazetteer: 1 };
const priorityOf = (origin: Origin) => PRIORITY[origin.split(':')[0]];

const HOST = '(?:rabbit|mouse|rat|goat|donkey|chicken|guinea[- ]pig|sheep|hamster|human|llama|alpaca|horse|armenian hamster)';
const NAMEY = String.raw`[A-Z0-9α-ωΑ-Ω][\w.\/+α-ω-]*`;
const PATTERNS: readonly { kind: PatternKind; re: RegExp; group?: number }[] = [
  {
    kind: 'anti',
    re: new RegExp(
      String.raw`\b(?:${HOST}\s+(?:monoclonal\s+|polyclonal\s+)?)?anti-?\s?(?:${NAMEY}|[a-z]{1,4}-?[A-Z0-9][\w.-]*)(?:\s\(?[A-Z0-9][\w.-]*\)?)?`,
      'gi',
    ),
  },
  {
    kind: 'antibody',
    re: new RegExp(
      String.raw`\b((?:${NAMEY}\s){0,2}${NAMEY})\s+(?:monoclonal\s+|polyclonal\s+|primary\s+|secondary\s+)?antibod(?:y|ies)\b`,
      'g',
    ),
    group: 1,
  },
  { kind: 'cells', re: /\b([A-Z][\w.\/+-]*\d[\w.\/+-]*|[A-Z][a-z]?[A-Z][\w.\/+-]*)\s+(?:cells?|cell lines?)\b/g, group: 1 },
  {
    kind: 'organism',
    re: /\b((?:[A-Za-z0-9][\w.\/();:+<>-]*\s){0,2}[A-Za-z0-9][\w.\/();:+<>-]*[A-Z0-9\/;:)>][\w.\/();:+<>-]*)\s+(?:(?:reporter|transgenic|knock-?in|knock-?out|mutant|driver)\s+)?(?:mice|mouse|mouse lines?|rats|flies|fish|zebrafish|worms|larvae|animals|line)\b/g,
    group: 1,
  },
  // Genetic constructs and alleles: "Flk-1-GFP", "Rosa26-BFP", "T/Bra::GFP", "Pdgfrb-Cre/ERT2", "Gnaq fl/fl".
  {
    kind: 'construct',
    re: /(?<![\w-])[\w.\/-]*(?:GFP|YFP|RFP|BFP|CFP|mCherry|tdTomato|Cre|CreER(?:T2)?|Gal4|GAL4|UAS|LexA|flox|fl\/fl|::)[\w.\/:()+-]*/g,
  },
  {
    kind: 'instrument',
    re: /\b((?:[A-Z][\w.+-]*\s){0,3}[A-Z0-9][\w.+-]*\s+(?:microscope|machine|system|plate reader|reader|cytometer|sequencer|scanner|camera|processor|centrifuge|spectrometer|spectrophotometer|imager|analy[sz]er|instrument|detector|objective|thermocycler|cycler))\b/g,
    group: 1,
  },
  {
    kind: 'kit',
    re: /\b((?:[A-Z][\w®™.+-]*\s){0,4}[A-Z][\w®™.+-]*\s+(?:[Kk]it|[Aa]ssay|[Mm]aster [Mm]ix|[Rr]eagent|[Ss]ystem))\b/g,
    group: 1,
  },
  {
    kind: 'software',
    re: /\b([A-Z][\w.+-]*(?:\s(?:[A-Z][\w.+-]*|v?\d+(?:\.\d+)*[a-z]?))?)\s+(?:software|package|toolbox|plug-?in|pipeline|program|library)\b/g,
    group: 1,
  },
  // A dose or concentration, then what was dosed: "3% hydrogen peroxide", "10 ng/ml BMP4", "2 µM IWP2".
  {
    kind: 'dose',
    re: /\b\d+(?:[.,]\d+)?\s?(?:%|[mµμunp]M|M|[mµμun]g\/[mµμ]?[lL]|U\/[mµμ]?[lL]|units\/[mµμ]?[lL]|[mµμ][lL]|[mµμn]g)\s+((?:[\w\-–'’,.()\/+α-ω]+?)(?:\s(?!(?:in|and|or|with|for|at|to|was|were|the|of|on|from|as|by|per|containing|supplemented|followed)\b)[\w\-–'’.()\/+α-ω]+){0,3})(?=[\s,;)]|$)/g,
    group: 1,
  },
  // Trade names: "TrypLE Express", "GlutaMAX", "Lipofectamine® 3000", "StemFlex medium".
  {
    kind: 'product',
    re: /\b((?:[A-Z][a-z]+[A-Z][\w]*|[A-Z][\w-]*[®™])(?:\s?[®™])?(?:\s(?:\d{2,4}|[Ee]xpress|[Pp]lus|[Mm]ax|[Mm]ini|[Mm]edia|[Mm]edium|[Rr]eagent|[Ss]upplement|[Bb]uffer|[Ss]olution|[Kk]it|[Mm]ix|[A-Z][\w-]*))?)/g,
    group: 1,
  },
  { kind: 'plasmid', re: /\bp(?:cDNA|[A-Z0-9])[\w.()\/+-]{2,}/g },
  { kind: 'code', re: /\b[A-Z]{1,5}-?\d{3,}[A-Za-z0-9-]*\b/g },
  {
    kind: 'purchased',
    re: /\b((?:[\w.\/+α-ω-]+\s){0,5}[\w.\/+α-ω-]+)\s+(?:was|were)\s+(?:purchased|obtained|bought|ordered|acquired|supplied|provided|kindly provided|a (?:kind )?gift)\b/g,
    group: 1,
  },
];

const LEADING =
  /^(?:(?:the|a|an|and|or|with|using|used|uses|of|in|for|by|from|to|all|both|each|then|we|our|fresh|\d+(?:[.,]\d+)?\s*(?:%|[µμunm]?[gMlL]|mM|µM|μM|nM|mg\/ml|µg\/ml|U))\s+)+/i;
const TRAILING_GENERIC =
  /\s+(?:cells?|cell lines?|lines?|mice|mouse|rats|flies|fish|zebrafish|worms|antibod(?:y|ies)|software|package|plasmids?|strains?)$/i;

/** The key that groups mentions of one resource: normalised words, without leading articles or trailing kind words. */
function groupKey(surface: string): string {
  return nameKey(
    surface
      .replace(LEADING, '')
      .replace(/\s+(?:v(?:ersion)?\s?)?\d+(?:\.\d+)+[a-z]?$/i, '')
      .replace(TRAILING_GENERIC, ''),
  );
}

function sentenceAt(text: ArticleText, unit: number, index: number): number {
  let found = -1;
  for (let i = 0; i < text.sentences.length; i++) {
    const s = text.sentences[i];
    if (s.unit < unit) continue;
    if (s.unit > unit) break;
    if (s.offset <= index) found = i;
    else break;
  }
  return found;
}

function cleanSurface(surface: string): string {
  let out = surface
    .replace(LEADING, '')
    .replace(/^[\s,;:(]+|[\s,;:(.]+$/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  // An opening parenthesis that does not close ends the name ("fetal bovine serum (FBS").
  const open = out.lastIndexOf('(');
  if (open > 0 && out.indexOf(')', open) < 0) out = out.slice(0, open).trim();
  return out;
}

function usableSurface(surface: string): boolean {
  if (!surface || surface.length > 120 || surface.split(' ').length > 12) return false;
  if (!/\p{L}{2}/u.test(surface)) return false;
  // A supplier on its own is not a resource.
  const vendor = findVendor(surface);
  if (vendor && vendor.index === 0 && vendor.length >= surface.length - 1) return false;
  return groupKey(surface).length >= 2;
}

/** What does not depend on the gazetteer: rule, pattern and table mentions, and each sentence's words. */
export interface BaseMentions {
  perSentence: Map<number, CandidateMention[]>;
  tables: CandidateMention[];
  words: Word[][];
}

/** Rule, pattern and table mentions of an article (computed once; the gazetteer's are added per model). */
export function baseMentions(text: ArticleText): BaseMentions {
  const perSentence = new Map<number, CandidateMention[]>();
  const add = (m: CandidateMention) => {
    const list = perSentence.get(m.sentence) ?? [];
    list.push(m);
    perSentence.set(m.sentence, list);
  };
  // Rules, sentence by sentence of their unit.
  const names = namesWrittenIn(text.units.map((unit) => unit.text));
  text.units.forEach((unit, u) => {
    for (const m of mentionsOfUnit(unit, names)) {
      const surface = cleanSurface(m.name);
      if (!usableSurface(surface)) continue;
      let start = unit.text.lastIndexOf(m.name, m.index + m.name.length);
      if (start < 0) start = Math.max(0, m.index - m.name.length);
      const sentence = sentenceAt(text, u, start);
      if (sentence < 0) continue;
      const offset = text.sentences[sentence].offset;
      // An oligonucleotide is named by its sequence as much as by its name: keep the sequence as written.
      const sequence = m.rule === 'oligo' ? /^5\s?['′’][^]*?3\s?['′’]/.exec(unit.text.slice(m.index))?.[0] : undefined;
      add({
        origin: `rule:${m.rule ?? 'parenthetical'}`,
        sentence,
        start: start - offset,
        end: Math.max(start - offset + 1, m.index - offset),
        surface: sequence ? `${surface} ${sequence}` : surface,
        row: mentionRow(m, unit),
        gazetteerKey: null,
      });
    }
  });
  // Patterns, in each sentence.
  text.sentences.forEach((s, i) => {
    for (const { kind, re, group } of PATTERNS) {
      re.lastIndex = 0;
      for (let m = re.exec(s.text); m; m = re.exec(s.text)) {
        const raw = group ? m[group] : m[0];
        const start = m.index + (group ? m[0].indexOf(raw) : 0);
        const surface = cleanSurface(raw);
        if (!usableSurface(surface)) continue;
        add({ origin: `pattern:${kind}`, sentence: i, start, end: start + raw.length, surface, row: null, gazetteerKey: null });
      }
    }
  });
  const tables: CandidateMention[] = [];
  for (const table of text.tables)
    for (const row of genericTableRows(table)) {
      const surface = cleanSurface(row['RESOURCE NAME']);
      if (usableSurface(surface)) tables.push({ origin: 'table', sentence: -1, start: 0, end: 0, surface, row, gazetteerKey: null });
    }
  return { perSentence, tables, words: text.sentences.map((s) => wordsOf(s.text)) };
}

/** Mentions of every kind, overlaps resolved, then grouped into candidates. */
export function candidatesOf(
  text: ArticleText,
  gazetteer: Gazetteer | null,
  without?: PaperContribution,
  base: BaseMentions = baseMentions(text),
): Candidate[] {
  const listed = (key: string) => gazetteer?.get(key, without)?.listed ?? 0;
  const kept: CandidateMention[] = [];
  for (let sentence = 0; sentence < text.sentences.length; sentence++) {
    const words = base.words[sentence];
    const hits = gazetteer
      ? gazetteer.match(words, without).map((h) => ({ key: h.key, start: words[h.from].start, end: words[h.to - 1].end }))
      : [];
    const list = [...(base.perSentence.get(sentence) ?? [])];
    const s = text.sentences[sentence];
    for (const hit of hits) {
      const surface = cleanSurface(s.text.slice(hit.start, hit.end));
      if (usableSurface(surface))
        list.push({ origin: 'gazetteer', sentence, start: hit.start, end: hit.end, surface, row: null, gazetteerKey: hit.key });
    }
    if (list.length === 0) continue;
    // One span per overlap: rules first, then patterns, then gazetteer; longer first. The best gazetteer entry
    // inside a kept span stays with it.
    const order = list.sort(
      (a, b) => priorityOf(b.origin) - priorityOf(a.origin) || b.end - b.start - (a.end - a.start) || a.start - b.start,
    );
    const chosen: CandidateMention[] = [];
    for (const m of order) {
      const overlapping = chosen.find((c) => m.start < c.end && c.start < m.end);
      if (overlapping) {
        // Two rules saw the same mention ("(Abcam, ab290, RRID:AB_303395)"): one mention with both identifiers.
        if (overlapping.row && m.row) {
          const index = chosen.indexOf(overlapping);
          chosen[index] = { ...overlapping, row: mergedRow(overlapping.row, m.row) };
        }
        continue;
      }
      let best: string | null = m.gazetteerKey;
      for (const h of hits) if (h.start >= m.start && h.end <= m.end && (best === null || listed(h.key) > listed(best))) best = h.key;
      chosen.push(best !== m.gazetteerKey ? { ...m, gazetteerKey: best } : m);
    }
    kept.push(...chosen);
  }
  kept.push(...base.tables);
  return group(kept);
}

function mergedRow(kept: KrtRow, other: KrtRow): KrtRow {
  return {
    ...kept,
    SOURCE: kept.SOURCE || other.SOURCE,
    IDENTIFIER: formatIdentifier(parseIdentifierText(`${kept.IDENTIFIER}; ${other.IDENTIFIER}`)),
    'ADDITIONAL INFORMATION': kept['ADDITIONAL INFORMATION'] || other['ADDITIONAL INFORMATION'],
  };
}

/** Mentions with the same group key or a shared identifier are one candidate (union-find). */
function group(mentions: CandidateMention[]): Candidate[] {
  const parent = mentions.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const byKey = new Map<string, number>();
  const keysOf = mentions.map((m) => (m.row ? identifierKeys(m.row.IDENTIFIER, { source: m.row.SOURCE }) : new Set<string>()));
  mentions.forEach((m, i) => {
    for (const k of [`N:${groupKey(m.surface)}`, ...[...keysOf[i]].map((k) => `I:${k}`)]) {
      const seen = byKey.get(k);
      if (seen === undefined) byKey.set(k, i);
      else union(seen, i);
    }
  });
  const groups = new Map<number, Candidate>();
  mentions.forEach((m, i) => {
    const root = find(i);
    let c = groups.get(root);
    if (!c) {
      c = { key: groupKey(mentions[root].surface), mentions: [], identifiers: new Set() };
      groups.set(root, c);
    }
    c.mentions.push(m);
    for (const k of keysOf[i]) c.identifiers.add(k);
  });
  return [...groups.values()];
}

/** The vendor named by a candidate's rows, or written right after one of its mentions. */
export function vendorOf(candidate: Candidate, text: ArticleText): string {
  for (const m of candidate.mentions) if (m.row?.SOURCE) return m.row.SOURCE;
  for (const m of candidate.mentions) {
    if (m.sentence < 0) continue;
    const after = text.sentences[m.sentence].text.slice(m.end, m.end + 60);
    const paren = /^\s*\(([^()]{2,58})\)/.exec(after);
    const found = paren ? findVendor(paren[1]) : null;
    if (found) return found.vendor.name;
  }
  return '';
}

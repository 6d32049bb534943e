// is_notable / notable_reason from the versioned keyword rule file (notable-keywords.json): whole-word,
// case-insensitive matching in title, description and program.
import rulesFile from './notable-keywords.json' with { type: 'json' };

interface NotableCategory {
  id: string;
  label: string;
  /** The label in French, for the French pages and `lang=fr` (the rules match the English texts either way). */
  label_fr: string;
  keywords: string[];
}

export interface NotableRules {
  version: string;
  categories: NotableCategory[];
}

type NotableField = 'title' | 'description' | 'program';

export interface NotableMatch {
  categoryId: string;
  categoryLabel: string;
  keyword: string; // as written in the rule file
  field: NotableField;
  /** "Events and hospitality: \"gala\" in title" — names the category and the keyword. */
  reason: string;
}

export interface NotableTexts {
  title: string;
  description: string;
  program: string;
}

const FIELD_ORDER: readonly NotableField[] = ['title', 'description', 'program'];

/** The rule file shipped with the service. */
export const NOTABLE_RULES: NotableRules = rulesFile as NotableRules;
export const NOTABLE_RULES_VERSION: string = NOTABLE_RULES.version;

/** A rule category's label in `language` (its id when the rule file has no such category). */
export function notableCategoryLabel(id: string, language: 'en' | 'fr'): string {
  const category = NOTABLE_RULES.categories.find((c) => c.id === id);
  return category === undefined ? id : language === 'fr' ? category.label_fr : category.label;
}

const FIELD_IN_FRENCH: Record<NotableField, string> = {
  title: 'dans le titre anglais',
  description: 'dans la description anglaise',
  program: 'dans le nom anglais du programme',
};

/**
 * A stored `notable_reason` (as `match` writes it: Events and hospitality: "gala" in title) in French: « Événements et
 * réceptions : « gala » dans le titre anglais », the keyword as the rule writes it. Null when the reason is not in that
 * form or names no category of the rule file (one written by another version of the rules).
 */
export function notableReasonInFrench(reason: string): string | null {
  const parts = /^(.+): "(.+)" in (title|description|program)$/.exec(reason);
  const category = parts && NOTABLE_RULES.categories.find((c) => c.label === parts[1]);
  if (!parts || !category) return null;
  return `${category.label_fr} : « ${parts[2]} » ${FIELD_IN_FRENCH[parts[3] as NotableField]}`;
}

interface KeywordEntry {
  category: NotableCategory;
  keyword: string;
  tokens: string[];
}

/** Word characters (letters, digits, underscore) for the Basic Multilingual Plane, precomputed once. */
const WORD_CHAR = (() => {
  const table = new Uint8Array(0x10000);
  const test = /[\p{L}\p{N}_]/u;
  for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) table[c] = test.test(String.fromCharCode(c)) ? 1 : 0;
  return table;
})();

const HASH_SLOTS = 1 << 16;
const HASH_MULTIPLIER = 31;
/** ASCII code units lower-cased (A–Z → a–z). */
const ASCII_LOWER = Uint8Array.from({ length: 128 }, (_, c) => (c >= 65 && c <= 90 ? c + 32 : c));

/** A hash of the lower-cased ASCII word text[start…end), as `first` computes it while scanning. */
function asciiWordHash(text: string, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, HASH_MULTIPLIER) + ASCII_LOWER[text.charCodeAt(i)]) | 0;
  return hash;
}

/** End of the word starting at `i` of `text` (a run of word characters). */
function wordEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length && WORD_CHAR[text.charCodeAt(j)] === 1) j++;
  return j;
}

/** Lower-case words of a text: maximal runs of letters, digits and underscores (at most `limit`). */
function words(text: string, limit = Infinity): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  const n = lower.length;
  let i = 0;
  while (i < n && out.length < limit) {
    while (i < n && WORD_CHAR[lower.charCodeAt(i)] === 0) i++;
    if (i >= n) break;
    const j = wordEnd(lower, i);
    out.push(lower.slice(i, j));
    i = j;
  }
  return out;
}

/** The first (longest) of `candidates`, keywords sharing a first word, whose other words are w[from…]. */
function matchAt(candidates: readonly KeywordEntry[], w: readonly string[], from: number): KeywordEntry | null {
  for (const entry of candidates) {
    const t = entry.tokens;
    if (from + t.length - 1 > w.length) continue;
    let k = 1;
    while (k < t.length && w[from + k - 1] === t[k]) k++;
    if (k === t.length) return entry;
  }
  return null;
}

/**
 * Matching compares words, not characters: a keyword matches where its words appear consecutively in the
 * text (any spaces or punctuation between them), so "gala" never matches inside "galaxy" or "gala2024",
 * and "oil sands" matches "oil\n sands". Faster than one large regular expression on 1.3 million rows.
 */
export class NotableMatcher {
  readonly version: string;
  /** First word → keywords starting with it, longest first. */
  private readonly byFirstWord = new Map<string, KeywordEntry[]>();
  // Cheap filters before a word is cut out of an ASCII text and looked up: 1 where some keyword's first word
  // has this length (255: that long or longer), or this hash (asciiWordHash, its low 16 bits). Nearly every
  // word fails them, so an ASCII text is scanned as it is, without a lower-case copy or a word list. (Not a
  // filter on the first letter: about half of all words would pass it, and each would be cut out and looked up.)
  private readonly firstWordLength = new Uint8Array(256);
  private readonly firstWordHash = new Uint8Array(HASH_SLOTS);

  constructor(rules: NotableRules = NOTABLE_RULES) {
    if (!rules.version) throw new Error('notable rules: a version is required');
    this.version = rules.version;
    const seen = new Map<string, NotableCategory>();
    for (const category of rules.categories) {
      for (const keyword of category.keywords) {
        const tokens = words(keyword);
        if (tokens.length === 0) throw new Error(`notable rules: empty keyword in category ${category.id}`);
        const key = tokens.join(' ');
        const previous = seen.get(key);
        if (previous) throw new Error(`notable rules: keyword "${keyword}" is in both ${previous.id} and ${category.id}`);
        seen.set(key, category);
        const list = this.byFirstWord.get(tokens[0]) ?? [];
        list.push({ category, keyword, tokens });
        list.sort((a, b) => b.tokens.length - a.tokens.length);
        this.byFirstWord.set(tokens[0], list);
        this.firstWordLength[Math.min(tokens[0].length, 255)] = 1;
        // (a first word that is not ASCII cannot be an ASCII word of a text; texts with other characters take the slow path)
        if (/^[\x00-\x7f]*$/.test(tokens[0])) this.firstWordHash[asciiWordHash(tokens[0], 0, tokens[0].length) & (HASH_SLOTS - 1)] = 1;
      }
    }
  }

  /** The keyword that matches first in `text`, or null. */
  private first(text: string): KeywordEntry | null {
    const n = text.length;
    let i = 0;
    while (i < n) {
      let unit = text.charCodeAt(i);
      while (WORD_CHAR[unit] === 0) {
        if (unit >= 128) return this.firstInWords(words(text));
        if (++i >= n) return null;
        unit = text.charCodeAt(i);
      }
      const start = i;
      let hash = 0;
      while (i < n && WORD_CHAR[(unit = text.charCodeAt(i))] === 1) {
        if (unit >= 128) return this.firstInWords(words(text));
        hash = (Math.imul(hash, HASH_MULTIPLIER) + ASCII_LOWER[unit]) | 0;
        i++;
      }
      // an ASCII word: lower-casing keeps its bounds, so it can be checked here
      if (this.firstWordHash[hash & (HASH_SLOTS - 1)] === 1 && this.firstWordLength[Math.min(i - start, 255)] === 1) {
        const candidates = this.byFirstWord.get(text.slice(start, i).toLowerCase());
        // the words after this one, as many as the longest candidate needs (candidates are rare)
        const entry = candidates && matchAt(candidates, words(text.slice(i), candidates[0].tokens.length - 1), 0);
        if (entry) return entry;
      }
    }
    return null;
  }

  /** The first keyword matching in a list of lower-case words. */
  private firstInWords(w: readonly string[]): KeywordEntry | null {
    for (let i = 0; i < w.length; i++) {
      if (this.firstWordLength[Math.min(w[i].length, 255)] === 0) continue;
      const candidates = this.byFirstWord.get(w[i]);
      const entry = candidates && matchAt(candidates, w, i + 1);
      if (entry) return entry;
    }
    return null;
  }

  /** The first match (fields in the order title, description, program), or null. */
  match(texts: NotableTexts): NotableMatch | null {
    for (const field of FIELD_ORDER) {
      const text = texts[field];
      if (!text) continue;
      const entry = this.first(text);
      if (!entry) continue;
      return {
        categoryId: entry.category.id,
        categoryLabel: entry.category.label,
        keyword: entry.keyword,
        field,
        reason: `${entry.category.label}: "${entry.keyword}" in ${field}`,
      };
    }
    return null;
  }
}

// is_notable / notable_reason from the versioned keyword rule file (notable-keywords.json): whole-word,
// case-insensitive matching in title, description and program.
import rulesFile from './notable-keywords.json' with { type: 'json' };

export interface NotableCategory {
  id: string;
  label: string;
  keywords: string[];
}

export interface NotableRules {
  version: string;
  categories: NotableCategory[];
}

export type NotableField = 'title' | 'description' | 'program';

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

/** Lower-case words of a text: maximal runs of letters, digits and underscores. */
function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  const n = lower.length;
  let i = 0;
  while (i < n) {
    while (i < n && WORD_CHAR[lower.charCodeAt(i)] === 0) i++;
    if (i >= n) break;
    let j = i + 1;
    while (j < n && WORD_CHAR[lower.charCodeAt(j)] === 1) j++;
    out.push(lower.slice(i, j));
    i = j;
  }
  return out;
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
  private readonly firstWordLengths = new Set<number>();

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
        this.firstWordLengths.add(tokens[0].length);
      }
    }
  }

  private first(text: string): KeywordEntry | null {
    const w = words(text);
    for (let i = 0; i < w.length; i++) {
      if (!this.firstWordLengths.has(w[i].length)) continue;
      const candidates = this.byFirstWord.get(w[i]);
      if (!candidates) continue;
      for (const entry of candidates) {
        const t = entry.tokens;
        if (i + t.length > w.length) continue;
        let k = 1;
        while (k < t.length && w[i + k] === t[k]) k++;
        if (k === t.length) return entry;
      }
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

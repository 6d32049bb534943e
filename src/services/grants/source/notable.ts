// is_notable / notable_reason from the versioned keyword rule file (notable-keywords.json): whole-word,
// case-insensitive matching in title, description and program, one compiled regular expression for speed.
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function foldKeyword(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

export class NotableMatcher {
  readonly version: string;
  private readonly pattern: RegExp;
  private readonly byKeyword = new Map<string, { category: NotableCategory; keyword: string }>();

  constructor(rules: NotableRules = NOTABLE_RULES) {
    if (!rules.version) throw new Error('notable rules: a version is required');
    this.version = rules.version;
    const alternatives: string[] = [];
    for (const category of rules.categories) {
      for (const keyword of category.keywords) {
        const key = foldKeyword(keyword);
        if (key === '') throw new Error(`notable rules: empty keyword in category ${category.id}`);
        const previous = this.byKeyword.get(key);
        if (previous) throw new Error(`notable rules: keyword "${keyword}" is in both ${previous.category.id} and ${category.id}`);
        this.byKeyword.set(key, { category, keyword });
        alternatives.push(key);
      }
    }
    // Longest first, so "fossil fuels" wins over "fossil fuel" at the same position. A word boundary here is
    // "no letter, digit or underscore on that side", so "gala" does not match inside "galaxy".
    alternatives.sort((a, b) => b.length - a.length || a.localeCompare(b));
    const body = alternatives.map((k) => k.split(' ').map(escapeRegExp).join('\\s+')).join('|');
    this.pattern = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${body})(?![\\p{L}\\p{N}_])`, 'iu');
  }

  /** The first match (fields in the order title, description, program), or null. */
  match(texts: NotableTexts): NotableMatch | null {
    for (const field of FIELD_ORDER) {
      const text = texts[field];
      if (!text) continue;
      const m = this.pattern.exec(text);
      if (!m) continue;
      const entry = this.byKeyword.get(foldKeyword(m[0]));
      if (!entry) continue; // cannot happen: every alternative is a folded key
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

// Canonical draw categories. IRCC renames its rounds over time ("No Program Specified" became "General";
// "Healthcare occupations (Version 1)" became "Healthcare and social services occupations (Version 2)"), so a
// raw drawName is folded to a key and matched against a table of rules. The table is data: adding a family
// is one row. A name no rule knows becomes a category of its own, slugged from its key, never "General".

export interface CanonicalCategory {
  /** Stable identifier, also the order-independent key a database row is found by. */
  slug: string;
  /** Display name. */
  name: string;
  description: string;
  /** True for the families in CATEGORY_RULES; false for a name first seen in the feed. */
  known: boolean;
  /** Position in listings; unknown categories sort after the known ones, by slug. */
  sortOrder: number;
}

export interface CategoryRule {
  slug: string;
  name: string;
  description: string;
  /** Matched against the folded key (see foldDrawName), whole-string. */
  patterns: readonly RegExp[];
}

/** The families seen in the feed from 2015 to December 2025, most specific first. */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  {
    slug: 'general',
    name: 'General',
    description:
      'Rounds open to candidates of every Express Entry program (Federal Skilled Worker, Canadian Experience ' +
      'Class, Federal Skilled Trades, Provincial Nominee). The feed calls them "No Program Specified" until ' +
      'October 2023 and "General" from December 2023.',
    patterns: [/^general( draw| round)?$/, /^no program specified$/],
  },
  {
    slug: 'cec',
    name: 'Canadian Experience Class',
    description: 'Program-specific rounds for candidates of the Canadian Experience Class.',
    patterns: [/^canadian experience class( program)?$/, /^cec$/],
  },
  {
    slug: 'pnp',
    name: 'Provincial Nominee Program',
    description:
      'Program-specific rounds for candidates with a provincial or territorial nomination; their scores ' +
      'include the 600 points a nomination adds.',
    patterns: [/^provincial nominee( program)?$/, /^pnp$/],
  },
  {
    slug: 'fsw',
    name: 'Federal Skilled Worker',
    description: 'Program-specific rounds for candidates of the Federal Skilled Worker Program.',
    patterns: [/^federal skilled workers?( program)?$/, /^fsw(p)?$/],
  },
  {
    slug: 'fst',
    name: 'Federal Skilled Trades',
    description: 'Program-specific rounds for candidates of the Federal Skilled Trades Program.',
    patterns: [/^federal skilled trades?( program)?$/, /^fst(p)?$/],
  },
  {
    slug: 'french',
    name: 'French-language proficiency',
    description: 'Category-based rounds for candidates with strong French-language proficiency.',
    patterns: [/^french( language)?( proficiency)?( occupations)?$/],
  },
  {
    slug: 'healthcare',
    name: 'Healthcare and social services occupations',
    description:
      'Category-based rounds for healthcare occupations, named "Healthcare occupations" (Version 1) and ' +
      '"Healthcare and social services occupations" (Version 2) in the feed.',
    patterns: [/^health ?care( and social services?)?( occupations)?$/],
  },
  {
    slug: 'stem',
    name: 'STEM occupations',
    description: 'Category-based rounds for science, technology, engineering and mathematics occupations.',
    patterns: [/^(stem|science technology engineering and math(ematics)?)( occupations)?$/],
  },
  {
    slug: 'trade',
    name: 'Trade occupations',
    description: 'Category-based rounds for trade occupations (distinct from the Federal Skilled Trades Program).',
    patterns: [/^trades?( occupations)?$/],
  },
  {
    slug: 'transport',
    name: 'Transport occupations',
    description: 'Category-based rounds for transport occupations.',
    patterns: [/^transport(ation)?( occupations)?$/],
  },
  {
    slug: 'agriculture',
    name: 'Agriculture and agri-food occupations',
    description: 'Category-based rounds for agriculture and agri-food occupations.',
    patterns: [/^agricultur(e|al)( and agri ?food)?( occupations)?$/],
  },
  {
    slug: 'education',
    name: 'Education occupations',
    description: 'Category-based rounds for education occupations.',
    patterns: [/^education( occupations)?$/],
  },
];

/** The French name of each known family (IRCC's French feed and pages name them so). */
export const CATEGORY_NAMES_FR: Readonly<Record<string, string>> = {
  general: 'Général',
  cec: 'Catégorie de l’expérience canadienne',
  pnp: 'Programme des candidats des provinces',
  fsw: 'Programme des travailleurs qualifiés (fédéral)',
  fst: 'Programme des travailleurs de métiers spécialisés (fédéral)',
  french: 'Maîtrise du français',
  healthcare: 'Professions des soins de santé et des services sociaux',
  stem: 'Professions en sciences, technologies, génie et mathématiques (STGM)',
  trade: 'Métiers',
  transport: 'Professions du transport',
  agriculture: 'Professions de l’agriculture et de l’agroalimentaire',
  education: 'Professions de l’éducation',
};

/** Every known canonical category, in listing order. */
export const CANONICAL_CATEGORIES: readonly CanonicalCategory[] = CATEGORY_RULES.map((rule, i) => ({
  slug: rule.slug,
  name: rule.name,
  description: rule.description,
  known: true,
  sortOrder: i + 1,
}));

// "(Version 1)", "Version 2", "2026-Version 2" (hyphens are already spaces), "(V2)", a trailing year.
const VERSION_SUFFIX = /\s*\(?\s*(?:(?:19|20)\d{2}\s+)?\b(?:version|v)\s*\d+\s*\)?\s*$/i;
const YEAR_SUFFIX = /\s*\(?\s*\b(?:19|20)\d{2}\s*\)?\s*$/;

function stripSuffixes(text: string): string {
  let stripped = text;
  for (let previous = ''; previous !== stripped;) {
    previous = stripped;
    stripped = stripped.replace(VERSION_SUFFIX, '').replace(YEAR_SUFFIX, '');
  }
  return stripped;
}

/** A raw name without its version or year suffix, spelling kept: the display form of a new category. */
export function stripVersionSuffix(rawName: string): string {
  const name = rawName.trim().replace(/\s+/g, ' ');
  // Dashes become spaces one for one, so the stripped length is also a position in `name`.
  const probe = stripSuffixes(name.replace(/[-‐‑‒–—_]/g, ' '));
  return name.slice(0, probe.length).replace(/[\s(,;:-]+$/, '');
}

/**
 * The matching key of a raw drawName: Unicode-folded, lower case, hyphens and punctuation as spaces, "&" as
 * "and", version suffixes removed. "French-Language proficiency 2026-Version 2" → "french language proficiency".
 */
export function foldDrawName(rawName: string): string {
  const key = rawName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[-‐‑‒–—_/]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return stripSuffixes(key)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function slugify(key: string): string {
  const slug = key.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-+|-+$/g, '');
  return slug || 'unnamed';
}

export interface CategoryAssignment {
  rawName: string;
  key: string;
  category: CanonicalCategory;
}

/** The canonical category of one raw drawName. */
export function categoriseDrawName(rawName: string): CategoryAssignment {
  const key = foldDrawName(rawName);
  for (let i = 0; i < CATEGORY_RULES.length; i++) {
    const rule = CATEGORY_RULES[i];
    if (rule.patterns.some((p) => p.test(key))) return { rawName, key, category: CANONICAL_CATEGORIES[i] };
  }
  const displayName = stripVersionSuffix(rawName) || rawName.trim() || '(unnamed)';
  return {
    rawName,
    key,
    category: {
      slug: slugify(key),
      name: displayName,
      description: `Rounds the feed names "${displayName}"; no known category family matches this name.`,
      known: false,
      sortOrder: CATEGORY_RULES.length + 1,
    },
  };
}

export interface CategoryGroup {
  category: CanonicalCategory;
  /** Every raw drawName seen for this category, sorted, with its count. */
  rawNames: { rawName: string; draws: number }[];
  draws: number;
}

/**
 * Groups raw names into canonical categories: known ones in table order, then new ones by slug. A new
 * category's display name is that of its alphabetically first raw spelling, so the result does not depend
 * on the order of the input.
 */
export function groupDrawNames(rawNames: Iterable<string>): CategoryGroup[] {
  const groups = new Map<string, { category: CanonicalCategory; counts: Map<string, number> }>();
  for (const raw of rawNames) {
    const { category } = categoriseDrawName(raw);
    let group = groups.get(category.slug);
    if (!group) {
      group = { category, counts: new Map() };
      groups.set(category.slug, group);
    } else if (!category.known && raw < [...group.counts.keys()].sort()[0]) {
      group.category = category;
    }
    group.counts.set(raw, (group.counts.get(raw) ?? 0) + 1);
  }
  return [...groups.values()]
    .map((g) => ({
      category: g.category,
      rawNames: [...g.counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([rawName, draws]) => ({ rawName, draws })),
      draws: [...g.counts.values()].reduce((s, n) => s + n, 0),
    }))
    .sort(
      (a, b) =>
        a.category.sortOrder - b.category.sortOrder || (a.category.slug < b.category.slug ? -1 : a.category.slug > b.category.slug ? 1 : 0),
    );
}

export interface CategorisedRounds<T> extends CategoryGroup {
  /** The category's rounds, in input order. */
  rounds: T[];
}

/** Rounds grouped by canonical category (order as groupDrawNames); every round lands in exactly one group. */
export function categoriseRounds<T extends { drawName: string }>(rounds: readonly T[]): CategorisedRounds<T>[] {
  const members = new Map<string, T[]>();
  for (const round of rounds) {
    const slug = categoriseDrawName(round.drawName).category.slug;
    const list = members.get(slug);
    if (list) list.push(round);
    else members.set(slug, [round]);
  }
  return groupDrawNames(rounds.map((r) => r.drawName)).map((group) => ({ ...group, rounds: members.get(group.category.slug)! }));
}

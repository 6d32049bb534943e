// Controlled vocabularies of Service A. Ids are stable: the API and stored filters refer to them, so an entry
// is only ever appended, never renumbered or reused. Slugs are lower-case and hyphenated.

export interface VocabularyEntry {
  id: number;
  slug: string;
  name: string;
  description: string;
}

export interface Vocabulary {
  readonly entries: readonly VocabularyEntry[];
  byId(id: number): VocabularyEntry | undefined;
  bySlug(slug: string): VocabularyEntry | undefined;
  byName(name: string): VocabularyEntry | undefined;
  /** An id (number or digits), a slug or a name, case-insensitive: what a filter parameter may carry. */
  resolve(value: string | number): VocabularyEntry | undefined;
}

/** Lower-case, with runs of spaces, underscores and hyphens as one hyphen: "Very_low" and "very low" → "very-low". */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

function foldName(text: string): string {
  return text.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}

function makeVocabulary(rows: readonly (readonly [number, string, string])[]): Vocabulary {
  const entries: VocabularyEntry[] = rows.map(([id, name, description]) => ({ id, slug: slugify(name), name, description }));
  const ids = new Map<number, VocabularyEntry>();
  const slugs = new Map<string, VocabularyEntry>();
  const names = new Map<string, VocabularyEntry>();
  for (const entry of entries) {
    if (ids.has(entry.id) || slugs.has(entry.slug)) throw new Error(`duplicate vocabulary entry ${entry.id} ${entry.slug}`);
    ids.set(entry.id, entry);
    slugs.set(entry.slug, entry);
    names.set(foldName(entry.name), entry);
  }
  const vocabulary: Vocabulary = {
    entries,
    byId: (id) => ids.get(id),
    bySlug: (slug) => slugs.get(slugify(slug)),
    byName: (name) => names.get(foldName(name)),
    resolve(value) {
      if (typeof value === 'number') return ids.get(value);
      const trimmed = value.trim();
      if (/^\d+$/.test(trimmed)) return ids.get(Number(trimmed));
      return vocabulary.byName(trimmed) ?? vocabulary.bySlug(trimmed);
    },
  };
  return vocabulary;
}

// Topics: every topic the real sources use (toolkit and SIGN 138), then the few the demo generator adds.
export const TOPICS = makeVocabulary([
  [1, 'Fluoride', 'Fluoride toothpaste, varnish, mouth rinses, supplements and water fluoridation.'],
  [2, 'Diet and Nutrition', 'Sugar intake, feeding practices, diet advice and medicines that contain sugar.'],
  [3, 'Toothbrushing', 'How, how often and with what the teeth are brushed, and who supervises it.'],
  [4, 'Interdental Cleaning', 'Cleaning between the teeth and around implants: floss, interdental brushes and other aids.'],
  [5, 'Fissure Sealants', 'Resin and glass ionomer sealants applied to pits and fissures of teeth.'],
  [6, 'Assessment and Care Planning', 'Oral health assessment, risk assessment, recall intervals and personal care plans.'],
  [7, 'Behaviour Change', 'Methods that help people change oral health behaviours, including stopping smoking.'],
  [8, 'Oral Cancer Screening', 'Examination, risk factors, referral and adjunct tests for mouth cancer.'],
  [9, 'Saliva and Dry Mouth', 'Dry mouth (xerostomia), reduced saliva flow and medicines that cause them.'],
  [10, 'Patient Education', 'Advice and anticipatory guidance given to patients, parents and carers.'],
  [11, 'Prevention', 'Identifying people at increased risk and giving enhanced preventive care.'],
  [12, 'General', 'Recommendations the source does not assign to a more specific topic.'],
  // Demo-only topics (no real source uses them yet).
  [13, 'Periodontal Health', 'Gum health: plaque control, gingivitis and periodontitis.'],
  [14, 'Tobacco and Alcohol', 'Tobacco and alcohol use as risks for oral disease, and brief advice.'],
  [15, 'Dental Trauma', 'Preventing and managing injuries to the teeth and mouth.'],
]);

// Strengths. The contract's "Conditional/Moderate" is kept as two entries: England's toolkit grades its own
// rows Strong, Moderate and Conditional as three distinct levels (41 Moderate, 28 Conditional), and merging
// them would erase that distinction. SIGN 138 uses Strong and Moderate.
export const STRENGTHS = makeVocabulary([
  [1, 'Strong', 'The benefits clearly outweigh the harms (or the reverse); most people should receive the recommended course of action.'],
  [2, 'Moderate', 'The benefits probably outweigh the harms; the recommendation applies to most people, with some uncertainty.'],
  [3, 'Conditional', 'The balance of benefits and harms depends on the person or setting; discuss the options and decide together.'],
  [4, 'Weak', 'The balance of benefits and harms is uncertain; the course of action may be considered.'],
  [
    5,
    'Good practice point',
    'Recommended best practice based on the clinical experience of the guideline group, without formal evidence grading.',
  ],
]);

// Evidence quality follows the GRADE levels; the descriptions paraphrase GRADE's definitions
// (Balshem H et al., J Clin Epidemiol 2011;64:401-406), plus expert opinion for consensus-only statements.
export const EVIDENCE_QUALITIES = makeVocabulary([
  [
    1,
    'High',
    'Further research is very unlikely to change confidence in the estimate of effect: the true effect is close to the estimate.',
  ],
  [2, 'Moderate', 'Further research is likely to have an important impact on confidence in the estimate and may change it.'],
  [3, 'Low', 'Further research is very likely to change the estimate: the true effect may be substantially different.'],
  [4, 'Very low', 'Any estimate of effect is very uncertain: the true effect is likely to be substantially different.'],
  [5, 'Expert opinion', 'No direct research evidence; based on the consensus or clinical experience of experts.'],
]);

export type CountryCode = 'UK' | 'US' | 'CA' | 'AU' | 'NZ';

export interface Country {
  id: number;
  code: CountryCode;
  name: string;
  flag_emoji: string;
}

export const COUNTRIES: readonly Country[] = [
  { id: 1, code: 'UK', name: 'United Kingdom', flag_emoji: '🇬🇧' },
  { id: 2, code: 'US', name: 'United States', flag_emoji: '🇺🇸' },
  { id: 3, code: 'CA', name: 'Canada', flag_emoji: '🇨🇦' },
  { id: 4, code: 'AU', name: 'Australia', flag_emoji: '🇦🇺' },
  { id: 5, code: 'NZ', name: 'New Zealand', flag_emoji: '🇳🇿' },
];

export const COUNTRY_CODES: readonly CountryCode[] = COUNTRIES.map((c) => c.code);

/** By code ("uk", "UK") or English name ("United Kingdom"), case-insensitive. */
export function findCountry(value: string): Country | undefined {
  const folded = foldName(value);
  return COUNTRIES.find((c) => c.code.toLowerCase() === folded || foldName(c.name) === folded);
}

/** "🇬🇧 United Kingdom": how a country is shown to people. */
export function countryDisplayName(country: Country): string {
  return `${country.flag_emoji} ${country.name}`;
}

/** "🇬🇧 UK": how a country filter is echoed in `filters_applied.country`. */
export function countryFilterLabel(country: Country): string {
  return `${country.flag_emoji} ${country.code}`;
}

/** The nations of the UK, which guidelines keep as `region` with country UK. */
export const UK_NATIONS = ['England', 'Scotland', 'Wales', 'Northern Ireland'] as const;

// One search over recommendations, guidelines and systematic reviews (GET /api/search/ and the /search page):
// every document held in memory per data version (A's data is small and changes only by import), ranked by the
// rule schemas/search.ts documents, with a count per value of each facet. Framework-free.
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { foldAccents, foldCase } from '../../core/db/dialect.ts';
import type { HeldRecommendation, Page, PageOf } from './repository.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from './sources/index.ts';
import type { Vocabulary } from './sources/index.ts';
import { CERTAINTIES, DOCUMENT_KINDS, FACETS, MATCH_KINDS } from './schemas/search.ts';
import type { EvidenceHit } from './schemas/search.ts';
import type { HeldPerVersion } from '../../core/held.ts';
import type { OralDatabase } from './tables.ts';

type Hit = Static<typeof EvidenceHit>;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export type Certainty = (typeof CERTAINTIES)[number];
export type Facet = (typeof FACETS)[number];
type MatchKind = (typeof MATCH_KINDS)[number];

export interface EvidenceFilters {
  q?: string;
  kind?: DocumentKind;
  country?: string;
  /** Vocabulary slugs (the facets' values). */
  topic?: string;
  year?: number;
  strength?: string;
  evidenceQuality?: string;
  certainty?: Certainty;
}

export interface FacetValue {
  value: string;
  label: string;
  count: number;
}

/** A document with what ranking and the facets read. */
interface Document {
  hit: Hit;
  kindOrder: number;
  /** Title and text as words, folded (case and accents) and joined by single spaces. */
  title: string;
  text: string;
  /** The same with case folded only: a match with the accents as written ranks first. */
  titleExact: string;
  textExact: string;
  /** The text as written, for the excerpt. */
  rawText: string;
  facets: Record<Facet, string[]>;
}

const slugOf = (vocabulary: Vocabulary, id: number | null): string[] => {
  const entry = id === null ? undefined : vocabulary.byId(id);
  return entry ? [entry.slug] : [];
};

const WORD = /[\p{L}\p{N}]+/gu;
/** Words joined by one space: punctuation and runs of spaces do not break a phrase ("fluoride-varnish" = "fluoride varnish"). */
const words = (text: string): string => (text.match(WORD) ?? []).join(' ');

const EXCERPT_CHARS = 240;

function excerpt(raw: string, foldedWords: string[]): string {
  const flat = raw.replace(/\s+/g, ' ').trim();
  const folded = foldAccents(flat);
  // foldAccents keeps the length of text whose accents are combining marks after NFD only when none were removed;
  // the position is found on the folded text and used on the original when the lengths agree.
  const at = folded.length === flat.length ? Math.min(...foldedWords.map((w) => folded.indexOf(w)).filter((i) => i >= 0)) : Infinity;
  if (flat.length <= EXCERPT_CHARS) return flat;
  const start = Number.isFinite(at) && at > EXCERPT_CHARS / 2 ? flat.lastIndexOf(' ', at - 40) + 1 : 0;
  const cut = flat.slice(start, start + EXCERPT_CHARS);
  return `${start > 0 ? '…' : ''}${cut.slice(0, Math.max(cut.lastIndexOf(' '), EXCERPT_CHARS / 2))}…`;
}

function document(
  kind: DocumentKind,
  titleRaw: string,
  textParts: (string | null)[],
  hit: Omit<Hit, 'kind' | 'excerpt' | 'match' | 'title'>,
  facets: Omit<Record<Facet, string[]>, 'kind' | 'year'>,
): Document {
  const rawText = textParts.filter((p): p is string => p !== null && p.trim() !== '').join(' · ');
  return {
    hit: { ...hit, kind, title: titleRaw, excerpt: '', match: 'all' },
    kindOrder: DOCUMENT_KINDS.indexOf(kind),
    title: foldAccents(words(titleRaw)),
    text: foldAccents(words(rawText)),
    titleExact: foldCase(words(titleRaw)),
    textExact: foldCase(words(rawText)),
    rawText,
    facets: { ...facets, kind: [kind], year: hit.year === null ? [] : [String(hit.year)] },
  };
}

/** Every document of the search, held per data version by the service's state (state.ts). */
export interface HeldDocuments {
  version: string | null;
  docs: Document[];
}

export async function loadDocuments(db: Kysely<OralDatabase>, recommendations: HeldRecommendation[]): Promise<Document[]> {
  const topicsOfGuideline = new Map<number, Set<number>>();
  const docs: Document[] = recommendations.map((r) => {
    const item = r.item;
    const guidelineTopics = topicsOfGuideline.get(item.guideline.id) ?? new Set<number>();
    for (const t of r.topicIds) guidelineTopics.add(t);
    topicsOfGuideline.set(item.guideline.id, guidelineTopics);
    return document(
      'recommendation',
      item.title,
      [item.text, item.keywords.join(', ')],
      {
        id: item.id,
        review_id: null,
        path: `/guidelines/${item.guideline.id}#recommendation-${item.id}`,
        year: r.publicationYear,
        country: r.country,
        guideline: { id: item.guideline.id, title: item.guideline.title },
        topics: item.topics,
        strength: item.strength,
        evidence_quality: item.evidence_quality,
        certainty_summary: null,
        is_demo: item.guideline.is_demo,
      },
      {
        country: [r.country],
        topic: item.topics.map((t) => t.slug),
        strength: slugOf(STRENGTHS, r.strengthId),
        evidence_quality: slugOf(EVIDENCE_QUALITIES, r.evidenceQualityId),
        certainty: [],
      },
    );
  });
  const guidelines = await db
    .selectFrom('oral_guidelines')
    .select(['id', 'title', 'description', 'organization_name', 'country', 'publication_year', 'is_demo'])
    .execute();
  for (const g of guidelines) {
    const id = Number(g.id);
    const topicIds = [...(topicsOfGuideline.get(id) ?? [])].sort((a, b) => a - b);
    docs.push(
      document(
        'guideline',
        g.title,
        [g.description, g.organization_name],
        {
          id,
          review_id: null,
          path: `/guidelines/${id}`,
          year: g.publication_year,
          country: g.country,
          guideline: null,
          topics: topicIds.flatMap((t) => {
            const topic = TOPICS.byId(t);
            return topic ? [{ id: topic.id, name: topic.name, slug: topic.slug }] : [];
          }),
          strength: null,
          evidence_quality: null,
          certainty_summary: null,
          is_demo: Boolean(g.is_demo),
        },
        { country: [g.country], topic: topicIds.flatMap((t) => slugOf(TOPICS, t)), strength: [], evidence_quality: [], certainty: [] },
      ),
    );
  }
  const reviews = await db
    .selectFrom('oral_reviews')
    .select([
      'id',
      'review_id',
      'title',
      'description',
      'abstract',
      'publication_date',
      'is_demo',
      'certainty_high',
      'certainty_moderate',
      'certainty_low',
      'certainty_very_low',
    ])
    .execute();
  for (const r of reviews) {
    const summary = { high: r.certainty_high, moderate: r.certainty_moderate, low: r.certainty_low, very_low: r.certainty_very_low };
    const year = r.publication_date && /^\d{4}/.test(r.publication_date) ? Number(r.publication_date.slice(0, 4)) : null;
    docs.push(
      document(
        'review',
        r.title,
        // The title shown may be the description (an unconfirmed listed title is not searched): not repeated.
        [r.description === r.title ? null : r.description, r.abstract, r.review_id],
        {
          id: Number(r.id),
          review_id: r.review_id,
          path: `/reviews/${encodeURIComponent(r.review_id)}`,
          year,
          country: null,
          guideline: null,
          topics: [],
          strength: null,
          evidence_quality: null,
          certainty_summary: summary,
          is_demo: Boolean(r.is_demo),
        },
        { country: [], topic: [], strength: [], evidence_quality: [], certainty: CERTAINTIES.filter((c) => summary[c] > 0) },
      ),
    );
  }
  return docs.sort(byYearKindId);
}

function byYearKindId(a: Document, b: Document): number {
  const ya = a.hit.year;
  const yb = b.hit.year;
  return (ya === null ? 1 : 0) - (yb === null ? 1 : 0) || (yb ?? 0) - (ya ?? 0) || a.kindOrder - b.kindOrder || a.hit.id - b.hit.id;
}

/** The filter of each facet as the documents' facet values spell it. */
function chosenValues(filters: EvidenceFilters): Partial<Record<Facet, string>> {
  const chosen: Partial<Record<Facet, string>> = {};
  if (filters.kind !== undefined) chosen.kind = filters.kind;
  if (filters.country !== undefined) chosen.country = filters.country;
  if (filters.topic !== undefined) chosen.topic = filters.topic;
  if (filters.year !== undefined) chosen.year = String(filters.year);
  if (filters.strength !== undefined) chosen.strength = filters.strength;
  if (filters.evidenceQuality !== undefined) chosen.evidence_quality = filters.evidenceQuality;
  if (filters.certainty !== undefined) chosen.certainty = filters.certainty;
  return chosen;
}

interface Ranked {
  doc: Document;
  match: MatchKind;
  /** 0 when the phrase or every word is found with its accents as written, else 1. */
  accents: number;
}

/** How a document matches `q` (null: it does not), per the documented ranking. */
function matchOf(doc: Document, phrase: string, terms: string[], exactPhrase: string, exactTerms: string[]): Ranked | null {
  const all = `${doc.title} ${doc.text}`;
  if (!terms.every((t) => all.includes(t))) return null;
  const exactAll = `${doc.titleExact} ${doc.textExact}`;
  if (doc.title.includes(phrase)) return { doc, match: 'phrase_in_title', accents: doc.titleExact.includes(exactPhrase) ? 0 : 1 };
  if (doc.text.includes(phrase)) return { doc, match: 'phrase_in_text', accents: doc.textExact.includes(exactPhrase) ? 0 : 1 };
  if (terms.every((t) => doc.title.includes(t)))
    return { doc, match: 'words_in_title', accents: exactTerms.every((t) => doc.titleExact.includes(t)) ? 0 : 1 };
  return { doc, match: 'words_in_text', accents: exactTerms.every((t) => exactAll.includes(t)) ? 0 : 1 };
}

const FACET_LABELS: Record<Facet, (value: string) => string> = {
  kind: (v) => ({ recommendation: 'Recommendations', guideline: 'Guidelines', review: 'Systematic reviews' })[v] ?? v,
  country: (v) => COUNTRIES.find((c) => c.code === v)?.name ?? v,
  topic: (v) => TOPICS.bySlug(v)?.name ?? v,
  year: (v) => v,
  strength: (v) => STRENGTHS.bySlug(v)?.name ?? v,
  evidence_quality: (v) => EVIDENCE_QUALITIES.bySlug(v)?.name ?? v,
  certainty: (v) => ({ high: 'High', moderate: 'Moderate', low: 'Low', very_low: 'Very low' })[v] ?? v,
};

/** The order of a facet's values: the vocabulary's or the fixed lists' order; topics by count; years newest first. */
function facetOrder(facet: Facet): (a: FacetValue, b: FacetValue) => number {
  const byList = (list: readonly string[]) => (a: FacetValue, b: FacetValue) => list.indexOf(a.value) - list.indexOf(b.value);
  switch (facet) {
    case 'kind':
      return byList(DOCUMENT_KINDS);
    case 'country':
      return byList(COUNTRIES.map((c) => c.code));
    case 'certainty':
      return byList(CERTAINTIES);
    case 'year':
      return (a, b) => Number(b.value) - Number(a.value);
    case 'topic':
      return (a, b) => b.count - a.count || a.label.localeCompare(b.label);
    case 'strength':
      return byList(STRENGTHS.entries.map((e) => e.slug));
    case 'evidence_quality':
      return byList(EVIDENCE_QUALITIES.entries.map((e) => e.slug));
  }
}

export interface EvidenceSearchResult extends PageOf<Hit> {
  facets: Record<Facet, FacetValue[]>;
  dataVersion: string | null;
}

export async function searchEvidence(
  state: { documents: HeldPerVersion<HeldDocuments> },
  filters: EvidenceFilters,
  page: Page,
): Promise<EvidenceSearchResult> {
  const { version, docs } = await state.documents.current();
  const q = filters.q?.trim() ?? '';
  const phrase = foldAccents(words(q));
  const terms = [...new Set(phrase.split(' ').filter((t) => t !== ''))];
  const exactPhrase = foldCase(words(q));
  const exactTerms = [...new Set(exactPhrase.split(' ').filter((t) => t !== ''))];
  // A query of punctuation only has no word to look for: it finds nothing rather than everything.
  const matched: Ranked[] =
    q === ''
      ? docs.map((doc) => ({ doc, match: 'all', accents: 0 }))
      : terms.length === 0
        ? []
        : docs.flatMap((doc) => matchOf(doc, phrase, terms, exactPhrase, exactTerms) ?? []);

  const chosen = chosenValues(filters);
  const passes = (doc: Document, except?: Facet) =>
    FACETS.every((f) => f === except || chosen[f] === undefined || doc.facets[f].includes(chosen[f]));

  const facets = {} as Record<Facet, FacetValue[]>;
  for (const facet of FACETS) {
    const counts = new Map<string, number>();
    for (const { doc } of matched) {
      if (!passes(doc, facet)) continue;
      for (const value of doc.facets[facet]) counts.set(value, (counts.get(value) ?? 0) + 1);
    }
    const own = chosen[facet];
    if (own !== undefined && !counts.has(own)) counts.set(own, 0);
    facets[facet] = [...counts].map(([value, count]) => ({ value, label: FACET_LABELS[facet](value), count })).sort(facetOrder(facet));
  }

  const found = matched
    .filter((r) => passes(r.doc))
    .sort((a, b) => MATCH_KINDS.indexOf(a.match) - MATCH_KINDS.indexOf(b.match) || a.accents - b.accents || byYearKindId(a.doc, b.doc));
  const from = (page.page - 1) * page.limit;
  const rows = found.slice(from, from + page.limit).map((r) => ({
    ...r.doc.hit,
    match: r.match,
    excerpt: excerpt(r.doc.rawText, terms),
  }));
  return { total: found.length, rows, facets, dataVersion: version };
}

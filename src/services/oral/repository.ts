// Every read of Service A: list queries with their filters and the contract's ordering, single reviews and
// the imported datasets. Framework-free: routes, importers and tests share it. (The statistics computed at
// import are in aggregates.ts.)
import path from 'node:path';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { foldAccents, foldCase, num, readJson } from '../../core/db/dialect.ts';
import { accentExactRank, substringMatch } from '../../core/db/search-index.ts';
import { listDataVersions } from '../../core/db/datasets.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS, countryDisplayName } from './sources/index.ts';
import type { CountryCode, VocabularyEntry } from './sources/index.ts';
import type { DataSourceItem, Guideline, Recommendation, Review, ReviewDetail } from './schemas/index.ts';
import { GUIDELINE_SEARCH, REVIEW_SEARCH } from './search.ts';
import type { HeldPerVersion } from '../../core/held.ts';
import type { OralDatabase, ReviewRow } from './tables.ts';

/** What the reads over held recommendations need of A's state (state.ts). */
type RecommendationsHeld = { recommendations: HeldPerVersion<HeldRecommendation[]> };

export interface Page {
  page: number;
  limit: number;
}

export interface PageOf<T> {
  rows: T[];
  total: number;
}

const offsetOf = (page: Page) => (page.page - 1) * page.limit;

function countryObject(code: string) {
  const country = COUNTRIES.find((c) => c.code === code);
  if (!country) return { code, name: code, flag_emoji: '', display_name: code };
  return { code: country.code, name: country.name, flag_emoji: country.flag_emoji, display_name: countryDisplayName(country) };
}

const vocabularyRef = (entry: VocabularyEntry | undefined) =>
  entry ? { id: entry.id, name: entry.name, description: entry.description } : null;

// ---------------------------------------------------------------- recommendations

export interface RecommendationFilters {
  q?: string;
  country?: CountryCode;
  topicId?: number;
  strengthId?: number;
  evidenceQualityId?: number;
}

type RecommendationItem = Static<typeof Recommendation>;

/** A recommendation as the API lists it, with what its filters and ordering read. */
export interface HeldRecommendation {
  item: RecommendationItem;
  /** title, text and keywords_text, each folded (case and accents): `q` matches a substring of one of them. */
  searchable: string[];
  /** The same, case-folded only: a match with the accents as written ranks first. */
  exact: string[];
  country: string;
  strengthId: number | null;
  evidenceQualityId: number | null;
  topicIds: Set<number>;
  publicationYear: number | null;
  id: number;
}

/**
 * Every recommendation as the API lists it, with what filters read: held in memory per data version by the
 * service's state (state.ts; a few thousand at most, A's data changes only by import), so a search costs a scan
 * instead of a count, a page and its topics in SQL.
 */
export async function loadRecommendations(db: Kysely<OralDatabase>): Promise<HeldRecommendation[]> {
  const rows = await db
    .selectFrom('oral_recommendations as r')
    .innerJoin('oral_guidelines as g', 'g.id', 'r.guideline_id')
    .select([
      'r.id',
      'r.title',
      'r.text',
      'r.keywords',
      'r.keywords_text',
      'r.target_population',
      'r.clinical_context',
      'r.source_url',
      'r.page_number',
      'r.strength_id',
      'r.evidence_quality_id',
      'r.grade',
      'r.recommendation_number',
      'r.references',
      'r.created_at',
      'r.country as recommendation_country',
      'r.publication_year as recommendation_year',
      'g.id as guideline_id',
      'g.title as guideline_title',
      'g.organization_name',
      'g.country',
      'g.region',
      'g.publication_year',
      'g.url as guideline_url',
      'g.is_demo',
    ])
    .execute();
  const links = await db
    .selectFrom('oral_recommendation_topics')
    .select(['recommendation_id', 'topic_id'])
    .orderBy('recommendation_id')
    .orderBy('topic_id')
    .execute();
  const topics = new Map<number, number[]>();
  for (const link of links) {
    const id = Number(link.recommendation_id);
    topics.set(id, [...(topics.get(id) ?? []), Number(link.topic_id)]);
  }
  const held = rows.map((r): HeldRecommendation => {
    const id = Number(r.id);
    const topicIds = topics.get(id) ?? [];
    return {
      id,
      searchable: [r.title, r.text, r.keywords_text].map((column) => foldAccents(column ?? '')),
      exact: [r.title, r.text, r.keywords_text].map((column) => foldCase(column ?? '')),
      country: r.recommendation_country,
      strengthId: r.strength_id === null ? null : Number(r.strength_id),
      evidenceQualityId: r.evidence_quality_id === null ? null : Number(r.evidence_quality_id),
      topicIds: new Set(topicIds),
      publicationYear: r.recommendation_year === null ? null : Number(r.recommendation_year),
      item: {
        id,
        title: r.title,
        text: r.text,
        keywords: readJson<string[]>(r.keywords),
        target_population: r.target_population,
        clinical_context: r.clinical_context,
        source_url: r.source_url,
        page_number: r.page_number,
        grade: r.grade,
        recommendation_number: r.recommendation_number,
        guideline: {
          id: Number(r.guideline_id),
          title: r.guideline_title,
          organization: r.organization_name,
          country: countryObject(r.country),
          region: r.region,
          publication_year: r.publication_year,
          url: r.guideline_url,
          is_demo: Boolean(r.is_demo),
        },
        topics: topicIds
          .map((topicId) => TOPICS.byId(topicId))
          .filter((t) => t !== undefined)
          .map((t) => ({ id: t.id, name: t.name, slug: t.slug })),
        strength: vocabularyRef(r.strength_id === null ? undefined : STRENGTHS.byId(r.strength_id)),
        evidence_quality: vocabularyRef(r.evidence_quality_id === null ? undefined : EVIDENCE_QUALITIES.byId(r.evidence_quality_id)),
        references: readJson<RecommendationItem['references']>(r.references),
        created_at: r.created_at,
      },
    };
  });
  // The contract's order: newest publication year first, unknown years last, then by id.
  return held.sort(
    (a, b) =>
      (a.publicationYear === null ? 1 : 0) - (b.publicationYear === null ? 1 : 0) ||
      (b.publicationYear ?? 0) - (a.publicationYear ?? 0) ||
      a.id - b.id,
  );
}

export async function listRecommendations(
  state: RecommendationsHeld,
  filters: RecommendationFilters,
  page: Page,
): Promise<PageOf<RecommendationItem>> {
  // `q` as substringMatch reads it (core/db/search-index.ts): trimmed, case- and accent-folded, a substring of one
  // column; the matches with the accents as written come first, each group in the list's order.
  const needle = filters.q ? foldAccents(filters.q.trim()) : undefined;
  let matches = (await state.recommendations.current()).filter(
    (r) =>
      (filters.country === undefined || r.country === filters.country) &&
      (filters.strengthId === undefined || r.strengthId === filters.strengthId) &&
      (filters.evidenceQualityId === undefined || r.evidenceQualityId === filters.evidenceQualityId) &&
      (filters.topicId === undefined || r.topicIds.has(filters.topicId)) &&
      (needle === undefined || r.searchable.some((column) => column.includes(needle))),
  );
  if (filters.q) {
    const exact = foldCase(filters.q.trim());
    const first = matches.filter((r) => r.exact.some((column) => column.includes(exact)));
    if (first.length < matches.length) matches = [...first, ...matches.filter((r) => !r.exact.some((column) => column.includes(exact)))];
  }
  const from = offsetOf(page);
  return { total: matches.length, rows: matches.slice(from, from + page.limit).map((r) => r.item) };
}

// ---------------------------------------------------------------- guidelines

const GUIDELINE_COLUMNS = [
  'g.id',
  'g.title',
  'g.description',
  'g.region',
  'g.publication_year',
  'g.url',
  'g.is_active',
  'g.is_demo',
  'g.recommendation_count',
  'g.created_at',
  'g.country',
  'o.id as organization_id',
  'o.name as organization_name',
  'o.website',
] as const;

function guidelinesWithOrganization(db: Kysely<OralDatabase>) {
  return db.selectFrom('oral_guidelines as g').innerJoin('oral_organizations as o', 'o.id', 'g.organization_id').select(GUIDELINE_COLUMNS);
}

type GuidelineColumns = Awaited<ReturnType<ReturnType<typeof guidelinesWithOrganization>['executeTakeFirstOrThrow']>>;

function guidelineItem(g: GuidelineColumns): Static<typeof Guideline> {
  return {
    id: Number(g.id),
    title: g.title,
    description: g.description,
    organization: { id: Number(g.organization_id), name: g.organization_name, website: g.website, country: countryObject(g.country) },
    region: g.region,
    publication_year: g.publication_year,
    url: g.url,
    is_active: Boolean(g.is_active),
    is_demo: Boolean(g.is_demo),
    recommendation_count: g.recommendation_count,
    created_at: g.created_at,
  };
}

export async function listGuidelines(
  db: Kysely<OralDatabase>,
  filters: { q?: string; country?: CountryCode },
  page: Page,
): Promise<PageOf<Static<typeof Guideline>>> {
  let base = db.selectFrom('oral_guidelines as g');
  if (filters.q) base = base.where(substringMatch(db, GUIDELINE_SEARCH, filters.q, 'g'));
  if (filters.country) base = base.where('g.country', '=', filters.country);
  const { total } = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .innerJoin('oral_organizations as o', 'o.id', 'g.organization_id')
    .select(GUIDELINE_COLUMNS)
    .$if(filters.q !== undefined, (qb) => qb.orderBy(accentExactRank(db, GUIDELINE_SEARCH, filters.q ?? '', 'g')))
    .orderBy(sql`g.publication_year desc nulls last`)
    .orderBy('g.id')
    .limit(page.limit)
    .offset(offsetOf(page))
    .execute();
  return { total: num(total), rows: rows.map(guidelineItem) };
}

/** One guideline as the API lists it (the guideline page; the API has no single-guideline endpoint). */
export async function getGuideline(db: Kysely<OralDatabase>, id: number): Promise<Static<typeof Guideline> | null> {
  const row = await guidelinesWithOrganization(db).where('g.id', '=', id).executeTakeFirst();
  return row ? guidelineItem(row) : null;
}

/** A guideline's recommendations as the API lists them, in the order of the source (their ids follow it). */
export async function guidelineRecommendations(state: RecommendationsHeld, guidelineId: number): Promise<RecommendationItem[]> {
  return (await state.recommendations.current())
    .filter((r) => r.item.guideline.id === guidelineId)
    .sort((a, b) => a.id - b.id)
    .map((r) => r.item);
}

// ---------------------------------------------------------------- reviews

const REVIEW_COLUMNS = [
  'id',
  'review_id',
  'version',
  'title',
  'listed_title',
  'title_verified',
  'description',
  'url',
  'doi',
  'publication_date',
  'authors',
  'abstract',
  'is_demo',
  'outcome_count',
  'certainty_high',
  'certainty_moderate',
  'certainty_low',
  'certainty_very_low',
] as const satisfies readonly (keyof ReviewRow)[];

type ReviewColumns = Pick<ReviewRow, (typeof REVIEW_COLUMNS)[number]>;

function reviewItem(r: ReviewColumns): Static<typeof Review> {
  return {
    id: Number(r.id),
    review_id: r.review_id,
    version: r.version,
    title: r.title,
    listed_title: r.listed_title,
    title_verified: Boolean(r.title_verified),
    description: r.description,
    url: r.url,
    doi: r.doi,
    publication_date: r.publication_date,
    authors: r.authors,
    abstract: r.abstract,
    is_demo: Boolean(r.is_demo),
    outcome_count: r.outcome_count,
    certainty_summary: { high: r.certainty_high, moderate: r.certainty_moderate, low: r.certainty_low, very_low: r.certainty_very_low },
  };
}

export async function listReviews(db: Kysely<OralDatabase>, filters: { q?: string }, page: Page): Promise<PageOf<Static<typeof Review>>> {
  let base = db.selectFrom('oral_reviews');
  if (filters.q) base = base.where(substringMatch(db, REVIEW_SEARCH, filters.q));
  const { total } = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  const rows = await base
    .select(REVIEW_COLUMNS)
    .$if(filters.q !== undefined, (qb) => qb.orderBy(accentExactRank(db, REVIEW_SEARCH, filters.q ?? '')))
    .orderBy('review_id')
    .orderBy('id')
    .limit(page.limit)
    .offset(offsetOf(page))
    .execute();
  return { total: num(total), rows: rows.map(reviewItem) };
}

type ReviewDetailItem = Static<typeof ReviewDetail>;

export async function getReview(db: Kysely<OralDatabase>, reviewId: string): Promise<ReviewDetailItem | null> {
  const row = await db.selectFrom('oral_reviews').select(REVIEW_COLUMNS).where('review_id', '=', reviewId.toUpperCase()).executeTakeFirst();
  if (!row) return null;
  const outcomes = await db.selectFrom('oral_outcomes').selectAll().where('review_pk', '=', row.id).orderBy('position').execute();
  return {
    ...reviewItem(row),
    outcomes: outcomes.map((o) => ({
      population: o.population,
      intervention: o.intervention,
      comparison: o.comparison,
      outcome: o.outcome,
      measure: o.measure,
      effect: o.effect,
      ci_lower: o.ci_lower,
      ci_upper: o.ci_upper,
      significant: o.significant === null ? null : Boolean(o.significant),
      participants: o.participants,
      studies: o.studies,
      certainty: o.certainty,
      certainty_raw: o.certainty_raw,
      reasons: o.reasons,
      downgrades: readJson<ReviewDetailItem['outcomes'][number]['downgrades']>(o.downgrades),
    })),
  };
}

// ---------------------------------------------------------------- datasets

/** The imported datasets; `source` is the file or folder name only (the server's paths are not the client's business). */
export async function dataSources(db: Kysely<OralDatabase>): Promise<DataSourceItem[]> {
  return (await listDataVersions(db, 'oral')).map((v) => ({
    dataset: v.dataset,
    source: v.source === null ? null : path.basename(v.source),
    is_demo: v.is_demo,
    imported_at: v.imported_at,
    data_version: v.version,
  }));
}

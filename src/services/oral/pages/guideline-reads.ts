// Reads the guideline page needs and the repository has not (the API has no single-guideline endpoint): one
// guideline, and its recommendations in their own order. They return the API's item shapes (Guideline,
// Recommendation), so the page draws them with the same cards as the search.
import type { Kysely } from 'kysely';
import type { Static } from 'typebox';
import { readJson } from '../../../core/db/dialect.ts';
import { COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS, countryDisplayName } from '../sources/index.ts';
import type { VocabularyEntry } from '../sources/index.ts';
import type { Guideline, Recommendation } from '../schemas/index.ts';
import type { OralDatabase } from '../tables.ts';

type GuidelineItem = Static<typeof Guideline>;
type RecommendationItem = Static<typeof Recommendation>;

function countryObject(code: string) {
  const c = COUNTRIES.find((x) => x.code === code);
  return c
    ? { code: c.code, name: c.name, flag_emoji: c.flag_emoji, display_name: countryDisplayName(c) }
    : { code, name: code, flag_emoji: '', display_name: code };
}

const vocabularyRef = (entry: VocabularyEntry | undefined) =>
  entry ? { id: entry.id, name: entry.name, description: entry.description } : null;

export async function getGuideline(db: Kysely<OralDatabase>, id: number): Promise<GuidelineItem | null> {
  const g = await db
    .selectFrom('oral_guidelines as g')
    .innerJoin('oral_organizations as o', 'o.id', 'g.organization_id')
    .select([
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
    ])
    .where('g.id', '=', id)
    .executeTakeFirst();
  if (!g) return null;
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

/** The guideline's recommendations in the order of the source (their ids follow it). */
export async function guidelineRecommendations(db: Kysely<OralDatabase>, guideline: GuidelineItem): Promise<RecommendationItem[]> {
  const rows = await db
    .selectFrom('oral_recommendations')
    .select([
      'id',
      'title',
      'text',
      'keywords',
      'target_population',
      'clinical_context',
      'source_url',
      'page_number',
      'strength_id',
      'evidence_quality_id',
      'grade',
      'recommendation_number',
      'references',
      'created_at',
    ])
    .where('guideline_id', '=', guideline.id)
    .orderBy('id')
    .execute();
  const topics = new Map<number, number[]>();
  if (rows.length > 0) {
    const links = await db
      .selectFrom('oral_recommendation_topics as t')
      .innerJoin('oral_recommendations as r', 'r.id', 't.recommendation_id')
      .select(['t.recommendation_id', 't.topic_id'])
      .where('r.guideline_id', '=', guideline.id)
      .orderBy('t.topic_id')
      .execute();
    for (const link of links) {
      const id = Number(link.recommendation_id);
      topics.set(id, [...(topics.get(id) ?? []), Number(link.topic_id)]);
    }
  }
  const guidelineRef = {
    id: guideline.id,
    title: guideline.title,
    organization: guideline.organization.name,
    country: guideline.organization.country,
    region: guideline.region,
    publication_year: guideline.publication_year,
    url: guideline.url,
    is_demo: guideline.is_demo,
  };
  return rows.map((r) => ({
    id: Number(r.id),
    title: r.title,
    text: r.text,
    keywords: readJson<string[]>(r.keywords),
    target_population: r.target_population,
    clinical_context: r.clinical_context,
    source_url: r.source_url,
    page_number: r.page_number,
    grade: r.grade,
    recommendation_number: r.recommendation_number,
    guideline: guidelineRef,
    topics: (topics.get(Number(r.id)) ?? [])
      .map((id) => TOPICS.byId(id))
      .filter((t) => t !== undefined)
      .map((t) => ({ id: t.id, name: t.name, slug: t.slug })),
    strength: vocabularyRef(r.strength_id === null ? undefined : STRENGTHS.byId(r.strength_id)),
    evidence_quality: vocabularyRef(r.evidence_quality_id === null ? undefined : EVIDENCE_QUALITIES.byId(r.evidence_quality_id)),
    references: readJson<RecommendationItem['references']>(r.references),
    created_at: r.created_at,
  }));
}

// What Service A computes at import and stores with the data version: the statistics of /api/stats/.
import type { Kysely } from 'kysely';
import { getAggregate, putAggregate } from '../../core/db/datasets.ts';
import type { StoredAggregate } from '../../core/db/datasets.ts';
import { num } from '../../core/db/dialect.ts';
import { CERTAINTIES, COUNTRIES, EVIDENCE_QUALITIES, STRENGTHS, TOPICS } from './sources/index.ts';
import type { VocabularyEntry } from './sources/index.ts';
import type { OralStats } from './schemas/index.ts';
import type { OralDatabase } from './tables.ts';

const STATS = 'stats';

/** Group counts as a map from the grouped value (as text; null for SQL null) to its count. */
function countMap(rows: readonly { key: string | number | null; n: unknown }[]): Map<string | null, number> {
  return new Map(rows.map((r) => [r.key === null ? null : String(r.key), num(r.n)]));
}

const sum = (counts: Map<string | null, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

async function computeStats(db: Kysely<OralDatabase>, dataVersion: string): Promise<OralStats> {
  const recCountries = countMap(
    await db
      .selectFrom('oral_recommendations')
      .select(['country as key', (eb) => eb.fn.countAll().as('n')])
      .groupBy('country')
      .execute(),
  );
  const topicCounts = countMap(
    await db
      .selectFrom('oral_recommendation_topics')
      .select(['topic_id as key', (eb) => eb.fn.countAll().as('n')])
      .groupBy('topic_id')
      .execute(),
  );
  const strengthCounts = countMap(
    await db
      .selectFrom('oral_recommendations')
      .select(['strength_id as key', (eb) => eb.fn.countAll().as('n')])
      .groupBy('strength_id')
      .execute(),
  );
  const qualityCounts = countMap(
    await db
      .selectFrom('oral_recommendations')
      .select(['evidence_quality_id as key', (eb) => eb.fn.countAll().as('n')])
      .groupBy('evidence_quality_id')
      .execute(),
  );
  const guidelineCountries = countMap(
    await db
      .selectFrom('oral_guidelines')
      .select(['country as key', (eb) => eb.fn.countAll().as('n')])
      .groupBy('country')
      .execute(),
  );
  const certaintyCounts = countMap(
    await db
      .selectFrom('oral_outcomes')
      .select(['certainty as key', (eb) => eb.fn.countAll().as('n')])
      .groupBy('certainty')
      .execute(),
  );
  const reviewTotal = num(
    (
      await db
        .selectFrom('oral_reviews')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  const byCountry = (counts: Map<string | null, number>) =>
    COUNTRIES.map((c) => ({ code: c.code, name: c.name, flag_emoji: c.flag_emoji, count: counts.get(c.code) ?? 0 }));
  const byVocabulary = (entries: readonly VocabularyEntry[], counts: Map<string | null, number>) =>
    entries.map((e) => ({ id: e.id, name: e.name, slug: e.slug, count: counts.get(String(e.id)) ?? 0 }));

  return {
    recommendations: {
      total: sum(recCountries),
      by_country: byCountry(recCountries),
      // Every topic with its count, most frequent first, then by name.
      by_topic: byVocabulary(TOPICS.entries, topicCounts).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
      by_strength: byVocabulary(STRENGTHS.entries, strengthCounts),
      by_evidence_quality: byVocabulary(EVIDENCE_QUALITIES.entries, qualityCounts),
      without_strength: strengthCounts.get(null) ?? 0,
      without_evidence_quality: qualityCounts.get(null) ?? 0,
    },
    guidelines: {
      total: sum(guidelineCountries),
      by_country: byCountry(guidelineCountries),
    },
    reviews: {
      total: reviewTotal,
      total_outcomes: sum(certaintyCounts),
      by_certainty: [
        ...CERTAINTIES.map((c) => ({ certainty: c, count: certaintyCounts.get(c) ?? 0 })),
        { certainty: 'not_rated', count: certaintyCounts.get(null) ?? 0 },
      ],
    },
    generated_at: new Date().toISOString(),
    data_version: dataVersion,
  };
}

/** Recomputes the statistics inside an import's transaction, stored with its data version. */
export async function storeStats(trx: Kysely<OralDatabase>, dataVersion: string): Promise<void> {
  await putAggregate(trx, 'oral', STATS, dataVersion, await computeStats(trx, dataVersion));
}

export function readStats(db: Kysely<OralDatabase>): Promise<StoredAggregate<OralStats> | null> {
  return getAggregate<OralStats>(db, 'oral', STATS);
}

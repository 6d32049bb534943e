// Writing normalised source records into the database, idempotently: rows keep their ids across imports
// (matched by natural key), unchanged rows are left alone (compared by a content hash), rows a source no
// longer has are deleted. Used by every importer, the demo included. The records the tally counts are
// recommendations and reviews (guidelines and outcomes are their parts); the importer counts the rows read.
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { dbBool, dbJson, insertMany, num, readJson } from '../../core/db/dialect.ts';
import type { ImportTally } from '../../core/import.ts';
import type { DowngradesInput, GuidelineInput, OutcomeInput, RecommendationInput, ReviewInput } from './sources/index.ts';
import { EVIDENCE_QUALITIES, STRENGTHS, TOPICS, reviewTitles } from './sources/index.ts';
import type { NewRecommendation, OralDatabase } from './tables.ts';

function contentHash(value: unknown): string {
  return createHash('sha1').update(JSON.stringify(value)).digest('hex');
}

async function organizationId(trx: Kysely<OralDatabase>, guideline: GuidelineInput): Promise<number> {
  const { name, website } = guideline.organization;
  const existing = await trx
    .selectFrom('oral_organizations')
    .select(['id', 'website'])
    .where('name', '=', name)
    .where('country', '=', guideline.country)
    .executeTakeFirst();
  if (existing) {
    if (existing.website !== website) await trx.updateTable('oral_organizations').set({ website }).where('id', '=', existing.id).execute();
    return Number(existing.id);
  }
  const row = await trx
    .insertInto('oral_organizations')
    .values({ name, website, country: guideline.country })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** The stored columns of a recommendation that its content hash covers (JSON columns as values, not yet encoded). */
type RecommendationValues = Omit<NewRecommendation, 'guideline_id' | 'content_hash' | 'created_at' | 'keywords' | 'references'> &
  Pick<RecommendationInput, 'keywords' | 'references'>;

function recommendationRow(guideline: GuidelineInput, rec: RecommendationInput): RecommendationValues {
  const strength = rec.strength ? STRENGTHS.bySlug(rec.strength) : undefined;
  const quality = rec.evidence_quality ? EVIDENCE_QUALITIES.bySlug(rec.evidence_quality) : undefined;
  return {
    source_key: rec.source_key,
    title: rec.title,
    text: rec.text,
    keywords: rec.keywords,
    keywords_text: rec.keywords.join(' '),
    target_population: rec.target_population,
    clinical_context: rec.clinical_context,
    source_url: rec.source_url,
    page_number: rec.page_number,
    strength_id: strength?.id ?? null,
    evidence_quality_id: quality?.id ?? null,
    grade: rec.grade,
    recommendation_number: rec.recommendation_number,
    references: rec.references,
    country: guideline.country,
    publication_year: guideline.publication_year,
  };
}

function topicIds(rec: RecommendationInput): number[] {
  const ids = rec.topics.map((slug) => TOPICS.bySlug(slug)?.id).filter((id): id is number => id !== undefined);
  return [...new Set(ids)];
}

/**
 * Stores one guideline with all its recommendations; the guideline's recommendations become exactly `input`'s,
 * except that a strength or evidence-quality label the source holds but cannot map keeps the stored value.
 */
export async function storeGuideline(trx: Kysely<OralDatabase>, input: GuidelineInput, dataset: string, tally: ImportTally): Promise<void> {
  const now = new Date().toISOString();
  const orgId = await organizationId(trx, input);
  const header = {
    dataset,
    title: input.title,
    description: input.description,
    organization_id: orgId,
    organization_name: input.organization.name,
    country: input.country,
    region: input.region,
    publication_year: input.publication_year,
    url: input.url,
    is_active: dbBool(trx, true),
    is_demo: dbBool(trx, input.is_demo),
    recommendation_count: input.recommendations.length,
  };
  const headerHash = contentHash(header);
  const existing = await trx
    .selectFrom('oral_guidelines')
    .select(['id', 'content_hash'])
    .where('source_key', '=', input.source_key)
    .executeTakeFirst();
  let guidelineId: number;
  if (!existing) {
    const row = await trx
      .insertInto('oral_guidelines')
      .values({ source_key: input.source_key, ...header, content_hash: headerHash, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    guidelineId = Number(row.id);
  } else {
    guidelineId = Number(existing.id);
    if (existing.content_hash !== headerHash)
      await trx
        .updateTable('oral_guidelines')
        .set({ ...header, content_hash: headerHash })
        .where('id', '=', guidelineId)
        .execute();
  }

  const stored = new Map<string, { id: number; content_hash: string; strength_id: number | null; evidence_quality_id: number | null }>();
  for (const r of await trx
    .selectFrom('oral_recommendations')
    .select(['id', 'source_key', 'content_hash', 'strength_id', 'evidence_quality_id'])
    .where('guideline_id', '=', guidelineId)
    .execute()) {
    stored.set(r.source_key, {
      id: Number(r.id),
      content_hash: r.content_hash,
      strength_id: r.strength_id === null ? null : Number(r.strength_id),
      evidence_quality_id: r.evidence_quality_id === null ? null : Number(r.evidence_quality_id),
    });
  }
  const seen = new Set<string>();
  for (const rec of input.recommendations) {
    if (seen.has(rec.source_key)) {
      tally.exclude('repeats the key of an earlier recommendation of the guideline (the first is kept)');
      continue;
    }
    seen.add(rec.source_key);
    const row = recommendationRow(input, rec);
    // A label the source holds but that names no vocabulary entry never replaces the stored value.
    let topics = topicIds(rec);
    for (const u of rec.unreadable ?? []) {
      if (u.field === 'topic') {
        const before = stored.get(rec.source_key);
        const keptTopics = before
          ? (
              await trx
                .selectFrom('oral_recommendation_topics')
                .select('topic_id')
                .where('recommendation_id', '=', before.id)
                .orderBy('topic_id')
                .execute()
            ).map((t) => Number(t.topic_id))
          : [];
        if (keptTopics.length > 0) topics = keptTopics;
        tally.warn(`${u.location}: ${u.reason}; ${keptTopics.length > 0 ? 'the stored value is kept' : 'stored without it'}`);
        continue;
      }
      const column = u.field === 'strength' ? 'strength_id' : 'evidence_quality_id';
      const kept = stored.get(rec.source_key)?.[column] ?? null;
      if (kept !== null) row[column] = kept;
      tally.warn(`${u.location}: ${u.reason}; ${kept !== null ? 'the stored value is kept' : 'stored without it'}`);
    }
    const hash = contentHash({ row, topics });
    const values = { ...row, keywords: dbJson(trx, row.keywords), references: dbJson(trx, row.references), content_hash: hash };
    const old = stored.get(rec.source_key);
    let id: number;
    if (!old) {
      const inserted = await trx
        .insertInto('oral_recommendations')
        .values({ guideline_id: guidelineId, ...values, created_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      id = Number(inserted.id);
      tally.inserted();
    } else if (old.content_hash !== hash) {
      id = old.id;
      await trx.updateTable('oral_recommendations').set(values).where('id', '=', id).execute();
      await trx.deleteFrom('oral_recommendation_topics').where('recommendation_id', '=', id).execute();
      tally.updated();
    } else {
      tally.unchanged();
      continue;
    }
    await insertMany(
      trx,
      'oral_recommendation_topics',
      topics.map((topic_id) => ({ recommendation_id: id, topic_id })),
    );
  }
  const gone = [...stored.entries()].filter(([key]) => !seen.has(key)).map(([, v]) => v.id);
  if (gone.length) {
    await trx.deleteFrom('oral_recommendation_topics').where('recommendation_id', 'in', gone).execute();
    await trx.deleteFrom('oral_recommendations').where('id', 'in', gone).execute();
    tally.deleted(gone.length);
  }
}

/** Removes guidelines of `dataset` whose source keys are not in `keep` (a source that dropped a guideline). */
export async function deleteOtherGuidelines(trx: Kysely<OralDatabase>, dataset: string, keep: string[], tally: ImportTally): Promise<void> {
  let query = trx.selectFrom('oral_guidelines').select('id').where('dataset', '=', dataset);
  if (keep.length) query = query.where('source_key', 'not in', keep);
  const ids = (await query.execute()).map((r) => Number(r.id));
  if (!ids.length) return;
  const recs = (await trx.selectFrom('oral_recommendations').select('id').where('guideline_id', 'in', ids).execute()).map((r) =>
    Number(r.id),
  );
  if (recs.length) await trx.deleteFrom('oral_recommendation_topics').where('recommendation_id', 'in', recs).execute();
  await trx.deleteFrom('oral_recommendations').where('guideline_id', 'in', ids).execute();
  await trx.deleteFrom('oral_guidelines').where('id', 'in', ids).execute();
  tally.deleted(recs.length);
}

/** An outcome's natural key within its review: its identifying texts, and which of the rows with those texts it is. */
function outcomeKeys(
  outcomes: ReadonlyArray<Pick<OutcomeInput, 'population' | 'intervention' | 'comparison' | 'outcome' | 'measure'>>,
): string[] {
  const seen = new Map<string, number>();
  return outcomes.map((o) => {
    const texts = JSON.stringify([o.population, o.intervention, o.comparison, o.outcome, o.measure]);
    const n = seen.get(texts) ?? 0;
    seen.set(texts, n + 1);
    return `${texts}#${n}`;
  });
}

/**
 * The review's outcomes as they are to be stored: a value the file holds but could not read takes the value
 * stored for the same outcome (matched by its natural key) when there is one, else stays null; a warning either
 * way. (The `unreadable` lists themselves are not stored.)
 */
async function outcomesToStore(
  trx: Kysely<OralDatabase>,
  reviewPk: number | null,
  outcomes: readonly OutcomeInput[],
  tally: ImportTally,
): Promise<OutcomeInput[]> {
  const result = outcomes.map(({ unreadable: _unreadable, ...o }) => ({ ...o, downgrades: { ...o.downgrades } }));
  if (!outcomes.some((o) => o.unreadable)) return result;
  const stored = new Map<string, OutcomeInput>();
  if (reviewPk !== null) {
    const rows = await trx.selectFrom('oral_outcomes').selectAll().where('review_pk', '=', reviewPk).orderBy('position').execute();
    const keys = outcomeKeys(rows);
    rows.forEach((r, i) =>
      stored.set(keys[i], {
        ...r,
        effect: r.effect === null ? null : num(r.effect),
        ci_lower: r.ci_lower === null ? null : num(r.ci_lower),
        ci_upper: r.ci_upper === null ? null : num(r.ci_upper),
        participants: r.participants === null ? null : num(r.participants),
        studies: r.studies === null ? null : num(r.studies),
        significant: r.significant === null ? null : Boolean(r.significant),
        certainty: r.certainty as OutcomeInput['certainty'],
        downgrades: readJson<DowngradesInput>(r.downgrades),
      }),
    );
  }
  const keys = outcomeKeys(outcomes);
  outcomes.forEach((o, i) => {
    const old = stored.get(keys[i]);
    for (const u of o.unreadable ?? []) {
      const target = result[i];
      let kept = false;
      if (old && u.field.startsWith('downgrades.')) {
        const key = u.field.slice('downgrades.'.length) as keyof DowngradesInput;
        if (old.downgrades?.[key] != null) {
          target.downgrades[key] = old.downgrades[key];
          kept = true;
        }
      } else if (old) {
        const field = u.field as Exclude<typeof u.field, `downgrades.${string}`>;
        if (old[field] !== null) {
          // (each field takes its own stored value: the types match field by field)
          (target as Record<typeof field, unknown>)[field] = old[field];
          kept = true;
        }
      }
      tally.warn(`${u.location}: ${u.reason}; ${kept ? 'the stored value is kept' : 'stored as null'}`);
    }
  });
  return result;
}

/**
 * Stores one review with its outcomes (replaced as a whole when anything changed); a value the file could not
 * read keeps the stored one (outcomesToStore).
 */
export async function storeReview(trx: Kysely<OralDatabase>, review: ReviewInput, dataset: string, tally: ImportTally): Promise<void> {
  const existing = await trx
    .selectFrom('oral_reviews')
    .select(['id', 'content_hash'])
    .where('review_id', '=', review.review_id)
    .executeTakeFirst();
  const input = { ...review, outcomes: await outcomesToStore(trx, existing ? Number(existing.id) : null, review.outcomes, tally) };
  const counts = { high: 0, moderate: 0, low: 0, very_low: 0 };
  for (const o of input.outcomes) if (o.certainty) counts[o.certainty]++;
  const titles = reviewTitles(input);
  const header = {
    dataset,
    version: input.version,
    title: titles.title,
    listed_title: titles.listed_title,
    description: titles.description,
    title_verified: dbBool(trx, titles.verified),
    url: input.url,
    doi: input.doi,
    publication_date: input.publication_date,
    authors: input.authors,
    abstract: input.abstract,
    is_demo: dbBool(trx, input.is_demo),
    outcome_count: input.outcomes.length,
    certainty_high: counts.high,
    certainty_moderate: counts.moderate,
    certainty_low: counts.low,
    certainty_very_low: counts.very_low,
  };
  const hash = contentHash({ header, outcomes: input.outcomes });
  let id: number;
  if (!existing) {
    const row = await trx
      .insertInto('oral_reviews')
      .values({ review_id: input.review_id, ...header, content_hash: hash, created_at: new Date().toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    id = Number(row.id);
    tally.inserted();
  } else if (existing.content_hash !== hash) {
    id = Number(existing.id);
    await trx
      .updateTable('oral_reviews')
      .set({ ...header, content_hash: hash })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('oral_outcomes').where('review_pk', '=', id).execute();
    tally.updated();
  } else {
    tally.unchanged();
    return;
  }
  await insertMany(
    trx,
    'oral_outcomes',
    input.outcomes.map((o, position) => ({
      review_pk: id,
      position,
      population: o.population,
      intervention: o.intervention,
      comparison: o.comparison,
      outcome: o.outcome,
      measure: o.measure,
      effect: o.effect,
      ci_lower: o.ci_lower,
      ci_upper: o.ci_upper,
      significant: o.significant === null ? null : dbBool(trx, o.significant),
      participants: o.participants,
      studies: o.studies,
      certainty: o.certainty,
      certainty_raw: o.certainty_raw,
      reasons: o.reasons,
      downgrades: dbJson(trx, o.downgrades),
    })),
  );
}

export async function deleteOtherReviews(trx: Kysely<OralDatabase>, dataset: string, keep: string[], tally: ImportTally): Promise<void> {
  let query = trx.selectFrom('oral_reviews').select('id').where('dataset', '=', dataset);
  if (keep.length) query = query.where('review_id', 'not in', keep);
  const ids = (await query.execute()).map((r) => Number(r.id));
  if (!ids.length) return;
  await trx.deleteFrom('oral_outcomes').where('review_pk', 'in', ids).execute();
  await trx.deleteFrom('oral_reviews').where('id', 'in', ids).execute();
  tally.deleted(ids.length);
}

/** Records (recommendations and reviews) a dataset holds: what the import guard's share of deletions is taken of. */
export async function countDatasetRecords(trx: Kysely<OralDatabase>, dataset: string): Promise<number> {
  const recommendations = await trx
    .selectFrom('oral_recommendations as r')
    .innerJoin('oral_guidelines as g', 'g.id', 'r.guideline_id')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('g.dataset', '=', dataset)
    .executeTakeFirstOrThrow();
  const reviews = await trx
    .selectFrom('oral_reviews')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('dataset', '=', dataset)
    .executeTakeFirstOrThrow();
  return num(recommendations.n) + num(reviews.n);
}

/** Whether the service holds records that are not generated demo data. */
export async function holdsRealData(trx: Kysely<OralDatabase>): Promise<boolean> {
  const no = dbBool(trx, false);
  const guideline = await trx.selectFrom('oral_guidelines').select('id').where('is_demo', '=', no).limit(1).executeTakeFirst();
  const review = await trx.selectFrom('oral_reviews').select('id').where('is_demo', '=', no).limit(1).executeTakeFirst();
  return guideline !== undefined || review !== undefined;
}

/**
 * Removes every generated demo row of the service (guidelines with their recommendations, reviews with their
 * outcomes, organizations left without a guideline, the demo data version) and counts the recommendations and
 * reviews removed with `tally.demoRemoved`: real data replaces demo data, and they are never served together.
 */
export async function removeDemoRows(trx: Kysely<OralDatabase>, tally: ImportTally): Promise<void> {
  const yes = dbBool(trx, true);
  const guidelines = (await trx.selectFrom('oral_guidelines').select('id').where('is_demo', '=', yes).execute()).map((g) => g.id);
  const reviews = (await trx.selectFrom('oral_reviews').select('id').where('is_demo', '=', yes).execute()).map((r) => r.id);
  let recommendations = 0;
  if (guidelines.length) {
    const recs = (await trx.selectFrom('oral_recommendations').select('id').where('guideline_id', 'in', guidelines).execute()).map(
      (r) => r.id,
    );
    recommendations = recs.length;
    if (recs.length) await trx.deleteFrom('oral_recommendation_topics').where('recommendation_id', 'in', recs).execute();
    await trx.deleteFrom('oral_recommendations').where('guideline_id', 'in', guidelines).execute();
    await trx.deleteFrom('oral_guidelines').where('id', 'in', guidelines).execute();
    await trx
      .deleteFrom('oral_organizations')
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('oral_guidelines as g').select('g.id').whereRef('g.organization_id', '=', 'oral_organizations.id'))),
      )
      .execute();
  }
  if (reviews.length) {
    await trx.deleteFrom('oral_outcomes').where('review_pk', 'in', reviews).execute();
    await trx.deleteFrom('oral_reviews').where('id', 'in', reviews).execute();
  }
  await trx.deleteFrom('data_versions').where('service', '=', 'oral').where('is_demo', '=', yes).execute();
  if (recommendations + reviews.length) tally.demoRemoved(recommendations + reviews.length);
}

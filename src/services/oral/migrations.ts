// Service A schema: organizations → guidelines → recommendations (topics many-to-many), and systematic
// reviews → summary-of-findings outcomes. Vocabulary ids (topics, strengths, qualities) are the stable ids of
// sources/vocabulary.ts; the country and publication year are copied onto recommendations so that filtering
// and the contract's ordering need no join.
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { columnType, dbBool, dialectOf, idConstraint } from '../../core/db/dialect.ts';
import { createSubstringIndex, dropSubstringIndex } from '../../core/db/search-index.ts';
import type { SubstringIndex } from '../../core/db/search-index.ts';
import { GUIDELINE_SEARCH, RECOMMENDATION_SEARCH, REVIEW_SEARCH } from './search.ts';
import { reviewTitles } from './sources/index.ts';
import type { OralDatabase } from './tables.ts';

// The review index as migration 1 created it (a migration keeps the definitions it was written with).
const REVIEW_SEARCH_1: SubstringIndex = { ...REVIEW_SEARCH, columns: ['review_id', 'title', 'abstract'] };

export const oralMigrations: Record<string, Migration> = {
  oral_0001_evidence: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('oral_organizations')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('website', 'text')
        .addColumn('country', 'text', (c) => c.notNull())
        .addUniqueConstraint('oral_organizations_name_country', ['name', 'country'])
        .execute();
      await db.schema
        .createTable('oral_guidelines')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('source_key', 'text', (c) => c.notNull().unique())
        .addColumn('dataset', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('organization_id', 'bigint', (c) => c.notNull().references('oral_organizations.id'))
        .addColumn('organization_name', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('region', 'text')
        .addColumn('publication_year', 'integer')
        .addColumn('url', 'text')
        .addColumn('is_active', columnType.boolean(d), (c) => c.notNull())
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('recommendation_count', 'integer', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oral_guidelines_order').on('oral_guidelines').columns(['publication_year desc', 'id']).execute();
      await db.schema
        .createTable('oral_recommendations')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('guideline_id', 'bigint', (c) => c.notNull().references('oral_guidelines.id').onDelete('cascade'))
        .addColumn('source_key', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('text', 'text', (c) => c.notNull())
        .addColumn('keywords', columnType.json(d), (c) => c.notNull())
        .addColumn('keywords_text', 'text', (c) => c.notNull())
        .addColumn('target_population', 'text')
        .addColumn('clinical_context', 'text')
        .addColumn('source_url', 'text')
        .addColumn('page_number', 'integer')
        .addColumn('strength_id', 'integer')
        .addColumn('evidence_quality_id', 'integer')
        .addColumn('grade', 'text')
        .addColumn('recommendation_number', 'text')
        .addColumn('references', columnType.json(d), (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('publication_year', 'integer')
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('oral_recommendations_key', ['guideline_id', 'source_key'])
        .execute();
      await db.schema
        .createIndex('oral_recommendations_order')
        .on('oral_recommendations')
        .columns(['publication_year desc', 'id'])
        .execute();
      await db.schema
        .createIndex('oral_recommendations_country')
        .on('oral_recommendations')
        .columns(['country', 'publication_year desc', 'id'])
        .execute();
      await db.schema
        .createTable('oral_recommendation_topics')
        .addColumn('recommendation_id', 'bigint', (c) => c.notNull().references('oral_recommendations.id').onDelete('cascade'))
        .addColumn('topic_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('oral_recommendation_topics_pk', ['recommendation_id', 'topic_id'])
        .execute();
      await db.schema
        .createIndex('oral_recommendation_topics_topic')
        .on('oral_recommendation_topics')
        .columns(['topic_id', 'recommendation_id'])
        .execute();
      await db.schema
        .createTable('oral_reviews')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('review_id', 'text', (c) => c.notNull().unique())
        .addColumn('dataset', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('doi', 'text')
        .addColumn('publication_date', 'text')
        .addColumn('authors', 'text')
        .addColumn('abstract', 'text')
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('outcome_count', 'integer', (c) => c.notNull())
        .addColumn('certainty_high', 'integer', (c) => c.notNull())
        .addColumn('certainty_moderate', 'integer', (c) => c.notNull())
        .addColumn('certainty_low', 'integer', (c) => c.notNull())
        .addColumn('certainty_very_low', 'integer', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('oral_outcomes')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('review_pk', 'bigint', (c) => c.notNull().references('oral_reviews.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('population', 'text')
        .addColumn('intervention', 'text')
        .addColumn('comparison', 'text')
        .addColumn('outcome', 'text')
        .addColumn('measure', 'text')
        .addColumn('effect', columnType.double(d))
        .addColumn('ci_lower', columnType.double(d))
        .addColumn('ci_upper', columnType.double(d))
        .addColumn('significant', columnType.boolean(d))
        .addColumn('participants', 'integer')
        .addColumn('studies', 'integer')
        .addColumn('certainty', 'text')
        .addColumn('certainty_raw', 'text')
        .addColumn('reasons', 'text')
        .addColumn('downgrades', columnType.json(d), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oral_outcomes_review').on('oral_outcomes').columns(['review_pk', 'position']).execute();
      for (const index of [RECOMMENDATION_SEARCH, GUIDELINE_SEARCH, REVIEW_SEARCH_1]) await createSubstringIndex(db, index);
    },
  },
  // Listed review titles are checked against the review's rows (sources/review-title.ts): the listed title is
  // kept apart, the description built from the rows is stored and searched, and `title` is the listed title
  // only where the rows confirm it. Reviews already stored are brought up to date here.
  oral_0002_review_titles: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema.alterTable('oral_reviews').addColumn('listed_title', 'text').execute();
      await db.schema
        .alterTable('oral_reviews')
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .alterTable('oral_reviews')
        .addColumn('title_verified', columnType.boolean(d), (c) => c.notNull().defaultTo(dbBool(d, false)))
        .execute();
      const oral: Kysely<OralDatabase> = db; // the tables as they are after the columns above
      const reviews = await oral.selectFrom('oral_reviews').select(['id', 'review_id', 'title', 'is_demo']).execute();
      for (const review of reviews) {
        const outcomes = await oral
          .selectFrom('oral_outcomes')
          .select(['population', 'intervention', 'comparison', 'outcome'])
          .where('review_pk', '=', review.id)
          .orderBy('position')
          .execute();
        // Before this migration `title` held the listed title, or "Cochrane review <id>" when the file listed none.
        const listed = review.title === `Cochrane review ${review.review_id}` ? null : review.title;
        const titles = reviewTitles({ review_id: review.review_id, title: listed, is_demo: Boolean(review.is_demo), outcomes });
        await oral
          .updateTable('oral_reviews')
          .set({
            title: titles.title,
            listed_title: titles.listed_title,
            description: titles.description,
            title_verified: dbBool(d, titles.verified),
          })
          .where('id', '=', review.id)
          .execute();
      }
      await dropSubstringIndex(db, REVIEW_SEARCH_1);
      await createSubstringIndex(db, REVIEW_SEARCH);
    },
  },
  oral_0003_accent_folded_search: {
    async up(db) {
      for (const index of [RECOMMENDATION_SEARCH, GUIDELINE_SEARCH, REVIEW_SEARCH]) {
        await dropSubstringIndex(db, { ...index, accents: 'keep' });
        await createSubstringIndex(db, index);
      }
    },
  },
};

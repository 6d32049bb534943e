// Service D's tables. Categories carry ids the importer assigns (stable across imports and installs: the
// known families keep their place in the canonical list); draws are found again by round number; the
// stored predictions are replaced whenever the forecasts are recomputed (by import, `fit draws` or the
// daily as-of refresh). The full forecast details (status, backtests, model performance) are an aggregate.
import { sql } from 'kysely';
import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { columnType, dialectOf, idConstraint } from '../../core/db/dialect.ts';

const SECONDARY_COLUMNS = ['drawn_at', 'programs', 'pool_distribution'] as const;

/**
 * SQLite cannot drop or add NOT NULL on a column: the draws table is rebuilt with the same columns in the
 * same order (so rows copy as they are), and its AUTOINCREMENT counter carried over (ids are never reused).
 */
async function rebuildSqliteDraws(db: Kysely<unknown>, secondaryNullable: boolean): Promise<void> {
  const nullable = (name: string) => secondaryNullable && (SECONDARY_COLUMNS as readonly string[]).includes(name);
  const text = (name: string) => (c: ColumnDefinitionBuilder) => (nullable(name) ? c : c.notNull());
  await db.schema
    .createTable('draws_draws_next')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('round_number', 'text', (c) => c.notNull().unique())
    .addColumn('round_sort_key', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer', (c) => c.notNull().references('draws_categories.id'))
    .addColumn('draw_name', 'text', (c) => c.notNull())
    .addColumn('invitations', 'integer', (c) => c.notNull())
    .addColumn('crs', 'integer', (c) => c.notNull())
    .addColumn('drawn_at', 'text', text('drawn_at'))
    .addColumn('tie_break_at', 'text')
    .addColumn('programs', 'text', text('programs'))
    .addColumn('pool_distribution', 'text', text('pool_distribution'))
    .addColumn('url', 'text')
    .addColumn('days_since_last_draw', 'integer')
    .execute();
  await sql`INSERT INTO draws_draws_next SELECT * FROM draws_draws`.execute(db);
  const sequence = (await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'draws_draws'`.execute(db)).rows[0]?.seq ?? 0;
  await db.schema.dropTable('draws_draws').execute();
  await sql`ALTER TABLE draws_draws_next RENAME TO draws_draws`.execute(db);
  await sql`DELETE FROM sqlite_sequence WHERE name = 'draws_draws'`.execute(db);
  await sql`INSERT INTO sqlite_sequence (name, seq) VALUES ('draws_draws', (SELECT max(${sequence}, coalesce(max(id), 0)) FROM draws_draws))`.execute(
    db,
  );
  await db.schema.createIndex('draws_draws_date_idx').on('draws_draws').columns(['date', 'round_sort_key']).execute();
  await db.schema
    .createIndex('draws_draws_category_date_idx')
    .on('draws_draws')
    .columns(['category_id', 'date', 'round_sort_key'])
    .execute();
}

async function secondaryColumnsNullable(db: Kysely<unknown>, nullable: boolean): Promise<void> {
  if (dialectOf(db) === 'sqlite') return rebuildSqliteDraws(db, nullable);
  for (const column of SECONDARY_COLUMNS)
    await db.schema
      .alterTable('draws_draws')
      .alterColumn(column, (c) => (nullable ? c.dropNotNull() : c.setNotNull()))
      .execute();
}

export const drawsMigrations: Record<string, Migration> = {
  draws_0001_tables: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('draws_categories')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        /** True while the current feed has draws of this category. */
        .addColumn('is_active', columnType.boolean(d), (c) => c.notNull())
        /** True for a family of the canonical table, false for a name first seen in the feed. */
        .addColumn('is_known', columnType.boolean(d), (c) => c.notNull())
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('draws_draws')
        .addColumn('id', columnType.id(d), idConstraint(d))
        /** drawNumber as published ("388", "91a"). */
        .addColumn('round_number', 'text', (c) => c.notNull().unique())
        /** Orders rounds: number × 100 + letter position. */
        .addColumn('round_sort_key', 'integer', (c) => c.notNull())
        .addColumn('date', 'text', (c) => c.notNull())
        .addColumn('category_id', 'integer', (c) => c.notNull().references('draws_categories.id'))
        /** drawName exactly as published. */
        .addColumn('draw_name', 'text', (c) => c.notNull())
        .addColumn('invitations', 'integer', (c) => c.notNull())
        .addColumn('crs', 'integer', (c) => c.notNull())
        .addColumn('drawn_at', 'text', (c) => c.notNull())
        /** drawCutOff: the tie-breaking rule's profile time; null before late 2017. */
        .addColumn('tie_break_at', 'text')
        /** drawText2: the programs the round covered. */
        .addColumn('programs', 'text', (c) => c.notNull())
        /** dd1…dd18 with drawDistributionAsOn, labelled (PoolDistribution). */
        .addColumn('pool_distribution', columnType.json(d), (c) => c.notNull())
        .addColumn('url', 'text')
        /** Days since the previous draw date of the same category (0 for a second draw on the same day); null for its first. */
        .addColumn('days_since_last_draw', 'integer')
        .execute();
      await db.schema.createIndex('draws_draws_date_idx').on('draws_draws').columns(['date', 'round_sort_key']).execute();
      await db.schema
        .createIndex('draws_draws_category_date_idx')
        .on('draws_draws')
        .columns(['category_id', 'date', 'round_sort_key'])
        .execute();
      await db.schema
        .createTable('draws_predictions')
        .addColumn('category_id', 'integer', (c) => c.notNull().references('draws_categories.id'))
        .addColumn('rank', 'integer', (c) => c.notNull())
        .addColumn('predicted_date', 'text', (c) => c.notNull())
        .addColumn('predicted_crs_score', columnType.double(d), (c) => c.notNull())
        .addColumn('predicted_invitations', 'integer', (c) => c.notNull())
        .addColumn('confidence_score', columnType.double(d), (c) => c.notNull())
        .addColumn('model_used', 'text', (c) => c.notNull())
        .addColumn('range_min', columnType.double(d), (c) => c.notNull())
        .addColumn('range_max', columnType.double(d), (c) => c.notNull())
        .addColumn('margin_of_error', columnType.double(d), (c) => c.notNull())
        .addColumn('date_earliest', 'text', (c) => c.notNull())
        .addColumn('date_latest', 'text', (c) => c.notNull())
        .addColumn('as_of', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('draws_predictions_pk', ['category_id', 'rank'])
        .execute();
    },
    async down(db) {
      await db.schema.dropTable('draws_predictions').execute();
      await db.schema.dropTable('draws_draws').execute();
      await db.schema.dropTable('draws_categories').execute();
    },
  },
  /**
   * A secondary field of the feed that cannot be read (draw time, programs, pool distribution) is
   * stored as null instead of refusing the whole feed. Down fails while such nulls exist.
   */
  draws_0002_nullable_secondary_fields: {
    up: async (db) => secondaryColumnsNullable(db, true),
    down: async (db) => secondaryColumnsNullable(db, false),
  },
  /** Every prediction carries a 95% interval of the invitations too. */
  draws_0003_invitation_intervals: {
    async up(db) {
      await db.schema.alterTable('draws_predictions').addColumn('invitations_min', 'integer').execute();
      await db.schema.alterTable('draws_predictions').addColumn('invitations_max', 'integer').execute();
    },
    async down(db) {
      await db.schema.alterTable('draws_predictions').dropColumn('invitations_max').execute();
      await db.schema.alterTable('draws_predictions').dropColumn('invitations_min').execute();
    },
  },
  /** Every forecast as served, kept and scored when its draw is published (the public track record). */
  draws_0004_track_record: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('draws_track_record')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('data_version', 'text', (c) => c.notNull())
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .addColumn('recorded_by', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('newest_draw_date', 'text', (c) => c.notNull())
        // No foreign key: the record outlives a category the feed drops.
        .addColumn('category_id', 'integer', (c) => c.notNull())
        .addColumn('horizon', 'integer', (c) => c.notNull())
        .addColumn('base_round_number', 'text', (c) => c.notNull())
        .addColumn('base_round_sort_key', 'integer', (c) => c.notNull())
        .addColumn('base_date', 'text', (c) => c.notNull())
        .addColumn('base_crs', 'integer', (c) => c.notNull())
        .addColumn('base_invitations', 'integer', (c) => c.notNull())
        .addColumn('model_used', 'text', (c) => c.notNull())
        .addColumn('predicted_date', 'text', (c) => c.notNull())
        .addColumn('date_earliest', 'text', (c) => c.notNull())
        .addColumn('date_latest', 'text', (c) => c.notNull())
        .addColumn('crs_point', columnType.double(d), (c) => c.notNull())
        .addColumn('crs_min', columnType.double(d), (c) => c.notNull())
        .addColumn('crs_max', columnType.double(d), (c) => c.notNull())
        .addColumn('invitations_point', 'integer', (c) => c.notNull())
        .addColumn('invitations_min', 'integer')
        .addColumn('invitations_max', 'integer')
        .addColumn('actual_round_number', 'text')
        .addColumn('actual_date', 'text')
        .addColumn('actual_crs', 'integer')
        .addColumn('actual_invitations', 'integer')
        .addColumn('scored_at', 'text')
        .addUniqueConstraint('draws_track_record_version_key', ['data_version', 'category_id', 'horizon'])
        .execute();
      await db.schema.createIndex('draws_track_record_category_idx').on('draws_track_record').columns(['category_id', 'id']).execute();
      await db.schema.createIndex('draws_track_record_scored_idx').on('draws_track_record').columns(['scored_at']).execute();
    },
    async down(db) {
      await db.schema.dropTable('draws_track_record').execute();
    },
  },
  /** The French of a round's texts, from IRCC's French feed (ee_rounds_123_fr.json), matched by round number. */
  draws_0005_french_texts: {
    async up(db) {
      await db.schema.alterTable('draws_draws').addColumn('draw_name_fr', 'text').execute();
      await db.schema.alterTable('draws_draws').addColumn('programs_fr', 'text').execute();
    },
    async down(db) {
      await db.schema.alterTable('draws_draws').dropColumn('programs_fr').execute();
      await db.schema.alterTable('draws_draws').dropColumn('draw_name_fr').execute();
    },
  },
  /** The next draw's likely window (three weeks) and its calibrated probability, served and kept in the track record. */
  draws_0006_likely_window: {
    async up(db) {
      const d = dialectOf(db);
      for (const table of ['draws_predictions', 'draws_track_record']) {
        await db.schema.alterTable(table).addColumn('likely_earliest', 'text').execute();
        await db.schema.alterTable(table).addColumn('likely_latest', 'text').execute();
        await db.schema.alterTable(table).addColumn('likely_probability', columnType.double(d)).execute();
      }
    },
    async down(db) {
      for (const table of ['draws_track_record', 'draws_predictions']) {
        await db.schema.alterTable(table).dropColumn('likely_probability').execute();
        await db.schema.alterTable(table).dropColumn('likely_latest').execute();
        await db.schema.alterTable(table).dropColumn('likely_earliest').execute();
      }
    },
  },
  /** The n of each prediction's confidence_score, served beside it (rows stored before it: null until the refit). */
  draws_0007_confidence_forecasts_scored: {
    async up(db) {
      await db.schema.alterTable('draws_predictions').addColumn('confidence_forecasts_scored', 'integer').execute();
    },
    async down(db) {
      await db.schema.alterTable('draws_predictions').dropColumn('confidence_forecasts_scored').execute();
    },
  },
};

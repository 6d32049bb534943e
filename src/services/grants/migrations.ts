// Service C schema, as each migration left it (the current tables: tables.ts). One row per agreement
// (owner_org, reference), holding its current amendment. Money is integer cents; dates are YYYY-MM-DD text.
// Bookkeeping columns make the import idempotent and countable: content_hash (the stored values),
// previous_hash (the values before the running import touched the row) and import_version (the data version
// of the last import that saw the agreement).
import { sql } from 'kysely';
import type { ColumnDefinitionBuilder } from 'kysely';
import type { Migration } from 'kysely/migration';
import { columnType, dialectOf, ensureAccentFoldFunction, idConstraint } from '../../core/db/dialect.ts';
import { ALLOCATIONS_TABLE, PROJECTS_TABLE } from './international/tables.ts';
import { createSubstringIndex, dropSubstringIndex } from '../../core/db/search-index.ts';
import { GRANTS_SEARCH, GRANTS_TABLE, GRANTS_TEXTS_TABLE, RETIRED_INDEXES, RETIRED_SEARCH, SEARCHED_COLUMNS } from './tables.ts';

/** The searched columns of migrations 4 and 6 (migration 8 adds the French ones). */
const ENGLISH_SEARCHED = SEARCHED_COLUMNS.filter((c) => !c.column.endsWith('_fr'));

export const grantsMigrations: Record<string, Migration> = {
  grants_0001_agreements: {
    async up(db) {
      const d = dialectOf(db);
      const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
      await db.schema
        .createTable(GRANTS_TABLE)
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('owner_org', 'text', (c) => c.notNull())
        .addColumn('reference_number', 'text', (c) => c.notNull())
        .addColumn('amendment_number', 'integer', (c) => c.notNull())
        .addColumn('amendment_date', 'text')
        .addColumn('owner_org_title', 'text', text)
        .addColumn('agreement_type', 'text', text)
        .addColumn('recipient_type', 'text', text)
        .addColumn('recipient_legal_name', 'text', text)
        .addColumn('recipient_operating_name', 'text', text)
        .addColumn('recipient_country', 'text', text)
        .addColumn('recipient_province', 'text', text)
        .addColumn('recipient_city_en', 'text', text)
        .addColumn('recipient_postal_code', 'text', text)
        .addColumn('program_name_en', 'text', text)
        .addColumn('program_purpose_en', 'text', text)
        .addColumn('agreement_title_en', 'text', text)
        .addColumn('agreement_value_cents', columnType.bigint(d), (c) => c.notNull())
        .addColumn('agreement_start_date', 'text', (c) => c.notNull())
        .addColumn('agreement_end_date', 'text')
        .addColumn('description_en', 'text', text)
        .addColumn('naics_identifier', 'text', text)
        .addColumn('naics_sector_en', 'text', text)
        .addColumn('expected_results_en', 'text', text)
        .addColumn('fiscal_year', 'text', (c) => c.notNull())
        .addColumn('fiscal_year_start', 'integer', (c) => c.notNull())
        .addColumn('is_major_funding', columnType.boolean(d), (c) => c.notNull())
        .addColumn('is_notable', columnType.boolean(d), (c) => c.notNull())
        .addColumn('notable_reason', 'text', text)
        .addColumn('notable_category', 'text', text)
        .addColumn('notable_keyword', 'text', text)
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('previous_hash', 'text')
        .addColumn('import_version', 'text', (c) => c.notNull())
        .addUniqueConstraint('grants_agreements_key', ['owner_org', 'reference_number'])
        .execute();
      // (secondary indexes created here until migration 5 retired them: see RETIRED_INDEXES)
      await createSubstringIndex(db, RETIRED_SEARCH);
    },
  },
  // Migrations 2 and 3 dropped and created secondary indexes; migration 5 drops every one of them.
  grants_0002_orders_share_filter_indexes: {
    async up() {},
  },
  grants_0003_id_value_index: {
    async up() {},
  },
  // The searched texts move to a dictionary (see tables.ts); rows already stored are converted in place.
  grants_0004_text_dictionary: {
    async up(db) {
      const d = dialectOf(db);
      await dropSubstringIndex(db, RETIRED_SEARCH);
      await db.schema
        .createTable(GRANTS_TEXTS_TABLE)
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('text', 'text', (c) => c.notNull())
        .execute();
      for (const { textId } of ENGLISH_SEARCHED) await db.schema.alterTable(GRANTS_TABLE).addColumn(textId, 'integer').execute();
      const union = ENGLISH_SEARCHED.map(({ column }) => `SELECT ${column} AS text FROM ${GRANTS_TABLE}`).join(' UNION ');
      await sql.raw(`INSERT INTO ${GRANTS_TEXTS_TABLE} (text) SELECT text FROM (${union}) AS u`).execute(db);
      await sql.raw(`CREATE INDEX grants_texts_by_text ON ${GRANTS_TEXTS_TABLE} (text)`).execute(db);
      for (const { column, textId } of ENGLISH_SEARCHED) {
        await sql
          .raw(`UPDATE ${GRANTS_TABLE} SET ${textId} = (SELECT t.id FROM ${GRANTS_TEXTS_TABLE} t WHERE t.text = ${GRANTS_TABLE}.${column})`)
          .execute(db);
      }
      await sql.raw('DROP INDEX grants_texts_by_text').execute(db);
      await createSubstringIndex(db, { ...GRANTS_SEARCH, accents: 'keep' });
    },
  },
  // Searches are answered in memory (search/memory-search.ts): the secondary indexes go.
  grants_0005_searches_in_memory: {
    async up(db) {
      for (const name of RETIRED_INDEXES) await sql.raw(`DROP INDEX IF EXISTS ${name}`).execute(db);
      // the stored counts of single-filter searches, which the memory search does not need
      await db.deleteFrom('aggregates').where('service', '=', 'grants').where('name', '=', 'filter_counts').execute();
    },
  },
  // The searched texts are held by the dictionary only; the rows keep their ids (see STORED_COLUMNS).
  grants_0006_texts_in_dictionary_only: {
    async up(db) {
      for (const { column } of ENGLISH_SEARCHED) await db.schema.alterTable(GRANTS_TABLE).dropColumn(column).execute();
    },
  },
  // The search ignores accents as well as case ("montreal" finds "Montréal", "sante" finds "Santé").
  grants_0007_accent_folded_search: {
    async up(db) {
      await dropSubstringIndex(db, { ...GRANTS_SEARCH, accents: 'keep' });
      await createSubstringIndex(db, GRANTS_SEARCH);
    },
  },
  // Both official languages: the French texts of the source (the French half of a bilingual cell, the *_fr
  // columns); the searched ones in the dictionary, the others in the rows. The next import fills them.
  grants_0008_french_texts: {
    async up(db) {
      for (const column of [
        'owner_org_title_fr',
        'recipient_operating_name_fr',
        'recipient_city_fr',
        'program_purpose_fr',
        'expected_results_fr',
      ]) {
        await db.schema
          .alterTable(GRANTS_TABLE)
          .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
          .execute();
      }
      for (const textId of ['title_fr_text_id', 'recipient_fr_text_id', 'description_fr_text_id', 'program_fr_text_id']) {
        await db.schema.alterTable(GRANTS_TABLE).addColumn(textId, 'integer').execute();
      }
    },
  },
  // Global Affairs Canada's international assistance projects (international/): projects and their allocations to
  // countries and sectors; the accent-folding function of the search on PostgreSQL.
  grants_0010_international_projects: {
    async up(db) {
      const d = dialectOf(db);
      const text = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo('');
      await db.schema
        .createTable(PROJECTS_TABLE)
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('project_number', 'text', (c) => c.notNull().unique())
        .addColumn('date_modified', 'text')
        .addColumn('title_en', 'text', text)
        .addColumn('title_fr', 'text', text)
        .addColumn('description_en', 'text', text)
        .addColumn('description_fr', 'text', text)
        .addColumn('status', 'text', text)
        .addColumn('status_fr', 'text', text)
        .addColumn('start_date', 'text', (c) => c.notNull())
        .addColumn('end_date', 'text')
        .addColumn('start_year', 'integer', (c) => c.notNull())
        .addColumn('executing_agency_en', 'text', text)
        .addColumn('executing_agency_fr', 'text', text)
        .addColumn('maximum_contribution_cents', columnType.bigint(d), (c) => c.notNull())
        .addColumn('disbursements_cents', columnType.bigint(d))
        .addColumn('expected_results_en', 'text', text)
        .addColumn('expected_results_fr', 'text', text)
        .addColumn('aid_type_en', 'text', text)
        .addColumn('aid_type_fr', 'text', text)
        .addColumn('program_name_en', 'text', text)
        .addColumn('program_name_fr', 'text', text)
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('import_version', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable(ALLOCATIONS_TABLE)
        .addColumn('project_id', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('name_en', 'text', text)
        .addColumn('name_fr', 'text', text)
        .addColumn('share_hundredths', 'integer', (c) => c.notNull())
        .addColumn('contribution_cents', columnType.bigint(d), (c) => c.notNull())
        .addColumn('disbursements_cents', columnType.bigint(d))
        .execute();
      await db.schema.createIndex('grants_international_allocations_by_code').on(ALLOCATIONS_TABLE).columns(['kind', 'code']).execute();
      await db.schema.createIndex('grants_international_allocations_by_project').on(ALLOCATIONS_TABLE).column('project_id').execute();
      await ensureAccentFoldFunction(db);
    },
  },
};

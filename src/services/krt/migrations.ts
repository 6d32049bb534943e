// Service B schema: the article store (one row per DOI, the file itself stays where it was imported from),
// extraction sessions with their ordered rows, chat sessions and the RRID validation cache. The RRID knowledge
// base is a precomputed aggregate (`aggregates`, name `rrid_kb`), rebuilt with every import.
import type { Migration } from 'kysely/migration';
import { columnType, dialectOf, idConstraint } from '../../core/db/dialect.ts';
import { createSubstringIndex } from '../../core/db/search-index.ts';
import { ARTICLE_SEARCH } from './search.ts';

export const krtMigrations: Record<string, Migration> = {
  krt_0001_store: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('krt_articles')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('doi', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('authors', 'text', (c) => c.notNull())
        .addColumn('publication_date', 'text')
        .addColumn('journal', 'text', (c) => c.notNull())
        .addColumn('is_preprint', columnType.boolean(d), (c) => c.notNull())
        .addColumn('version', 'integer')
        // The directory the file was imported from, and the file's path inside it.
        .addColumn('store_root', 'text', (c) => c.notNull())
        .addColumn('file_path', 'text', (c) => c.notNull())
        .addColumn('file_size', 'bigint', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('downloaded_at', 'text', (c) => c.notNull())
        .addColumn('imported_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('dataset', 'text', (c) => c.notNull())
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        // DOI and title folded (lower case, no diacritics) for the substring index of DOI suggestions.
        .addColumn('search_text', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('krt_articles_newest').on('krt_articles').columns(['publication_date desc', 'doi']).execute();
      await db.schema.createIndex('krt_articles_root').on('krt_articles').columns(['store_root', 'doi']).execute();
      await createSubstringIndex(db, ARTICLE_SEARCH);

      await db.schema
        .createTable('krt_sessions')
        .addColumn('session_id', 'text', (c) => c.primaryKey())
        .addColumn('article_id', 'bigint', (c) => c.notNull().references('krt_articles.id').onDelete('cascade'))
        .addColumn('doi', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('processing_time', columnType.double(d), (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('error', 'text')
        .addColumn('total_resources', 'integer', (c) => c.notNull())
        .addColumn('new_resources', 'integer', (c) => c.notNull())
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .execute();
      await db.schema.createIndex('krt_sessions_doi').on('krt_sessions').columns(['doi', 'created_at desc']).execute();
      await db.schema.createIndex('krt_sessions_article').on('krt_sessions').columns(['article_id']).execute();

      await db.schema
        .createTable('krt_session_rows')
        .addColumn('session_id', 'text', (c) => c.notNull().references('krt_sessions.session_id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_name', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('new_reuse', 'text', (c) => c.notNull())
        .addColumn('additional_information', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('krt_session_rows_pk', ['session_id', 'position'])
        .execute();

      await db.schema
        .createTable('krt_chat_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('state', columnType.json(d), (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('krt_chat_sessions_updated').on('krt_chat_sessions').columns(['updated_at']).execute();

      await db.schema
        .createTable('krt_validation_cache')
        .addColumn('cache_key', 'text', (c) => c.primaryKey())
        // The knowledge base the answer was computed from: a newer base makes the entry stale.
        .addColumn('kb_version', 'text', (c) => c.notNull())
        .addColumn('value', columnType.json(d), (c) => c.notNull())
        .addColumn('checked_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('krt_validation_cache_checked').on('krt_validation_cache').columns(['checked_at']).execute();
    },
  },
  // What RRID suggestion reads (rrid/suggestion-index.ts), written with the knowledge base at import: entries with
  // an RRID, the keys that retrieve them (catalog numbers, name tokens), and every token's document frequency.
  krt_0002_rrid_suggestion_index: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('krt_rrid_entries')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('rrid', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('papers', 'integer', (c) => c.notNull())
        .addColumn('mentions', 'integer', (c) => c.notNull())
        .addColumn('demo_only', columnType.boolean(d), (c) => c.notNull())
        .addColumn('detail', columnType.json(d), (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('krt_rrid_keys')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('entry_id', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('krt_rrid_keys_pk', ['kind', 'key', 'entry_id'])
        .execute();
      await db.schema
        .createTable('krt_rrid_token_stats')
        .addColumn('token', 'text', (c) => c.primaryKey())
        .addColumn('df', 'integer', (c) => c.notNull())
        .execute();
    },
  },
  // Rows the text extractor found carry the sentence they came from and a calibrated confidence (extract/learned/);
  // rows of author tables and language models have neither.
  krt_0003_row_evidence: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema.alterTable('krt_session_rows').addColumn('sentence', 'text').execute();
      await db.schema.alterTable('krt_session_rows').addColumn('confidence', columnType.double(d)).execute();
    },
  },
  // Public registries' own dumps as knowledge (registry/): one row per identifier as the registry writes it, and the
  // keys that find it (a name or synonym folded, a catalog number, a secondary accession that now points to it).
  krt_0004_registry: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('krt_registry_entries')
        .addColumn('identifier', 'text', (c) => c.primaryKey())
        .addColumn('registry', 'text', (c) => c.notNull())
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('synonyms', columnType.json(d), (c) => c.notNull())
        .addColumn('vendor', 'text')
        .addColumn('catalog', 'text')
        .addColumn('species', 'text')
        .addColumn('release', 'text', (c) => c.notNull())
        .addColumn('detail', columnType.json(d), (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('krt_registry_entries_registry').on('krt_registry_entries').columns(['registry', 'identifier']).execute();
      await db.schema
        .createTable('krt_registry_keys')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('krt_registry_keys_pk', ['kind', 'key', 'identifier'])
        .execute();
      await db.schema.createIndex('krt_registry_keys_identifier').on('krt_registry_keys').columns(['identifier']).execute();
    },
  },
  // Rows found in the text carry the row-inclusion model's probability and whether they are in the key resources
  // table or a further mention (extract/learned/inclusion.ts). Both null for rows stored before, and for author-table
  // and language-model rows: such a row is in the table.
  krt_0005_row_inclusion: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema.alterTable('krt_session_rows').addColumn('inclusion_probability', columnType.double(d)).execute();
      await db.schema.alterTable('krt_session_rows').addColumn('in_table', columnType.boolean(d)).execute();
    },
  },
};

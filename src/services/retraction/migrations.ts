// Service E schema. Papers (one per Retraction Watch record) with their subjects and countries as child rows
// for grouping; citations keyed by (paper, citing work) with the citing date and its distance in days from the
// retraction, computed at import; per-paper citation counts in their own table, so that refreshing them never
// touches the papers' search index; and the democracy country-year panel.
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { columnType, dialectOf, foldAccents, foldCase, idConstraint } from '../../core/db/dialect.ts';
import { createSubstringIndex, dropSubstringIndex } from '../../core/db/search-index.ts';
import { PAPER_SEARCH } from './search.ts';
import { NATURE_SQL } from './nature.ts';

export const retractionMigrations: Record<string, Migration> = {
  retraction_0001_papers_citations_panel: {
    async up(db) {
      const d = dialectOf(db);
      await db.schema
        .createTable('retraction_papers')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('record_id', 'text', (c) => c.notNull().unique())
        .addColumn('title', 'text', (c) => c.notNull())
        // Lower-cased (Unicode) copies used to rank autocomplete matches.
        .addColumn('title_fold', 'text', (c) => c.notNull())
        .addColumn('author', 'text', (c) => c.notNull())
        .addColumn('author_fold', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('institution', 'text')
        .addColumn('journal', 'text')
        .addColumn('publisher', 'text')
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('urls', 'text')
        .addColumn('article_type', 'text')
        .addColumn('retraction_date', 'text')
        // retraction_date or '' so that "newest first" keyset pages need no NULL handling.
        .addColumn('retraction_sort', 'text', (c) => c.notNull())
        .addColumn('retraction_doi', 'text')
        .addColumn('retraction_pubmed_id', 'text')
        .addColumn('original_paper_date', 'text')
        .addColumn('original_paper_doi', 'text')
        .addColumn('doi_key', 'text')
        .addColumn('original_paper_pubmed_id', 'text')
        .addColumn('retraction_nature', 'text')
        .addColumn('reason', 'text')
        .addColumn('paywalled', columnType.boolean(d))
        .addColumn('notes', 'text')
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addColumn('imported_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('retraction_papers_doi').on('retraction_papers').column('doi_key').execute();
      await db.schema.createIndex('retraction_papers_newest').on('retraction_papers').columns(['retraction_sort desc', 'id']).execute();
      await db.schema.createIndex('retraction_papers_journal').on('retraction_papers').column('journal').execute();

      await db.schema
        .createTable('retraction_paper_subjects')
        .addColumn('paper_id', 'bigint', (c) => c.notNull().references('retraction_papers.id').onDelete('cascade'))
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('code', 'text')
        .addPrimaryKeyConstraint('retraction_paper_subjects_pk', ['paper_id', 'subject'])
        .execute();
      await db.schema
        .createIndex('retraction_paper_subjects_subject')
        .on('retraction_paper_subjects')
        .columns(['subject', 'paper_id'])
        .execute();
      await db.schema
        .createTable('retraction_paper_countries')
        .addColumn('paper_id', 'bigint', (c) => c.notNull().references('retraction_papers.id').onDelete('cascade'))
        .addColumn('country', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('retraction_paper_countries_pk', ['paper_id', 'country'])
        .execute();
      await db.schema
        .createIndex('retraction_paper_countries_country')
        .on('retraction_paper_countries')
        .columns(['country', 'paper_id'])
        .execute();

      await db.schema
        .createTable('retraction_citations')
        .addColumn('paper_id', 'bigint', (c) => c.notNull().references('retraction_papers.id').onDelete('cascade'))
        .addColumn('citing_key', 'text', (c) => c.notNull())
        .addColumn('citing_doi', 'text')
        .addColumn('citing_date', 'text')
        .addColumn('citing_precision', 'text')
        .addColumn('citing_year', 'integer')
        .addColumn('citing_month', 'text')
        // citing date − retraction date in days (> 0: post-retraction; 0: same day); null when either is unknown.
        .addColumn('days_after', 'integer')
        // What the row says, to tell a changed citation from an unchanged one on re-import.
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('retraction_citations_pk', ['paper_id', 'citing_key'])
        .execute();
      await db.schema
        .createIndex('retraction_citations_paper_days')
        .on('retraction_citations')
        .columns(['paper_id', 'days_after'])
        .execute();
      await db.schema.createIndex('retraction_citations_date').on('retraction_citations').columns(['citing_date', 'paper_id']).execute();

      await db.schema
        .createTable('retraction_paper_counts')
        .addColumn('paper_id', 'bigint', (c) => c.primaryKey().references('retraction_papers.id').onDelete('cascade'))
        .addColumn('total', 'integer', (c) => c.notNull())
        .addColumn('pre', 'integer', (c) => c.notNull())
        .addColumn('same_day', 'integer', (c) => c.notNull())
        .addColumn('post', 'integer', (c) => c.notNull())
        .addColumn('undated', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('retraction_paper_counts_post')
        .on('retraction_paper_counts')
        .columns(['post desc', 'paper_id'])
        .execute();

      await db.schema
        .createTable('retraction_panel')
        .addColumn('id', columnType.id(d), idConstraint(d))
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('country_fold', 'text', (c) => c.notNull())
        .addColumn('iso3', 'text')
        .addColumn('region', 'text')
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('democracy_index', columnType.double(d))
        .addColumn('publications', columnType.double(d))
        .addColumn('retractions', 'integer')
        .addColumn('covariates', columnType.json(d), (c) => c.notNull())
        .addColumn('is_demo', columnType.boolean(d), (c) => c.notNull())
        .addColumn('content_hash', 'text', (c) => c.notNull())
        .addUniqueConstraint('retraction_panel_country_year', ['country', 'year'])
        .execute();
      await db.schema.createIndex('retraction_panel_year').on('retraction_panel').columns(['year', 'country']).execute();

      await createSubstringIndex(db, PAPER_SEARCH);
    },
  },
  retraction_0002_doi_prefix_index: {
    async up(db) {
      // The autocomplete looks DOI-shaped queries up by prefix. SQLite's binary-collated index on doi_key
      // serves a range already; PostgreSQL needs text_pattern_ops for LIKE 'prefix%' under a locale collation.
      if (dialectOf(db) === 'postgres') {
        await sql`CREATE INDEX retraction_papers_doi_prefix ON retraction_papers (doi_key text_pattern_ops)`.execute(db);
      }
    },
  },
  retraction_0003_citation_staging: {
    async up(db) {
      // Where a citations import stages the new set before merging it (rows tagged with the import's data
      // version, deleted before commit). A disk table rather than a TEMP one: SQLite keeps temporary tables in
      // memory here (temp_store = MEMORY), which made a 2-million-citation import hold the whole set in RAM.
      // UNLOGGED on PostgreSQL: the rows never outlive their transaction, so they need no WAL.
      const unlogged = dialectOf(db) === 'postgres' ? 'UNLOGGED ' : '';
      await sql
        .raw(
          `CREATE ${unlogged}TABLE retraction_citation_staging (import_id text NOT NULL, paper_id bigint NOT NULL, citing_key text NOT NULL, ` +
            `citing_doi text, citing_date text, citing_precision text, citing_year integer, citing_month text, days_after integer, fingerprint text NOT NULL, ` +
            `PRIMARY KEY (import_id, paper_id, citing_key))`,
        )
        .execute(db);
    },
  },
  retraction_0004_citation_window_index: {
    async up(db) {
      // The time-filtered analytics read citations by citing date; with days_after and citing_month in the
      // index they never touch the table rows (`npm run bench -- retraction` measures a 5-year window).
      await db.schema.dropIndex('retraction_citations_date').execute();
      await db.schema
        .createIndex('retraction_citations_window')
        .on('retraction_citations')
        .columns(['citing_date', 'paper_id', 'days_after', 'citing_month'])
        .execute();
    },
  },
  retraction_0005_nature_windows_set_aside: {
    async up(db) {
      // Written out rather than imported, so that this migration stays what it was if the code's lists change.
      const timeFilters = ['all', '1y', '3y', '5y'];
      const measures = ['total', 'post', 'd30', 'd365', 'd730', 'dover'];
      // What a notice is (nature.ts): only "retraction" is a retracted paper. Filled for the rows already stored.
      await db.schema
        .alterTable('retraction_papers')
        .addColumn('nature', 'text', (c) => c.notNull().defaultTo('other'))
        .execute();
      await sql.raw(`UPDATE retraction_papers SET nature = ${NATURE_SQL}`).execute(db);
      // The export's keyset pages of one kind.
      await db.schema
        .createIndex('retraction_papers_nature_newest')
        .on('retraction_papers')
        .columns(['nature', 'retraction_sort desc', 'id'])
        .execute();

      // Citations of papers a later papers import no longer had: kept by the cited DOI, not deleted, and joined
      // to the paper again when a papers import brings it back (a papers import never deletes citations).
      await db.schema
        .createTable('retraction_citations_set_aside')
        .addColumn('doi_key', 'text', (c) => c.notNull())
        .addColumn('citing_key', 'text', (c) => c.notNull())
        .addColumn('citing_doi', 'text')
        .addColumn('citing_date', 'text')
        .addColumn('citing_precision', 'text')
        .addColumn('citing_year', 'integer')
        .addColumn('citing_month', 'text')
        .addPrimaryKeyConstraint('retraction_citations_set_aside_pk', ['doi_key', 'citing_key'])
        .execute();

      // Per paper and time window, computed at import: citations, post-retraction citations and the timing
      // buckets, so that filtered analytics never read the citations (windows.ts).
      let windows = db.schema
        .createTable('retraction_paper_windows')
        .addColumn('paper_id', 'bigint', (c) => c.primaryKey().references('retraction_papers.id').onDelete('cascade'));
      for (const w of timeFilters) for (const m of measures) windows = windows.addColumn(`${m}_${w}`, 'integer', (c) => c.notNull());
      await windows.execute();
      // Post-retraction citations per paper and citing month, the trend months only, per time window.
      let months = db.schema
        .createTable('retraction_paper_months')
        .addColumn('paper_id', 'bigint', (c) => c.notNull().references('retraction_papers.id').onDelete('cascade'))
        .addColumn('month', 'text', (c) => c.notNull());
      for (const w of timeFilters) months = months.addColumn(`post_${w}`, 'integer', (c) => c.notNull());
      await months.addPrimaryKeyConstraint('retraction_paper_months_pk', ['paper_id', 'month']).execute();
    },
  },
  retraction_0006_export_lines: {
    async up(db) {
      // The CSV export's finished lines, stored at import in export order (export-lines.ts).
      await db.schema
        .createTable('retraction_export_lines')
        .addColumn('paper_id', 'bigint', (c) => c.primaryKey().references('retraction_papers.id').onDelete('cascade'))
        .addColumn('retraction_sort', 'text', (c) => c.notNull())
        .addColumn('nature', 'text', (c) => c.notNull())
        .addColumn('line', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('retraction_export_lines_order')
        .on('retraction_export_lines')
        .columns(['retraction_sort desc', 'paper_id'])
        .execute();
      await db.schema
        .createIndex('retraction_export_lines_nature_order')
        .on('retraction_export_lines')
        .columns(['nature', 'retraction_sort desc', 'paper_id'])
        .execute();
    },
  },
  retraction_0007_analytics_snapshots: {
    async up(db) {
      // The in-memory analytics index of a data version, serialised by the importer, so that a serving process
      // loads one row instead of reading four tables (analytics-index.ts).
      await db.schema
        .createTable('retraction_analytics_snapshots')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('data_version', 'text', (c) => c.notNull())
        .addColumn('bytes', dialectOf(db) === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .execute();
    },
  },
  retraction_0008_export_blocks: {
    async up(db) {
      // The CSV export's lines in blocks (one row per 64 lines, with the line ends) rather than one row per line:
      // a 1,000-row export reads 16 rows instead of 1,000 (export-lines.ts). One series per nature= value.
      const blob = dialectOf(db) === 'postgres' ? 'bytea' : 'blob';
      await db.schema.dropTable('retraction_export_lines').execute();
      await db.schema
        .createTable('retraction_export_blocks')
        .addColumn('series', 'text', (c) => c.notNull())
        .addColumn('block', 'integer', (c) => c.notNull())
        .addColumn('lines', 'integer', (c) => c.notNull())
        .addColumn('bytes', blob, (c) => c.notNull())
        .addColumn('ends', blob, (c) => c.notNull())
        .addPrimaryKeyConstraint('retraction_export_blocks_pk', ['series', 'block'])
        .execute();
    },
  },
  retraction_0009_accent_folded_search: {
    async up(db) {
      // The autocomplete ignores accents ("montreal" finds "Montréal"): the index folds them, and so do the folded
      // columns its ranking reads (written by foldAccents from now on; the rows already stored are folded here).
      await dropSubstringIndex(db, { ...PAPER_SEARCH, accents: 'keep' });
      await createSubstringIndex(db, PAPER_SEARCH);
      let after = 0;
      for (;;) {
        const rows = await sql<{ id: number; title: string; author: string }>`
          SELECT id, title, author FROM retraction_papers WHERE id > ${after} ORDER BY id LIMIT 5000`.execute(db);
        if (rows.rows.length === 0) break;
        for (const row of rows.rows) {
          const title = foldAccents(row.title);
          const author = foldAccents(row.author);
          if (title !== foldCase(row.title) || author !== foldCase(row.author)) {
            await sql`UPDATE retraction_papers SET title_fold = ${title}, author_fold = ${author} WHERE id = ${row.id}`.execute(db);
          }
        }
        after = Number(rows.rows[rows.rows.length - 1].id);
      }
    },
  },
};

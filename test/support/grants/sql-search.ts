// The reference the in-memory search is compared with: the same search as one SQL query over the table.
import { sql } from 'kysely';
import type { Kysely, SqlBool } from 'kysely';
import { containsText, dbBool, dialectOf } from '../../../src/core/db/dialect.ts';
import { substringMatch } from '../../../src/core/db/search-index.ts';
import { agreementsWithTexts, grantsByIds, textOf } from '../../../src/services/grants/repository.ts';
import type { SearchResult } from '../../../src/services/grants/repository.ts';
import { SORT_ORDERS, apostropheForms } from '../../../src/services/grants/search/query.ts';
import type { SearchFilters, SearchOrder, SearchPage } from '../../../src/services/grants/search/query.ts';
import { searchesFrench } from '../../../src/services/grants/search/memory-search.ts';
import { MAJOR_FUNDING_THRESHOLD_CENTS } from '../../../src/services/grants/source/index.ts';
import { GRANTS_SEARCH, SEARCHED_COLUMNS } from '../../../src/services/grants/tables.ts';
import type { GrantsDatabase } from '../../../src/services/grants/tables.ts';

/**
 * A search as one SQL query over the table (a scan: the table has no secondary index): the reference the
 * in-memory search is compared with.
 */
export async function searchGrantsInSql(
  db: Kysely<GrantsDatabase>,
  filters: SearchFilters,
  order: SearchOrder,
  page: SearchPage,
): Promise<SearchResult> {
  // (the recipient and program orders are the order of their texts, which the dictionary holds)
  let base = agreementsWithTexts(db);
  // the English texts, and with French the French ones too (their stemmed matches aside: not in SQL)
  const columns = SEARCHED_COLUMNS.filter((c) => searchesFrench(filters.language) || !c.column.endsWith('_fr'));
  if (filters.text !== undefined) {
    // the agreements one of whose searched columns is a dictionary text containing the string
    // (or one of its forms with its apostrophes written the other way)
    const forms = apostropheForms(filters.text);
    const texts = db
      .selectFrom('grants_texts')
      .select('id')
      .where(
        sql<SqlBool>`(${sql.join(
          forms.map((form) => substringMatch(db, GRANTS_SEARCH, form)),
          sql` OR `,
        )})`,
      );
    base = base.where((eb) => eb.or(columns.map((c) => eb(`g.${c.textId}`, 'in', texts))));
  }
  if (filters.province !== undefined) base = base.where('g.recipient_province', '=', filters.province);
  if (filters.fiscalYear !== undefined) base = base.where('g.fiscal_year', '=', filters.fiscalYear);
  if (filters.recipientType !== undefined) base = base.where('g.recipient_type', '=', filters.recipientType);
  if (filters.minCents !== undefined) base = base.where('g.agreement_value_cents', '>=', filters.minCents);
  if (filters.maxCents !== undefined) base = base.where('g.agreement_value_cents', '<=', filters.maxCents);
  if (filters.isMajor !== undefined)
    base = base.where('g.agreement_value_cents', filters.isMajor ? '>' : '<=', MAJOR_FUNDING_THRESHOLD_CENTS);
  if (filters.isNotable !== undefined) base = base.where('g.is_notable', '=', dbBool(db, filters.isNotable));

  const count = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const direction = order.descending ? 'desc' : 'asc';
  let query = base.select('g.id');
  if (filters.text !== undefined) {
    // the agreements with a searched text holding the string with its accents as written come first
    const exact = apostropheForms(filters.text).flatMap((form) => columns.map((c) => containsText(db, textOf(c.column), form.trim())));
    query = query.orderBy(sql`case when ${sql.join(exact, sql` or `)} then 0 else 1 end`);
  }
  for (const column of SORT_ORDERS[order.field].columns) {
    // NULLs (end dates only) sort as the lowest value on both databases, as SQLite does by itself.
    const nulls =
      column === 'agreement_end_date' && dialectOf(db) === 'postgres' ? (order.descending ? ' nulls last' : ' nulls first') : '';
    const ref = column === 'recipient_legal_name' || column === 'program_name_en' ? textOf(column) : sql.ref(`g.${column}`);
    query = query.orderBy(sql`${ref} ${sql.raw(`${direction}${nulls}`)}`);
  }
  const ids = await query.orderBy('g.id', direction).limit(page.limit).offset(page.offset).execute();
  return {
    count,
    rows: await grantsByIds(
      db,
      ids.map((r) => r.id),
    ),
  };
}

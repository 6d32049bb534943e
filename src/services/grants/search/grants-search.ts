// C's search, owned once per process: the in-memory index of the agreements of the current data version
// (memory-search.ts) and the reads built on it. The API route (GET /api/search/) and the pages (the search page,
// a recipient's agreements, the department totals) call these functions directly.
import type { Kysely } from 'kysely';
import type { DataVersionWatcher } from '../../../core/service.ts';
import type { GrantsLanguage } from '../language.ts';
import { grantsByIds } from '../repository.ts';
import type { Grant } from '../schemas/grant.ts';
import type { GrantsDatabase } from '../tables.ts';
import { MemorySearch } from './memory-search.ts';
import type { DepartmentTotal, RecipientAgreements } from './memory-search.ts';
import { searchRequest } from './request.ts';
import type { SearchParameters } from './request.ts';
import type { SearchFilters, SearchOrder, SearchPage } from './query.ts';

/** The answer of GET /api/search/. */
export interface SearchAnswer {
  count: number;
  limit: number;
  offset: number;
  results: Grant[];
}

/** A search: counted and paged in memory, then the page's rows read by id, with their texts in `language`. */
export async function searchGrants(
  db: Kysely<GrantsDatabase>,
  memory: MemorySearch,
  filters: SearchFilters,
  order: SearchOrder,
  page: SearchPage,
  language: GrantsLanguage = 'en',
): Promise<{ count: number; rows: Grant[] }> {
  const { count, ids } = await memory.search(filters, order, page);
  return { count, rows: await grantsByIds(db, ids, language) };
}

/** How many of the largest agreements a search reads the recipients' names of, for suggestions. */
const SUGGESTION_ROWS = 200;

export class GrantsSearch {
  readonly db: Kysely<GrantsDatabase>;
  readonly memory: MemorySearch;

  constructor(db: Kysely<GrantsDatabase>, versions: DataVersionWatcher) {
    this.db = db;
    this.memory = new MemorySearch(db, versions);
  }

  /** Loads the index of the stored data version unless it is current (the server calls it once ready). */
  ready(): Promise<void> {
    return this.memory.ready();
  }

  /**
   * A search: the parameters read (a 400 naming a bad one), the matches counted and paged in memory, then the
   * page's rows read by id, with their texts in `language` (which also says which texts are searched: searchesFrench).
   */
  async answer(parameters: SearchParameters, language: GrantsLanguage): Promise<SearchAnswer> {
    const { filters, order, page } = searchRequest(parameters, language);
    const { count, rows } = await searchGrants(this.db, this.memory, filters, order, page, language);
    return { count, limit: page.limit, offset: page.offset, results: rows };
  }

  /** The agreements of one recipient (by legal name, case and apostrophe form aside): totals, by year, one page of ids. */
  recipient(name: string, page: SearchPage): Promise<RecipientAgreements> {
    return this.memory.recipient(name, page);
  }

  /**
   * Recipients' legal names close to `name`, for a look-up that found none: those of the agreements the search finds
   * for the name (largest first), else for its longest word that finds any; at most `limit` names, each once.
   */
  async recipientsLike(name: string, limit: number): Promise<string[]> {
    const words = name.split(/[\s,.;:()]+/).filter((w) => w.length >= 3);
    const queries = [name, ...words.sort((a, b) => b.length - a.length)];
    for (const text of queries) {
      const { ids } = await this.memory.search(
        { text },
        { field: 'agreement_value', descending: true },
        { limit: SUGGESTION_ROWS, offset: 0 },
      );
      if (ids.length === 0) continue;
      const names = new Set((await grantsByIds(this.db, ids)).map((g) => g.recipient_legal_name).filter((n) => n !== ''));
      return [...names].slice(0, limit);
    }
    return [];
  }

  /** Totals by department, by total value descending. */
  departments(): Promise<DepartmentTotal[]> {
    return this.memory.departments();
  }
}
